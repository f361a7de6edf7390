import { listOutbox } from '../services/identity/sms-outbox';
import { openTestDatabase } from '../testing/test-app';
import { recordingSmsSender } from './sms-recording';
import { sandboxSmsSender } from './sms';
import { smsSenderContract } from './sms.contract';

smsSenderContract('sandbox outbox', async () => {
  const database = await openTestDatabase();
  return {
    sender: sandboxSmsSender(database.db),
    async delivered(phoneNumber) {
      const newestFirst = await listOutbox(database.db, { phoneNumber, limit: 100 });
      return newestFirst.reverse().map(({ to, body }) => ({ to, body }));
    },
    release: () => database.close(),
  };
});

smsSenderContract('recording (tests)', async () => {
  const sender = recordingSmsSender();
  return {
    sender,
    delivered: (phoneNumber) => Promise.resolve(sender.sent.filter((m) => m.to === phoneNumber)),
  };
});

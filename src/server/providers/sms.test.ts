import { listOutbox } from '../services/identity/sms-outbox';
import { startAfricasTalkingSimulator } from '../testing/africastalking-simulator/africastalking-simulator';
import { startTermiiSimulator } from '../testing/termii-simulator/termii-simulator';
import { openTestDatabase } from '../testing/test-app';
import { recordingSmsSender } from './sms-recording';
import { sandboxSmsSender } from './sms';
import { smsProviderContract, smsSenderContract, type TSmsProviderUnderTest } from './sms.contract';
import { africasTalkingSmsSender } from './africastalking/africastalking-sender';
import { termiiSmsSender } from './termii/termii-sender';

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

/** Termii's adapter on the simulator: what reached a number is what the simulator accepted. */
async function termiiUnderTest(): Promise<TSmsProviderUnderTest> {
  const termii = await startTermiiSimulator();
  return {
    sender: termiiSmsSender({
      apiKey: termii.apiKey,
      senderId: termii.senderId,
      baseUrl: termii.url,
    }),
    delivered: (phoneNumber) =>
      Promise.resolve(
        termii.messages
          .filter((message) => `+${message.to}` === phoneNumber)
          .map((message) => ({ to: `+${message.to}`, body: message.sms })),
      ),
    refuseNext: () => termii.failNext(400, 'Insufficient balance'),
    failNext: () => termii.failNext(503),
    release: () => termii.close(),
  };
}

smsSenderContract('Termii (its simulator)', termiiUnderTest);
smsProviderContract('Termii (its simulator)', termiiUnderTest);

/**
 * Africa's Talking's adapter on the simulator: what reached a number is what the simulator sent.
 * A refusal is a recipient's InsufficientBalance (405); its own failure, an HTTP 503.
 */
async function africasTalkingUnderTest(): Promise<TSmsProviderUnderTest> {
  const at = await startAfricasTalkingSimulator();
  return {
    sender: africasTalkingSmsSender({
      username: at.username,
      apiKey: at.apiKey,
      senderId: at.senderId,
      baseUrl: at.url,
    }),
    delivered: (phoneNumber) =>
      Promise.resolve(
        at.messages
          .filter((message) => message.to === phoneNumber)
          .map((message) => ({ to: message.to, body: message.message })),
      ),
    refuseNext: () => at.refuseNext(405),
    failNext: () => at.failNext(503),
    release: () => at.close(),
  };
}

smsSenderContract("Africa's Talking (its simulator)", africasTalkingUnderTest);
smsProviderContract("Africa's Talking (its simulator)", africasTalkingUnderTest);

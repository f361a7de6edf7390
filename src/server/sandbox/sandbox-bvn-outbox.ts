import type { TDb } from '../db/database';
import type { TJobs } from '../jobs/engine';
import { openSmsOutbox, sendQueuedSms, SMS_ASKED_BY_NO_CALL } from '../jobs/sms-job';
import type { TSandboxCodeDelivery } from './sandbox-bvn-registry';

/**
 * The sandbox BVN registry's SMS, through the server's SMS outbox (docs/sandbox.md): queued with
 * its job in one transaction, then sent at once where this process sends SMS, so the code is on
 * /sandbox/messages (or the SMS provider's phone) by the time the payer's call answers.
 */
export function bvnCodesThroughOutbox(db: TDb, jobs: TJobs): TSandboxCodeDelivery {
  return async ({ change, phoneNumber, body, notAfter }) => {
    const outbox = await openSmsOutbox({ db, jobs, smsGate: SMS_ASKED_BY_NO_CALL });
    const id = await db.transaction((tx) =>
      outbox.queue(tx, change, { phoneNumber, body, notAfter }),
    );
    await sendQueuedSms(jobs, [id]);
  };
}

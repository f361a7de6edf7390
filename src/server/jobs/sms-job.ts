import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import type { TSmsSender } from '../providers/sms';
import { enqueueJob, jobIdFor, type TJobKind, type TJobs } from './engine';

/*
 * Every SMS the server sends is this job (docs/jobs.md "The outbox"): queued in the transaction of
 * the change that calls for it (a code, a grant's receipt, a new device, a passkey's removal, a
 * revocation, a changed number, a notice before a debit), sent by the engine, retried with
 * backoff, dead-lettered when it never goes. The job's id is fixed by the change, so one change
 * sends one SMS however often it is queued. Nothing else hands a message to the SMS port
 * (sms-outbox.test.ts).
 */

/** The job kind that sends one SMS. */
export const SMS_JOB = 'sms.send';

export type TSmsJob = {
  phoneNumber: string;
  body: string;
  /** When the message is worth nothing any more (a code's expiry, ISO): it is then not sent. */
  notAfter?: string;
};

/** What a service needs of the engine to send its queued SMS at once; absent, another process does. */
export type TSmsNudge = Pick<TJobs, 'nudge'> | undefined;

export function smsJob(sms: TSmsSender, clock: TClock): TJobKind<TSmsJob> {
  return {
    name: SMS_JOB,
    retry: { limit: 12, delaySeconds: 15, maxDelaySeconds: 3_600 },
    expireSeconds: 60,
    run: async ({ phoneNumber, body, notAfter }) => {
      // A code that expired before its SMS could go: sending it now would only mislead.
      if (notAfter && clock.now().getTime() >= Date.parse(notAfter)) return { sent: false };
      await sms.send(phoneNumber, body);
      return { sent: true };
    },
  };
}

/**
 * Queues one SMS on `tx`, the transaction of the change that calls for it. `change` names that
 * change (`consent-receipt:<consentId>`): the same change queued again is the same job, one SMS.
 * Answers the job's id, for sendQueuedSms after the commit.
 */
export async function queueSms(tx: TDb, change: string, message: TSmsJob): Promise<string> {
  const id = jobIdFor(change);
  await enqueueJob(tx, SMS_JOB, message, { id });
  return id;
}

/**
 * After the commit that queued them: this process sends the SMS `ids` now when it works on SMS
 * jobs, and resolves once they were tried (the payer has their code when the call answers). It
 * never throws: the queued job is the guarantee, retried by the engine.
 */
export async function sendQueuedSms(jobs: TSmsNudge, ids: (string | null)[]): Promise<void> {
  const queued = ids.filter((id): id is string => id !== null);
  if (queued.length > 0) await jobs?.nudge(SMS_JOB, queued);
}

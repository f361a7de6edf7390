import type { TSmsSender } from '../providers/sms';
import type { TJobKind } from './engine';

/*
 * An SMS that must reach the payer whatever happens after the change that calls for it (a new
 * device on their account, a notice before a debit): queued in the change's transaction, sent by
 * the engine, retried with backoff, dead-lettered when it never goes.
 */

/** The job kind that sends one SMS. */
export const SMS_JOB = 'sms.send';

export type TSmsJob = { phoneNumber: string; body: string };

export function smsJob(sms: TSmsSender): TJobKind<TSmsJob> {
  return {
    name: SMS_JOB,
    retry: { limit: 12, delaySeconds: 15, maxDelaySeconds: 3_600 },
    expireSeconds: 60,
    run: async ({ phoneNumber, body }) => {
      await sms.send(phoneNumber, body);
      return { sent: true };
    },
  };
}

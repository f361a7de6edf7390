/*
 * The SMS port itself, apart from the adapters sms.ts chooses among, so that each adapter can
 * name it without a circle of imports.
 */

/**
 * The SMS port: how every message leaves the server. One adapter per app, chosen at start-up
 * from SMS_PROVIDER (`smsSenderFor` in sms.ts); every adapter passes the contract suite in
 * sms.contract.ts. Only the `sms.send` job calls it (jobs/sms-job.ts).
 */
export type TSmsSender = {
  /**
   * Hands one message to the provider; resolves once the provider has accepted it. A message the
   * provider did not take is thrown as SmsNotSent, which says whether sending it again may help.
   */
  send(phoneNumber: string, body: string): Promise<void>;
};

/**
 * A message the provider did not take, and whether the `sms.send` job should send it again.
 *
 * - `retryable: false`: the provider answered and refused it (a number it cannot reach, a sender
 *   it does not know, a key it refuses, no balance). The same message would be refused again, so
 *   it ends unsent.
 * - `retryable: true`: no answer that says so (a timeout, a broken connection, the provider's own
 *   failure). The message may or may not have gone; the job sends it again, and the payer may
 *   then get it twice (docs/providers/termii.md "What is retried").
 *
 * `fault`: whose the refusal is, where the provider says: 'number', a number it will never reach
 * (the payer may give another: a 4xx for the payer), else 'service' (ours to mend: a key, a
 * sender, a balance; a 5xx).
 *
 * Its message names the provider and why, never the text sent or a key.
 */
export class SmsNotSent extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly fault: 'number' | 'service' = 'service',
  ) {
    super(message);
    this.name = 'SmsNotSent';
  }
}

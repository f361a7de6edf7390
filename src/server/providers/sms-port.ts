/*
 * The SMS port itself, apart from the adapters sms.ts chooses among, so that each adapter can
 * name it without a circle of imports.
 */

/**
 * The SMS port: how every message leaves the server. One adapter per provider of SMS_PROVIDERS,
 * built at start-up (`smsProvidersFor` in sms.ts); every adapter passes the contract suite in
 * sms.contract.ts. Only the `sms.send` job calls it (jobs/sms-job.ts), which tries them in the
 * order health routing gives for each message.
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
 *   it does not know, a key it refuses, no balance). The same provider would refuse it again:
 *   it is never sent there again. A refusal of the number ends it unsent; any other moves it to
 *   the next provider of the list, and ends it unsent where every one refused.
 * - `retryable: true`: no answer that says so (a timeout, a broken connection, the provider's own
 *   failure). The message may or may not have gone; the job hands it to the next provider, or
 *   sends it again later, and the payer may then get it twice (docs/providers/termii.md "What is
 *   retried").
 *
 * `fault`: whose the refusal is, where the provider says: 'number', a number it will never reach
 * (the payer may give another: a 4xx for the payer; it counts nothing against the provider's
 * health), else 'service' (ours or the provider's to mend: a key, a sender, a balance; a 5xx).
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

/**
 * Every SMS adapter the server runs: SMS_PROVIDERS in order (none when SMS is off), and each
 * one's adapter by that name. The `sms.send` job asks health routing which of the list to try
 * first for each message, and moves to the next when one fails (jobs/sms-job.ts).
 */
export type TSmsProviders = {
  readonly list: readonly string[];
  /** The adapter of a provider of `list` (the same one each time); throws for another name. */
  senderOf(name: string): TSmsSender;
};

import type { TPaymentAttemptState } from './schemas/payment';

/*
 * 'Try Again' through another card processor (docs/payments.md "Card failover"): a card charge
 * its processor did not answer is asked about first; once it says it took nothing (or never
 * says, within a few minutes) the attempt's view says `retryElsewhere`, and the 'Payment Failed'
 * view (spec §2) leads with 'Try Again' instead of 'Retry Payment': the payer enters the card's
 * steps again (its PIN, an OTP, a 3-D Secure check belong to one processor's session).
 */

/** What the payer reads under the failure: what Try Again does. */
export const TRY_AGAIN_ELSEWHERE_TEXT =
  'Try Again to pay through another card processor. Your bank may ask for your PIN or a code again.';

/** Said when the first processor never said whether it took the money. */
export const UNCONFIRMED_CHARGE_TEXT =
  'If your bank took money for that try, it pays this payment or is sent back to you.';

/** Whether the latest attempt's failure offers 'Try Again' through another card processor. */
export const offersTryAgainElsewhere = (attempt: TPaymentAttemptState | null): boolean =>
  attempt !== null &&
  attempt.method === 'card' &&
  attempt.state === 'failed' &&
  attempt.retryElsewhere === true;

/** The lines added to a failure's words when Try Again goes to another processor. */
export const tryAgainElsewhereLines = (attempt: TPaymentAttemptState): string[] =>
  attempt.charged === null
    ? [UNCONFIRMED_CHARGE_TEXT, TRY_AGAIN_ELSEWHERE_TEXT]
    : [TRY_AGAIN_ELSEWHERE_TEXT];

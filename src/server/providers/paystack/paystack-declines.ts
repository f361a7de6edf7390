import type { TCardFailureReason, TDebitFailureReason } from '../payments';

/*
 * Paystack's words for a refusal (a charge's gateway_response, or the message of an answer with
 * status false) read as the port's reasons. Paystack documents no closed list of them: these are
 * the ones its test cards and guides show, matched loosely (case, wording around them). What
 * matches none is a plain decline: a refusal is never read as anything but a refusal.
 */

const CARD_DECLINES: ReadonlyArray<readonly [RegExp, TCardFailureReason]> = [
  [/insufficient/i, 'insufficient_funds'],
  [/\bpin\b/i, 'incorrect_pin'],
  [/\botp\b|\btoken\b/i, 'incorrect_otp'],
  [/3-?d|three.?d|authenticat/i, 'three_ds_declined'],
  [/time.?out|timed out|no response|unavailable|issuer.*(down|inoperative)/i, 'timeout'],
  [
    /invalid card|card number|invalid (expiry|cvv|cvc)|expired card|card (has )?expired|\bcvv\b|\bcvc\b|expiry/i,
    'invalid_card',
  ],
];

/** Why Paystack refused a card charge, in the port's words. */
export function cardDeclineReason(words: string | null | undefined): TCardFailureReason {
  const text = words ?? '';
  return CARD_DECLINES.find(([pattern]) => pattern.test(text))?.[1] ?? 'declined';
}

/**
 * Why Paystack refused a debit on an authorisation. The port knows two reasons besides a closed
 * reference: the money is not there, or the account (its authorisation) cannot be debited; every
 * other refusal is the second, since a retry cannot mend it.
 */
export function debitDeclineReason(words: string | null | undefined): TDebitFailureReason {
  return /insufficient/i.test(words ?? '') ? 'insufficient_funds' : 'account_not_found';
}

/** Whether Paystack refused a call because its reference was used before. */
export const isDuplicateReference = (refusal: { message: string; code: string | null }) =>
  refusal.code === 'duplicate_reference' || /duplicate/i.test(refusal.message);

/** Whether Paystack answered that it knows nothing by the reference asked about. */
export const isUnknownReference = (refusal: { httpStatus: number; message: string }) =>
  refusal.httpStatus === 404 || /not found/i.test(refusal.message);

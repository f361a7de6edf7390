import { ERROR_CATALOGUE } from './errors';

/** Why an issuer refused a card, as the payer reads it after the catalogue's words. */
const CARD_REFUSAL_TEXT = {
  // The page returns to the first consent screen on these words (spec §4).
  insufficient_funds: 'Insufficient funds',
  incorrect_pin: 'Incorrect PIN',
  invalid_card: 'Check the card details',
  declined: 'Declined by your bank',
} as const;

export type TCardRefusal = keyof typeof CARD_REFUSAL_TEXT;

export const isCardRefusal = (reason: string | null): reason is TCardRefusal =>
  reason !== null && Object.hasOwn(CARD_REFUSAL_TEXT, reason);

/**
 * The catalogue's words for a refused card with the issuer's reason ('Card payment failed:
 * Insufficient funds'): what the charge's answer says, and what a payment read says after it.
 */
export function refusedCardMessage(
  code: 'CARD_PAYMENT_FAILED' | 'CARD_LINKING_FAILED',
  reason: TCardRefusal,
): string {
  return `${ERROR_CATALOGUE[code].message}: ${CARD_REFUSAL_TEXT[reason]}`;
}

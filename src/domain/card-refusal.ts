// The reasons' words are apart (card-refusal-text.ts), so that the page's first screen reads
// them without the catalogue.
import { CARD_REFUSAL_TEXT, type TCardRefusal } from './card-refusal-text';
import { ERROR_CATALOGUE } from './errors';

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

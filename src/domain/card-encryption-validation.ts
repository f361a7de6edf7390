import { parseExpiryDate } from './card-expiry';
import { cardNumberDigits } from './card-number';
import { PIN_LENGTH } from './constants';
import { ERROR_CATALOGUE, type TErrorCode } from './errors';

export type TCardToEncrypt = { cardNumber: string; expiryDate: string; cvv: string; pin?: string };

// Nigeria keeps West Africa Time (UTC+1) all year, with no daylight saving.
const LAGOS_OFFSET_MS = 60 * 60 * 1_000;

/**
 * The catalogue code of the first §5 encryption rule the card breaks, in the spec's order, or
 * null. The server runs the same check on decrypted details, so both answer alike.
 * A card is valid through the last day of its expiry month, judged in Lagos time (spec §5).
 */
export function findCardEncryptionError(card: TCardToEncrypt, now: Date): TErrorCode | null {
  const digits = cardNumberDigits(card.cardNumber);
  // spec §5: encryption accepts 16 digits only, stricter than the form's 16–19.
  if (digits.length !== 16) return 'CARD_NUMBER_LENGTH_INVALID';
  if (!/^\d+$/.test(digits)) return 'CARD_NUMBER_NOT_DIGITS';

  const { month, year } = parseExpiryDate(card.expiryDate);
  if (month === null || month < 1 || month > 12) return 'CARD_MONTH_INVALID';
  const lagosNow = new Date(now.getTime() + LAGOS_OFFSET_MS);
  const thisYear = lagosNow.getUTCFullYear();
  const thisMonth = lagosNow.getUTCMonth() + 1;
  if (year === null || year < thisYear) return 'CARD_YEAR_INVALID';
  if (year === thisYear && month < thisMonth) return 'CARD_EXPIRED';

  if (card.cvv.length < 3 || card.cvv.length > 4) return 'CVV_LENGTH_INVALID';
  if (!/^\d+$/.test(card.cvv)) return 'CVV_NOT_DIGITS';

  if (card.pin !== undefined) {
    if (card.pin.length !== PIN_LENGTH) return 'PIN_LENGTH_INVALID';
    if (!/^\d+$/.test(card.pin)) return 'PIN_NOT_DIGITS';
  }
  return null;
}

/** The message of the first §5 encryption rule the card breaks, or null when it may be encrypted. */
export function validateCardForEncryption(card: TCardToEncrypt, now: Date): string | null {
  const code = findCardEncryptionError(card, now);
  return code === null ? null : ERROR_CATALOGUE[code].message;
}

import { parseExpiryDate } from './card-expiry';
import { cardNumberDigits } from './card-number';
import { PIN_LENGTH } from './constants';
import { ERROR_CATALOGUE, type TErrorCode } from './errors';

export type TCardToEncrypt = { cardNumber: string; expiryDate: string; cvv: string; pin?: string };

// Nigeria keeps West Africa Time (UTC+1) all year, with no daylight saving.
const LAGOS_OFFSET_MS = 60 * 60 * 1_000;

/** The §5 encryption rule the card number breaks, or null. */
export function cardNumberRuleBroken(cardNumber: string): TErrorCode | null {
  const digits = cardNumberDigits(cardNumber);
  // spec §5: encryption accepts 16 digits only, stricter than the form's 16–19.
  if (digits.length !== 16) return 'CARD_NUMBER_LENGTH_INVALID';
  if (!/^\d+$/.test(digits)) return 'CARD_NUMBER_NOT_DIGITS';
  return null;
}

/**
 * The §5 encryption rule the expiry 'MM/YY' breaks, or null: month, then year, then expired. A
 * card is valid through the last day of its expiry month, judged in Lagos time (spec §5).
 */
export function expiryRuleBroken(expiryDate: string, now: Date): TErrorCode | null {
  const { month, year } = parseExpiryDate(expiryDate);
  if (month === null || month < 1 || month > 12) return 'CARD_MONTH_INVALID';
  const lagosNow = new Date(now.getTime() + LAGOS_OFFSET_MS);
  const thisYear = lagosNow.getUTCFullYear();
  const thisMonth = lagosNow.getUTCMonth() + 1;
  if (year === null || year < thisYear) return 'CARD_YEAR_INVALID';
  if (year === thisYear && month < thisMonth) return 'CARD_EXPIRED';
  return null;
}

/** The §5 encryption rule the CVV breaks, or null. */
export function cvvRuleBroken(cvv: string): TErrorCode | null {
  if (cvv.length < 3 || cvv.length > 4) return 'CVV_LENGTH_INVALID';
  if (!/^\d+$/.test(cvv)) return 'CVV_NOT_DIGITS';
  return null;
}

/** The §5 encryption rule the PIN breaks, or null. */
export function pinRuleBroken(pin: string): TErrorCode | null {
  if (pin.length !== PIN_LENGTH) return 'PIN_LENGTH_INVALID';
  if (!/^\d+$/.test(pin)) return 'PIN_NOT_DIGITS';
  return null;
}

/**
 * The catalogue code of the first §5 encryption rule the card breaks, in the spec's order, or
 * null. The server runs the same check on decrypted details, so both answer alike; the card form
 * shows each field's rule under that field (card-form.ts).
 */
export function findCardEncryptionError(card: TCardToEncrypt, now: Date): TErrorCode | null {
  return (
    cardNumberRuleBroken(card.cardNumber) ??
    expiryRuleBroken(card.expiryDate, now) ??
    cvvRuleBroken(card.cvv) ??
    (card.pin === undefined ? null : pinRuleBroken(card.pin))
  );
}

/** The message of the first §5 encryption rule the card breaks, or null when it may be encrypted. */
export function validateCardForEncryption(card: TCardToEncrypt, now: Date): string | null {
  const code = findCardEncryptionError(card, now);
  return code === null ? null : ERROR_CATALOGUE[code].message;
}

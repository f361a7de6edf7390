import { CARD_BRAND_NAMES, detectCardBrand } from './card-brand';
import {
  CARD_BRAND_NUMBER_LENGTH,
  CARD_NUMBER_INPUT_MAX_LENGTH,
  CARD_NUMBER_MASK_MIN_LENGTH,
  CARD_NUMBER_MAX_DIGITS,
  CARD_NUMBER_MIN_DIGITS,
} from './constants';
import { PAGE_ERRORS } from './page-errors';

/** The digits of a card number as typed: spaces removed (spec §5). */
export function cardNumberDigits(cardNumber: string): string {
  return cardNumber.replace(/\s/g, '');
}

const groupInFours = (digits: string): string => digits.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * The card number field as the payer types (spec §5): digits only, grouped in fours, at most
 * 23 characters (19 digits and their 4 spaces).
 */
export function formatCardNumberInput(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, CARD_NUMBER_MAX_DIGITS);
  return groupInFours(digits).slice(0, CARD_NUMBER_INPUT_MAX_LENGTH);
}

/**
 * The card number field after blur (spec §5): from 8 characters on, every digit but the last 4
 * shows as '*', keeping the groups of four. Shorter input is shown as typed.
 */
export function maskCardNumberInput(value: string): string {
  const formatted = formatCardNumberInput(value);
  if (formatted.length < CARD_NUMBER_MASK_MIN_LENGTH) return formatted;
  const digits = formatted.replace(/\s/g, '');
  const visible = digits.slice(-4);
  return groupInFours('*'.repeat(digits.length - visible.length) + visible);
}

/**
 * The card number's error for the card form, or null (spec §5): Visa, Mastercard and Verve expect
 * 16 digits ('{Brand} cards should have 16 digits'); other cards 16 to 19.
 */
export function validateCardNumber(cardNumber: string): string | null {
  const digits = cardNumberDigits(cardNumber);
  if (!/^\d*$/.test(digits)) return PAGE_ERRORS.CARD_NUMBER_NOT_DIGITS.message;
  const brand = detectCardBrand(digits);
  if (brand !== null) {
    return digits.length === CARD_BRAND_NUMBER_LENGTH
      ? null
      : `${CARD_BRAND_NAMES[brand]} cards should have ${CARD_BRAND_NUMBER_LENGTH} digits`;
  }
  return digits.length >= CARD_NUMBER_MIN_DIGITS && digits.length <= CARD_NUMBER_MAX_DIGITS
    ? null
    : `Card number must be between ${CARD_NUMBER_MIN_DIGITS} and ${CARD_NUMBER_MAX_DIGITS} digits`;
}

/**
 * How a card is kept and told to merchants (spec §3 origin obfuscatedCard): its first 6 and last 4
 * digits with six '*' between, whatever its length. The payer's own screens show it by
 * maskCardForPayer.
 */
export function obfuscateCard(card: { first6: string; last4: string }): string {
  return `${card.first6}******${card.last4}`;
}

/**
 * How the payer's screens show a card ('Pay with Card | {masked card}', 'Card • {obfuscated
 * card}', the Payment Source; spec §2): its last 4 digits only, in the shape the card number field
 * takes after blur (§5), '**** **** **** 1234'. Takes a card number as typed or an obfuscated card.
 */
export function maskCardForPayer(card: string): string {
  const last4 = card.replace(/\D/g, '').slice(-4);
  return groupInFours('*'.repeat(CARD_BRAND_NUMBER_LENGTH - last4.length) + last4);
}

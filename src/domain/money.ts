import { CURRENCY_CODE, CURRENCY_LOCALE, CURRENCY_SYMBOL, KOBO_PER_NAIRA } from './constants';

// spec §1, §9: NGN in the en-NG locale. One formatter, built once: construction is the slow part.
const NAIRA = new Intl.NumberFormat(CURRENCY_LOCALE, {
  style: 'currency',
  currency: CURRENCY_CODE,
});

/**
 * '₦1,234.56' for 123456 kobo. Node's full ICU prints '₦' already, but small-ICU builds and some
 * browsers print 'NGN 1,234.56'; the currency part is replaced so every runtime shows '₦'.
 * Throws on a non-integer: kobo is integer by contract, and a fractional amount is a bug to catch,
 * not to round away.
 */
export function formatNaira(kobo: number): string {
  if (!Number.isSafeInteger(kobo)) {
    throw new RangeError(`formatNaira expects integer kobo, got ${kobo}`);
  }
  return NAIRA.formatToParts(kobo / KOBO_PER_NAIRA)
    .filter((part) => !(part.type === 'literal' && part.value.trim() === ''))
    .map((part) => (part.type === 'currency' ? CURRENCY_SYMBOL : part.value))
    .join('');
}

import { CURRENCY_SYMBOL, KOBO_PER_NAIRA } from './constants';

/** Thousands grouped by commas, as en-NG writes them: '1,234,567'. */
const groupThousands = (whole: number): string =>
  String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * '₦1,234.56' for 123456 kobo, '-₦5.00' for -500: en-NG's currency format (spec §1, §9), written
 * out rather than asked of Intl. A browser's first Intl formatter loads its locale data, 30–90 ms
 * of the consent's first script on a fast machine and four times that on a slow phone; the text is
 * also the same in every runtime (small-ICU builds print 'NGN 1,234.56'). money.test.ts holds it
 * to Intl's own en-NG output.
 * Throws on a non-integer: kobo is integer by contract, and a fractional amount is a bug to catch,
 * not to round away.
 */
export function formatNaira(kobo: number): string {
  if (!Number.isSafeInteger(kobo)) {
    throw new RangeError(`formatNaira expects integer kobo, got ${kobo}`);
  }
  const magnitude = Math.abs(kobo);
  const naira = Math.floor(magnitude / KOBO_PER_NAIRA);
  const fraction = String(magnitude % KOBO_PER_NAIRA).padStart(2, '0');
  return `${kobo < 0 ? '-' : ''}${CURRENCY_SYMBOL}${groupThousands(naira)}.${fraction}`;
}

/** A naira amount as staff type it: digits, commas between thousands, at most two decimals. */
const NAIRA_INPUT = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?$/;

/**
 * Kobo for a naira amount typed by a person ('2,500', '₦500.5', ' 12.05 '), or null when the text
 * is not one. Read from the digits, never through a float: '0.29' is 29 kobo, not 28.999….
 */
export function parseNaira(text: string): number | null {
  const cleaned = text.trim().replace(CURRENCY_SYMBOL, '').trim();
  if (!NAIRA_INPUT.test(cleaned)) return null;
  const [whole = '', fraction = ''] = cleaned.replace(/,/g, '').split('.');
  const kobo = Number(whole) * KOBO_PER_NAIRA + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(kobo) ? kobo : null;
}

export type TCardBrand = 'visa' | 'mastercard' | 'verve';

export const CARD_BRAND_NAMES: Readonly<Record<TCardBrand, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  verve: 'Verve',
};

// spec §5: Verve is known by 6-digit prefix ranges (inclusive).
const VERVE_PREFIX_RANGES: ReadonlyArray<readonly [number, number]> = [
  [506_099, 506_198],
  [650_002, 650_027],
  [507_865, 507_964],
];

const inRange = (value: number, [low, high]: readonly [number, number]): boolean =>
  value >= low && value <= high;

/**
 * The brand of a card number, or null while it cannot be told (spec §5): detection starts at 4
 * digits; Visa starts with 4; Mastercard is 51–55 or 2221–2720; Verve needs its 6-digit prefix.
 * Spaces are ignored; any other non-digit means no brand.
 */
export function detectCardBrand(cardNumber: string): TCardBrand | null {
  const digits = cardNumber.replace(/\s/g, '');
  if (!/^\d{4,}$/.test(digits)) return null;
  if (digits.length >= 6) {
    const prefix6 = Number(digits.slice(0, 6));
    if (VERVE_PREFIX_RANGES.some((range) => inRange(prefix6, range))) return 'verve';
  }
  if (digits.startsWith('4')) return 'visa';
  if (inRange(Number(digits.slice(0, 2)), [51, 55])) return 'mastercard';
  if (inRange(Number(digits.slice(0, 4)), [2221, 2720])) return 'mastercard';
  return null;
}

/** The signed-url image key of a brand's logo (spec §7 GET /api/signed-url). */
export function cardSchemeImageKey(brand: TCardBrand): string {
  return `logos/cardSchemes/${CARD_BRAND_NAMES[brand]}.png`;
}

import { CARD_BRAND_NAMES, type TCardBrand } from '../../domain/card-brand';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../domain/colour-contrast';
import { escapeHtml } from './html-page';

/*
 * The logos we draw ourselves (spec §7 GET /api/bank-logos, GET /api/signed-url): a monogram per
 * bank, a building for a bank we do not know (spec §8 "Logo image failure: Falls back to a
 * default logo"), and plain marks of the three card schemes. Static SVG only: shapes, text and a
 * <title> naming the image; never a script, an event attribute or an external reference.
 */

const WHITE = '#FFFFFF';
const FONT = "system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif";

/** An image of `width` × `height` (its intrinsic size, for an <img> without one). */
const svg = (title: string, [width, height]: [number, number], shapes: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">` +
  `<title>${escapeHtml(title)}</title>${shapes}</svg>`;

/** Words that say what kind of institution it is, not which one. */
const GENERIC_WORDS = new Set([
  'bank',
  'microfinance',
  'mfb',
  'plc',
  'limited',
  'ltd',
  'of',
  'for',
  'and',
  'the',
]);

/**
 * Two letters for a bank: the initials of its first two distinctive words ('Guaranty Trust Bank'
 * GT), or the first two letters of its one distinctive word ('Zenith Bank' ZE).
 */
export function monogramLetters(name: string): string {
  const words = name
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
  const distinctive = words.filter((word) => !GENERIC_WORDS.has(word.toLowerCase()));
  const [first = words[0] ?? '?', second] = distinctive.length > 0 ? distinctive : words;
  const letters = second
    ? [...first].slice(0, 1).concat([...second].slice(0, 1))
    : [...first].slice(0, 2);
  return letters.join('').toUpperCase();
}

/** FNV-1a: a small, stable hash, so a code keeps its colour across processes and releases. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const hex = (value: number) =>
  Math.round(value * 255)
    .toString(16)
    .padStart(2, '0');

/** HSL (degrees, 0..1, 0..1) as '#rrggbb' (CSS Color 4's hslToRgb). */
function hslToHex(hue: number, saturation: number, lightness: number): string {
  const amplitude = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return lightness - amplitude * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return `#${hex(channel(0))}${hex(channel(8))}${hex(channel(4))}`;
}

/**
 * A bank's monogram colours: a hue and saturation taken from its code, darkened until white
 * letters read on it (WCAG 4.5:1), so every monogram has white letters whatever its hue.
 */
export function monogramColours(institutionCode: string): { background: string; text: string } {
  const hash = hashOf(institutionCode);
  const hue = hash % 360;
  const saturation = 0.5 + ((hash >>> 9) % 20) / 100;
  let lightness = 0.45;
  let background = hslToHex(hue, saturation, lightness);
  while (contrastRatio(background, WHITE) < MIN_TEXT_CONTRAST && lightness > 0.1) {
    lightness -= 0.02;
    background = hslToHex(hue, saturation, lightness);
  }
  return { background, text: WHITE };
}

/** The logo of a bank the directory knows: its two letters on its own colour. */
export function bankMonogramSvg(institutionCode: string, name: string): string {
  const { background, text } = monogramColours(institutionCode);
  return svg(
    name,
    [64, 64],
    `<rect width="64" height="64" rx="16" fill="${background}"/>` +
      `<text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="${FONT}" font-size="26" font-weight="700" fill="${text}">${escapeHtml(monogramLetters(name))}</text>`,
  );
}

/** The logo of a bank we do not know: a building with columns, in greys. */
export const DEFAULT_BANK_LOGO_SVG = svg(
  'Bank',
  [64, 64],
  '<rect width="64" height="64" rx="16" fill="#E5E7EB"/>' +
    '<g fill="#374151">' +
    '<path d="M32 12 52 22v3H12v-3z"/>' +
    '<rect x="16" y="28" width="6" height="16" rx="1"/>' +
    '<rect x="29" y="28" width="6" height="16" rx="1"/>' +
    '<rect x="42" y="28" width="6" height="16" rx="1"/>' +
    '<rect x="13" y="46" width="38" height="4" rx="1"/>' +
    '</g>',
);

/** A card-sized white tile with a hairline border, for the scheme marks. */
const CARD_TILE =
  '<rect x="0.5" y="0.5" width="47" height="31" rx="4" fill="#FFFFFF" stroke="#D0D5DD"/>';

const SCHEME_MARKS: Readonly<Record<TCardBrand, string>> = {
  visa:
    CARD_TILE +
    `<text x="24" y="16" dy="0.35em" text-anchor="middle" font-family="Arial,Helvetica,sans-serif" font-size="14" font-weight="800" font-style="italic" letter-spacing="0.5" fill="#1A1F71">VISA</text>`,
  // Two circles of radius 9, 10 apart; the lens where they meet is drawn over both.
  mastercard:
    CARD_TILE +
    '<circle cx="19" cy="16" r="9" fill="#EB001B"/>' +
    '<circle cx="29" cy="16" r="9" fill="#F79E1B"/>' +
    '<path d="M24 8.52A9 9 0 0 1 24 23.48A9 9 0 0 1 24 8.52z" fill="#FF5F00"/>',
  verve:
    CARD_TILE +
    '<circle cx="11" cy="16" r="6.5" fill="#E30613"/>' +
    '<path d="M8.1 13.2 11 19.2 13.9 13.2" fill="none" stroke="#FFFFFF" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>' +
    // textLength: the word fits the tile in whichever font the viewer has.
    `<text x="20" y="16" dy="0.35em" textLength="23" lengthAdjust="spacingAndGlyphs" font-family="${FONT}" font-size="10" font-weight="700" fill="#00425F">verve</text>`,
};

/** A card scheme's mark, titled with its name. */
export function cardSchemeSvg(brand: TCardBrand): string {
  return svg(CARD_BRAND_NAMES[brand], [48, 32], SCHEME_MARKS[brand]);
}

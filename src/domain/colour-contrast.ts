import type { TMerchantColours } from './schemas/consent';

/*
 * Readable merchant colours (WCAG 2.2, 1.4.3 Contrast (Minimum)): text needs a contrast ratio of
 * at least 4.5:1 with what is behind it. A merchant's brand colour is kept as it is; where the
 * text colour paired with it falls short (the spec's default, white on #FE7048, is 2.75:1), the
 * text becomes white or near-black, whichever reads better.
 */

export const MIN_TEXT_CONTRAST = 4.5;
export const LIGHT_TEXT = '#FFFFFF';
export const DARK_TEXT = '#111827';

/** '#abc' or '#aabbcc' as [r, g, b] in 0..255. */
function rgbOf(hex: string): [number, number, number] {
  const digits = hex.replace('#', '');
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  const value = Number.parseInt(full, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** Relative luminance of an sRGB colour (WCAG definition). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The preferred text colour on `background` if it is readable, else white or near-black,
 * whichever reads better, or black on the few mid-tones where near-black falls just short.
 */
export function readableTextOn(background: string, preferred: string): string {
  if (contrastRatio(background, preferred) >= MIN_TEXT_CONTRAST) return preferred;
  const best =
    contrastRatio(background, LIGHT_TEXT) >= contrastRatio(background, DARK_TEXT)
      ? LIGHT_TEXT
      : DARK_TEXT;
  return contrastRatio(background, best) >= MIN_TEXT_CONTRAST ? best : '#000000';
}

/**
 * The colour itself as text on a light page (links, amounts in the brand colour): darkened in
 * steps towards black until it reads on `page`.
 */
export function readableShadeOn(colour: string, page: string): string {
  const [r, g, b] = rgbOf(colour);
  for (let keep = 1; keep > 0; keep -= 0.05) {
    const shade = `#${[r, g, b]
      .map((c) =>
        Math.round(c * keep)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    if (contrastRatio(shade, page) >= MIN_TEXT_CONTRAST) return shade;
  }
  return DARK_TEXT;
}

/** A merchant's colours as the page paints them: brand colours kept, text made readable. */
export function readableMerchantColours(
  colours: TMerchantColours,
  page = '#FFFFFF',
): TMerchantColours & { primaryOnPage: string } {
  return {
    primaryColour: colours.primaryColour,
    primaryText: readableTextOn(colours.primaryColour, colours.primaryText),
    secondaryColour: colours.secondaryColour,
    secondaryText: readableTextOn(colours.secondaryColour, colours.secondaryText),
    primaryOnPage: readableShadeOn(colours.primaryColour, page),
  };
}

/** The page's secondary text (styles.css --muted). */
export const MUTED_TEXT = '#5B6472';

/**
 * With fs=true the card fills the window, hiding the page's `bg` (spec §2 query parameters): the
 * card then takes `bg` itself, when the page's text and its secondary text both read on it;
 * otherwise null, and the card stays white.
 */
export function fullScreenCardBackground(background: string | null): string | null {
  if (!background) return null;
  const readable =
    contrastRatio(background, DARK_TEXT) >= MIN_TEXT_CONTRAST &&
    contrastRatio(background, MUTED_TEXT) >= MIN_TEXT_CONTRAST;
  return readable ? background : null;
}

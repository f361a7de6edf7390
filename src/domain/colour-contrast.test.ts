import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fullScreenCardBackground,
  contrastRatio,
  DARK_TEXT,
  MIN_TEXT_CONTRAST,
  readableMerchantColours,
  readableShadeOn,
  readableTextOn,
} from './colour-contrast';
import { DEFAULT_MERCHANT_COLOURS } from './constants';

const hex = fc
  .array(fc.integer({ min: 0, max: 255 }), { minLength: 3, maxLength: 3 })
  .map((rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`);

describe('contrast ratio', () => {
  it('is 21 for black on white and 1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#FE7048', '#FE7048')).toBe(1);
  });

  it("puts the spec's default white on #FE7048 under AA", () => {
    expect(contrastRatio('#FE7048', '#FFFFFF')).toBeCloseTo(2.75, 2);
  });

  it('reads 3-digit colours as their 6-digit twins', () => {
    expect(contrastRatio('#fff', '#000')).toBe(contrastRatio('#FFFFFF', '#000000'));
  });
});

describe('readable text', () => {
  it('keeps a merchant text colour that already reads', () => {
    expect(readableTextOn('#1f2937', '#FFFFFF')).toBe('#FFFFFF');
  });

  it('turns the default white on #FE7048 into near-black', () => {
    expect(readableTextOn('#FE7048', '#FFFFFF')).toBe(DARK_TEXT);
  });

  it('always gives text of at least 4.5:1 on any background', () => {
    fc.assert(
      fc.property(hex, hex, (background, preferred) => {
        expect(
          contrastRatio(background, readableTextOn(background, preferred)),
        ).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      }),
    );
  });

  it('darkens a brand colour until it reads as text on the page', () => {
    const shade = readableShadeOn('#FE7048', '#FFFFFF');
    expect(contrastRatio(shade, '#FFFFFF')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    fc.assert(
      fc.property(hex, (colour) => {
        expect(contrastRatio(readableShadeOn(colour, '#FFFFFF'), '#FFFFFF')).toBeGreaterThanOrEqual(
          MIN_TEXT_CONTRAST,
        );
      }),
    );
  });

  it("keeps the merchant's brand colours and fixes only the text", () => {
    const painted = readableMerchantColours(DEFAULT_MERCHANT_COLOURS);
    expect(painted.primaryColour).toBe('#FE7048');
    expect(painted.secondaryColour).toBe(DEFAULT_MERCHANT_COLOURS.secondaryColour);
    expect(painted.primaryText).toBe(DARK_TEXT);
    expect(painted.secondaryText).toBe('#FFFFFF');
  });
});

describe('fullScreenCardBackground (fs=true with bg)', () => {
  it('gives the card a light bg the text reads on', () => {
    expect(fullScreenCardBackground('#FFF7E6')).toBe('#FFF7E6');
  });

  it('keeps the card white on a bg the text would not read on, and without bg', () => {
    expect(fullScreenCardBackground('#1F2937')).toBeNull();
    expect(fullScreenCardBackground('#B0B0B0')).toBeNull();
    expect(fullScreenCardBackground(null)).toBeNull();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardSchemeImageKey, detectCardBrand } from './card-brand';

describe('detectCardBrand', () => {
  it.each([
    ['4', null],
    ['41', null],
    ['411', null],
    ['4111', 'visa'],
    ['4111 1111 1111 1111', 'visa'],
  ] as const)('starts detecting at 4 digits: %s → %s', (input, brand) => {
    expect(detectCardBrand(input)).toBe(brand);
  });

  it.each([
    ['5000', null],
    ['5099', null],
    ['5100', 'mastercard'],
    ['5555', 'mastercard'],
    ['5599', 'mastercard'],
    ['5600', null],
  ] as const)('knows Mastercard by 51–55 at the 2-digit boundary: %s → %s', (input, brand) => {
    expect(detectCardBrand(input)).toBe(brand);
  });

  it.each([
    ['2220', null],
    ['2221', 'mastercard'],
    ['2720', 'mastercard'],
    ['2721', null],
  ] as const)('knows Mastercard by 2221–2720 at the 4-digit boundary: %s → %s', (input, brand) => {
    expect(detectCardBrand(input)).toBe(brand);
  });

  it.each([
    ['506098', null],
    ['506099', 'verve'],
    ['506198', 'verve'],
    ['506199', null],
    ['650001', null],
    ['650002', 'verve'],
    ['650027', 'verve'],
    ['650028', null],
    ['507864', null],
    ['507865', 'verve'],
    ['507964', 'verve'],
    ['507965', null],
  ] as const)('knows Verve by its 6-digit prefix ranges: %s → %s', (input, brand) => {
    expect(detectCardBrand(`${input}0000000000`)).toBe(brand);
  });

  it('cannot tell Verve from its first 4 or 5 digits', () => {
    expect(detectCardBrand('5060')).toBeNull();
    expect(detectCardBrand('50609')).toBeNull();
  });

  it('ignores spaces but gives no brand to input with other characters', () => {
    expect(detectCardBrand(' 5 1 0 0 ')).toBe('mastercard');
    expect(detectCardBrand('4111-1111')).toBeNull();
  });

  it('detects Visa for any all-digit number of 4+ digits starting with 4', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^4\d{3,18}$/), (digits) => {
        expect(detectCardBrand(digits)).toBe('visa');
      }),
    );
  });
});

describe('cardSchemeImageKey', () => {
  it.each([
    ['visa', 'logos/cardSchemes/Visa.png'],
    ['mastercard', 'logos/cardSchemes/Mastercard.png'],
    ['verve', 'logos/cardSchemes/Verve.png'],
  ] as const)('names the %s logo for the signed-url call', (brand, key) => {
    expect(cardSchemeImageKey(brand)).toBe(key);
  });
});

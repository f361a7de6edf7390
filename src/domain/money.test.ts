import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCY_CODE, CURRENCY_LOCALE, CURRENCY_SYMBOL } from './constants';
import { formatNaira, parseNaira } from './money';

describe('formatNaira', () => {
  it.each([
    [0, '₦0.00'],
    [1, '₦0.01'],
    [100, '₦1.00'],
    [123_456, '₦1,234.56'],
    [100_000_000_00, '₦100,000,000.00'],
    [-500, '-₦5.00'],
  ])('formats %i kobo as %j', (kobo, text) => {
    expect(formatNaira(kobo)).toBe(text);
  });

  it('refuses a fractional amount: kobo is integer', () => {
    expect(() => formatNaira(12.5)).toThrow(RangeError);
    expect(() => formatNaira(Number.NaN)).toThrow(RangeError);
  });

  it('always shows ₦ and exactly two decimals, and reads back to the same kobo', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), (kobo) => {
        const text = formatNaira(kobo);
        expect(text).toMatch(/^₦\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(Number(text.replace(/[₦,.]/g, ''))).toBe(kobo);
      }),
    );
  });

  it("writes what Intl's en-NG currency format writes, with ₦ in every runtime", () => {
    const intl = new Intl.NumberFormat(CURRENCY_LOCALE, {
      style: 'currency',
      currency: CURRENCY_CODE,
    });
    const viaIntl = (kobo: number) =>
      intl
        .formatToParts(kobo / 100)
        .map((part) => (part.type === 'currency' ? CURRENCY_SYMBOL : part.value))
        .join('');
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 13), max: 10 ** 13 }), (kobo) => {
        expect(formatNaira(kobo)).toBe(viaIntl(kobo === 0 ? 0 : kobo));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('parseNaira', () => {
  it.each([
    ['500', 50_000],
    ['2,500', 250_000],
    ['₦1,234.56', 123_456],
    [' 12.5 ', 1_250],
    ['0.29', 29],
    ['0.01', 1],
  ])('reads %j as %i kobo', (text, kobo) => {
    expect(parseNaira(text)).toBe(kobo);
  });

  it.each(['', 'abc', '1.234', '12,34', '-5', '1e3', '5.', '.5', '1,2345'])(
    'refuses %j',
    (text) => {
      expect(parseNaira(text)).toBeNull();
    },
  );

  it('reads back every amount formatNaira writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), (kobo) => {
        expect(parseNaira(formatNaira(kobo))).toBe(kobo);
      }),
    );
  });
});

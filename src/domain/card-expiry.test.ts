import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatExpiryInput, parseExpiryDate } from './card-expiry';

describe('formatExpiryInput', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['12', '12'],
    ['12/', '12'],
    ['123', '12/3'],
    ['1227', '12/27'],
    ['12/27', '12/27'],
    ['12/275', '12/27'],
    ['ab12cd27', '12/27'],
  ])('types MM/YY in at most 5 characters: %j → %j', (raw, formatted) => {
    expect(formatExpiryInput(raw)).toBe(formatted);
  });

  it('is idempotent and never exceeds 5 characters', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const once = formatExpiryInput(raw);
        expect(formatExpiryInput(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(5);
      }),
    );
  });
});

describe('parseExpiryDate', () => {
  it.each([
    ['12/27', { month: 12, year: 2027 }],
    ['1/30', { month: 1, year: 2030 }],
    ['13/27', { month: 13, year: 2027 }],
    ['ab/27', { month: null, year: 2027 }],
    ['12/2027', { month: 12, year: null }],
    ['1227', { month: null, year: null }],
  ])('splits at "/" and prefixes the year with 20: %j', (expiry, parsed) => {
    expect(parseExpiryDate(expiry)).toEqual(parsed);
  });
});

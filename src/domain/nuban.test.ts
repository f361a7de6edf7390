import { describe, expect, it } from 'vitest';
import { isValidNuban, nubanCheckDigit } from './nuban';

describe('NUBAN check digit', () => {
  it('weighs a deposit-money bank code as six digits after 000', () => {
    // 0,0,0,0,5,8 then 0,1,2,3,4,5,6,7,8 against 3,7,3,3,7,3,3,7,3,3,7,3,3,7,3 sums to 175.
    expect(nubanCheckDigit('058', '012345678')).toBe('5');
    expect(nubanCheckDigit('000058', '012345678')).toBe('5');
    expect(isValidNuban('058', '0123456785')).toBe(true);
  });

  it('weighs a 5-digit microfinance code after a 9', () => {
    const check = nubanCheckDigit('50211', '200000001');
    expect(check).toBe(nubanCheckDigit('950211', '200000001'));
    expect(isValidNuban('50211', `200000001${check}`)).toBe(true);
  });

  it('makes a sum that is a multiple of 10 check 0, not 10', () => {
    // 000044 + 000000000: 4*3 + 4*3 = 24 → 6; find a serial whose sum ends in 0.
    const serials = Array.from({ length: 10 }, (_, d) => `00000000${d}`);
    const checks = serials.map((serial) => nubanCheckDigit('044', serial));
    expect(checks.every((c) => c !== null && /^\d$/.test(c))).toBe(true);
    expect(checks).toContain('0');
  });

  it('refuses every other tenth digit and malformed input', () => {
    const wrong = ['0123456780', '0123456781', '0123456789'];
    for (const number of wrong) expect(isValidNuban('058', number)).toBe(false);
    expect(isValidNuban('058', '012345678')).toBe(false);
    expect(isValidNuban('58', '0123456785')).toBe(false);
    expect(isValidNuban('058', '01234567a5')).toBe(false);
    expect(nubanCheckDigit('1234', '012345678')).toBeNull();
  });
});

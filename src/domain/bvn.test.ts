import { describe, expect, it } from 'vitest';
import { maskedBvn, maskedPhone, toBvn } from './bvn';

describe('BVN', () => {
  it('takes 11 digits as typed, spaces and dashes allowed', () => {
    expect(toBvn('22123456789')).toBe('22123456789');
    expect(toBvn(' 221 2345 6789 ')).toBe('22123456789');
    expect(toBvn('221-234-56789')).toBe('22123456789');
  });

  it('refuses anything but 11 digits', () => {
    for (const input of ['', '2212345678', '221234567890', '2212345678a', '+22123456789']) {
      expect(toBvn(input)).toBeNull();
    }
  });

  it('shows the last 4 digits only', () => {
    expect(maskedBvn('6789')).toBe('•••••••6789');
  });

  it('names the phone a code went to without giving it away', () => {
    expect(maskedPhone('0803 000 0042')).toBe('0803 *** **42');
  });
});

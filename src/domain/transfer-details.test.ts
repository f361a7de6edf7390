import { describe, expect, it } from 'vitest';
import { oneTimeAccountExpiry, transferBankName, transferCountdown } from './transfer-details';

describe('transferBankName', () => {
  it.each([
    ['Wema Bank', 'Wema Bank'],
    ['', 'Rubies MFB'],
    [null, 'Rubies MFB'],
    [undefined, 'Rubies MFB'],
  ])('%j → %j', (bankName, shown) => {
    expect(transferBankName(bankName)).toBe(shown);
  });
});

describe('transferCountdown', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it("counts down to the account's expiry as the spec writes it", () => {
    expect(transferCountdown('2026-11-23T12:29:30Z', now)).toBe('29m : 30s');
    expect(transferCountdown('2026-11-23T12:00:05Z', now)).toBe('0m : 05s');
    expect(transferCountdown('2026-11-23T12:00:00.200Z', now)).toBe('0m : 01s');
  });
  it('is null once the account has expired', () => {
    expect(transferCountdown('2026-11-23T12:00:00Z', now)).toBeNull();
    expect(transferCountdown('2026-11-23T11:59:00Z', now)).toBeNull();
  });
});

describe('oneTimeAccountExpiry', () => {
  const issuedAt = new Date('2026-11-23T12:00:00Z');
  it('is 30 minutes after the issue, or the earlier limit given', () => {
    expect(oneTimeAccountExpiry(issuedAt)).toEqual(new Date('2026-11-23T12:30:00Z'));
    expect(oneTimeAccountExpiry(issuedAt, null)).toEqual(new Date('2026-11-23T12:30:00Z'));
    expect(oneTimeAccountExpiry(issuedAt, new Date('2026-11-23T12:10:00Z'))).toEqual(
      new Date('2026-11-23T12:10:00Z'),
    );
    expect(oneTimeAccountExpiry(issuedAt, new Date('2026-11-24T12:00:00Z'))).toEqual(
      new Date('2026-11-23T12:30:00Z'),
    );
  });
});

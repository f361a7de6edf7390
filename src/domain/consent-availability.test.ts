import { describe, expect, it } from 'vitest';
import { isAvailableAt, isConsentAvailable } from './consent-availability';
import { consentExpiresAt } from './consent-expiry';
import type { TConsent } from './schemas/consent';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

const NOW = new Date('2025-06-15T12:00:00.000Z');

describe('isConsentAvailable', () => {
  it.each<[string, Partial<TConsent>, boolean]>([
    ['expiring later', { expiresAt: '2025-06-15T12:00:00.001Z' }, true],
    ['expiring right now', { expiresAt: '2025-06-15T12:00:00.000Z' }, false],
    ['expired', { expiresAt: '2025-06-14T12:00:00.000Z' }, false],
    ['with an unreadable expiry', { expiresAt: 'soon' }, false],
    ['with an immediate payment into a shield wallet', { payments: [anImmediatePayment()] }, true],
    [
      'with an immediate payment and no shield wallet',
      { payments: [anImmediatePayment({ shieldWallet: null })] },
      false,
    ],
    ['with only future payments and no shield wallet', { payments: [aPayment()] }, true],
  ])('a consent %s → %s', (_, overrides, available) => {
    expect(
      isConsentAvailable(aConsent({ expiresAt: '2030-01-01T00:00:00Z', ...overrides }), NOW),
    ).toBe(available);
  });
});

describe('consentExpiresAt', () => {
  it('is 24 h after creation', () => {
    expect(consentExpiresAt(NOW)).toBe('2025-06-16T12:00:00.000Z');
  });
});

describe('isAvailableAt (the rule on its two facts)', () => {
  const now = new Date('2031-01-01T10:00:00Z');
  it('offers a collectable consent until its expiry, and nothing at or after it', () => {
    expect(isAvailableAt({ expiresAtMs: now.getTime() + 1, collectable: true }, now)).toBe(true);
    expect(isAvailableAt({ expiresAtMs: now.getTime(), collectable: true }, now)).toBe(false);
  });
  it('refuses an uncollectable consent and an unreadable expiry', () => {
    expect(isAvailableAt({ expiresAtMs: now.getTime() + 60_000, collectable: false }, now)).toBe(
      false,
    );
    expect(isAvailableAt({ expiresAtMs: Number.NaN, collectable: true }, now)).toBe(false);
  });
});

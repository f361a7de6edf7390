import { describe, expect, it } from 'vitest';
import { CONSENT_TRANSITIONS, consentMayMove } from './consent-lifecycle';
import { CONSENT_STATUSES, type TConsentStatus } from './schemas/consent';
import { statesLeft, statesReached } from './test-support/lifecycle-reach';

const ENDED: readonly TConsentStatus[] = ['declined', 'failed', 'revoked'];

describe('the consent lifecycle', () => {
  it('reaches every status from pending, the one a consent is created in', () => {
    expect(statesReached(['pending'], CONSENT_TRANSITIONS)).toEqual([...CONSENT_STATUSES].sort());
  });

  it('never moves a consent that was declined, failed or revoked', () => {
    const leftFrom = statesLeft(CONSENT_TRANSITIONS);
    for (const status of ENDED) expect(leftFrom.has(status)).toBe(false);
  });

  it('revokes only a granted consent, and ends a pending one by the payer or the clock', () => {
    expect(CONSENT_TRANSITIONS).toEqual({
      grant: { from: ['pending'], to: 'granted' },
      decline: { from: ['pending'], to: 'declined' },
      expire: { from: ['pending'], to: 'failed' },
      revoke: { from: ['granted'], to: 'revoked' },
    });
  });

  it("says a move may be made only from its edge's statuses", () => {
    expect(consentMayMove('pending', 'grant')).toBe(true);
    expect(consentMayMove('granted', 'grant')).toBe(false);
    expect(consentMayMove('granted', 'revoke')).toBe(true);
    expect(consentMayMove('revoked', 'revoke')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { consentExpiresAt } from '../consent-expiry';
import { ZConsentCreationPayload, ZGrantRequest } from './consent-api';

describe('ZConsentCreationPayload', () => {
  it('accepts a payload expiring 24 h ahead', () => {
    const payload = {
      userId: 'usr_1',
      paymentConsents: [{ type: 'immediate', amount: 100, narration: 'Test' }],
      expiresAt: consentExpiresAt(new Date('2025-06-15T12:00:00Z')),
    };
    expect(ZConsentCreationPayload.safeParse(payload).success).toBe(true);
  });
});

describe('ZGrantRequest', () => {
  const grant = {
    originalRequestId: null,
    consentData: { consentId: 'cns_1' },
    userAuthenticated: true,
    attestDiscoveryId: 'dsc_1',
  };

  it('needs an account for granted future payments (spec §5)', () => {
    const future = (selectedAccounts: string[]) => ({
      ...grant,
      futurePayments: { granted: true, selectedAccounts, paymentMethods: [] },
    });
    expect(ZGrantRequest.safeParse(future([])).success).toBe(false);
    expect(ZGrantRequest.safeParse(future(['acc_1'])).success).toBe(true);
  });

  it.each(['account', 'transfer', 'card'])('takes immediate payment method %s', (type) => {
    const method = type === 'account' ? { type, accountId: 'acc_1' } : { type, paymentId: 'pay_1' };
    const body = {
      ...grant,
      immediatePayments: { granted: true, selectedAccounts: [], paymentMethods: [method] },
    };
    expect(ZGrantRequest.safeParse(body).success).toBe(true);
  });
});

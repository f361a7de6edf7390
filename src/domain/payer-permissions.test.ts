import { describe, expect, it } from 'vitest';
import { canPayWithoutSignIn, cardPaymentEndpoint } from './payer-permissions';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

const auth = (requiresAuth: boolean) => ({ requiresAuth, requiresAccount: false });

describe('canPayWithoutSignIn', () => {
  it.each([
    ['no auth, an immediate payment', aConsent({ payments: [anImmediatePayment()] }), true],
    [
      'auth required',
      aConsent({ payments: [anImmediatePayment()], requirements: auth(true) }),
      false,
    ],
    ['no immediate payment', aConsent({ payments: [aPayment()] }), false],
  ])('%s → %s', (_, consent, allowed) => {
    expect(canPayWithoutSignIn(consent)).toBe(allowed);
  });
});

describe('cardPaymentEndpoint', () => {
  it.each([
    [true, true, '/api/payments/card'],
    [true, false, '/api/payments/card'],
    [false, false, '/api/payments/card/public'],
    [false, true, null],
  ])('signed in %s, auth required %s → %j', (signedIn, requiresAuth, endpoint) => {
    expect(cardPaymentEndpoint({ signedIn, requiresAuth })).toBe(endpoint);
  });
});

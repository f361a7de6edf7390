import type { TConsent } from './schemas/consent';

/**
 * Whether an anonymous payer may pay (spec §6): only when the consent does not require auth and
 * has an immediate payment. Everything else needs sign-in.
 */
export function canPayWithoutSignIn(consent: TConsent): boolean {
  return !consent.requirements.requiresAuth && consent.payments.some((p) => p.type === 'immediate');
}

/**
 * Which card endpoint a card call uses (spec §6, §7): a signed-in payer uses the authenticated
 * one; an anonymous payer uses the public one, vouched for by the consentId, only when the consent
 * does not require auth. Null means the payer must sign in first.
 */
export function cardPaymentEndpoint(input: {
  signedIn: boolean;
  requiresAuth: boolean;
}): '/api/payments/card' | '/api/payments/card/public' | null {
  if (input.signedIn) return '/api/payments/card';
  return input.requiresAuth ? null : '/api/payments/card/public';
}

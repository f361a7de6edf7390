import type { TConsent, TPayment } from './schemas/consent';

/**
 * Whether a consent can still be shown to a payer. An expired consent, or one whose immediate
 * payment has no shield wallet to collect into, is answered as not found (spec §5 last rule).
 */
export function isConsentAvailable(
  consent: Pick<TConsent, 'expiresAt'> & {
    payments: Array<Pick<TPayment, 'type' | 'shieldWallet'>>;
  },
  now: Date,
): boolean {
  const expiresAt = Date.parse(consent.expiresAt);
  // An unreadable expiry cannot be proved to lie in the future, so the consent is not offered.
  if (Number.isNaN(expiresAt) || expiresAt <= now.getTime()) return false;
  return consent.payments.every((p) => p.type !== 'immediate' || p.shieldWallet !== null);
}

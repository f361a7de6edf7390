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
  return isAvailableAt(
    {
      expiresAtMs: Date.parse(consent.expiresAt),
      collectable: consent.payments.every((p) => p.type !== 'immediate' || p.shieldWallet !== null),
    },
    now,
  );
}

/**
 * The same rule on its two facts, for a reader that has them without the consent's objects (the
 * server's consent read, whose answer the database writes): the expiry in epoch milliseconds,
 * and whether every immediate payment has a shield wallet.
 */
export function isAvailableAt(
  facts: { expiresAtMs: number; collectable: boolean },
  now: Date,
): boolean {
  // An unreadable expiry cannot be proved to lie in the future, so the consent is not offered.
  if (Number.isNaN(facts.expiresAtMs) || facts.expiresAtMs <= now.getTime()) return false;
  return facts.collectable;
}

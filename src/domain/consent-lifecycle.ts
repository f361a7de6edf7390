import type { TConsentStatus } from './schemas/consent';

/*
 * The life of a consent (spec §3 Consent; docs/webhooks.md, docs/payer-consents.md): one table of
 * the moves a consent may make, read by the server's one move function
 * (services/consents/consent-moves.ts moveConsent), so no service changes a consent's status by a
 * rule of its own. A consent is created pending.
 */

/** Every move a consent may make: the statuses it leaves from and the one it reaches. */
export const CONSENT_TRANSITIONS = {
  /** The payer granted it on the page, or its payment met every request it makes. */
  grant: { from: ['pending'], to: 'granted' },
  /** The payer declined it. */
  decline: { from: ['pending'], to: 'declined' },
  /** Its expiry passed while it was still pending (spec §9: 24 h unless the merchant said otherwise). */
  expire: { from: ['pending'], to: 'failed' },
  /** Its payer withdrew it, or asked for their data to be erased: nothing more is collected. */
  revoke: { from: ['granted'], to: 'revoked' },
} as const satisfies Record<string, { from: readonly TConsentStatus[]; to: TConsentStatus }>;

export type TConsentEdge = keyof typeof CONSENT_TRANSITIONS;

/** Whether a consent in `status` may make move `edge`. */
export const consentMayMove = (status: TConsentStatus, edge: TConsentEdge): boolean =>
  (CONSENT_TRANSITIONS[edge].from as readonly TConsentStatus[]).includes(status);

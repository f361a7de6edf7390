/**
 * The names of the messages the page posts to an embedding parent (spec §7 "Messages"), and
 * three of ours. Apart from their schemas (embed-messages.ts) so the embed script (src/sdk) takes
 * the names without zod.
 */
export const EMBED_MESSAGE = {
  heightUpdate: 'oya-money-height-update',
  consentSuccess: 'oya-money-consent-success',
  consentData: 'oya-money-consent-data',
  consentCompleted: 'oya-money-consent-completed',
  consentFailed: 'oya-money-consent-failed',
  // Ours, not the spec's: what the merchant's embed script reports besides the outcome.
  /** The consent flow opened a step (the first one shown included). */
  stepChange: 'oya-money-step-change',
  /** The immediate payment started, completed or failed. */
  paymentStatus: 'oya-money-payment-status',
  /** The payer declined the consent. */
  consentDeclined: 'oya-money-consent-declined',
} as const;

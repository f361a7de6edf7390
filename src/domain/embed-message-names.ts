/**
 * The names of the messages the page posts to an embedding parent (spec §7 "Messages"). Apart
 * from their schemas (embed-messages.ts) so the embed script (src/sdk) takes the names without
 * zod.
 */
export const EMBED_MESSAGE = {
  heightUpdate: 'oya-money-height-update',
  consentSuccess: 'oya-money-consent-success',
  consentData: 'oya-money-consent-data',
  consentCompleted: 'oya-money-consent-completed',
  consentFailed: 'oya-money-consent-failed',
} as const;

import { z } from 'zod';
import { ZConsent } from './consent';

/**
 * Messages the page posts to the embedding merchant page (spec §7 Messages), only ever to the
 * merchant's registered origin. A missing clientId is reported as consent-failed with no consent.
 */
export const ZMessageToParent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('oya-money-height-update'), height: z.number().int().nonnegative() }),
  z.object({ type: z.literal('oya-money-consent-success'), consentData: ZConsent }),
  z.object({ type: z.literal('oya-money-consent-data'), consentData: ZConsent }),
  z.object({ type: z.literal('oya-money-consent-completed'), consentId: z.string() }),
  z.object({
    type: z.literal('oya-money-consent-failed'),
    consentId: z.string().nullable(),
    error: z.string(),
  }),
]);
export type TMessageToParent = z.infer<typeof ZMessageToParent>;

/** Messages the page accepts from its parent or from attestation frames (spec §7 Messages). */
export const ZMessageFromParent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('attest-height-update'), height: z.number().nonnegative() }),
  z.object({ type: z.literal('USER_DISCOVERY_RESULT'), userData: z.unknown() }),
  z.object({ type: z.literal('authentication-updated') }),
]);
export type TMessageFromParent = z.infer<typeof ZMessageFromParent>;

/** The message the page sends to attestation frames to close them (spec §7 Messages). */
export const ZMessageToFrame = z.object({ type: z.literal('DISCOVERY_CLOSE') });
export type TMessageToFrame = z.infer<typeof ZMessageToFrame>;

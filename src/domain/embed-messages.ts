import { z } from 'zod/mini';
import { CONSENT_STEPS } from './consent-steps';
import { EMBED_MESSAGE } from './embed-message-names';
import { ZPaymentStateResponse } from './schemas/payment';

export { EMBED_MESSAGE };

/** How the immediate payment is being paid, in the payment stream's names. */
export const ZEmbedPaymentMethod = ZPaymentStateResponse.shape.method.def.innerType;
export type TEmbedPaymentMethod = z.infer<typeof ZEmbedPaymentMethod>;

/**
 * Where the immediate payment stands, as the parent hears it: 'started' when an attempt begins
 * (a card charge sent, a transfer account issued, a saved account's debit, a chip purchase),
 * 'completed' when the payment says so, 'failed' when the payer is shown a failure.
 */
export const ZEmbedPaymentStatus = z.enum(['started', 'completed', 'failed']);
export type TEmbedPaymentStatus = z.infer<typeof ZEmbedPaymentStatus>;

export const ZEmbedMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal(EMBED_MESSAGE.heightUpdate),
    height: z.number().check(z.int(), z.nonnegative()),
  }),
  z.object({ type: z.literal(EMBED_MESSAGE.consentSuccess), consentData: z.unknown() }),
  z.object({ type: z.literal(EMBED_MESSAGE.consentData), consentData: z.unknown() }),
  z.object({ type: z.literal(EMBED_MESSAGE.consentCompleted), consentId: z.string() }),
  z.object({
    type: z.literal(EMBED_MESSAGE.consentFailed),
    consentId: z.nullable(z.string()),
    error: z.string(),
  }),
  // Ours, not the spec's (embed-message-names.ts): they carry the consent, like consent-data.
  z.object({
    type: z.literal(EMBED_MESSAGE.stepChange),
    consentId: z.string(),
    step: z.enum(CONSENT_STEPS),
  }),
  z.object({
    type: z.literal(EMBED_MESSAGE.paymentStatus),
    consentId: z.string(),
    paymentId: z.string(),
    status: ZEmbedPaymentStatus,
    method: z.optional(ZEmbedPaymentMethod),
  }),
  z.object({ type: z.literal(EMBED_MESSAGE.consentDeclined), consentId: z.string() }),
  z.object({ type: z.literal(EMBED_MESSAGE.closeRequest) }),
  z.object({ type: z.literal(EMBED_MESSAGE.pageDialog), open: z.boolean() }),
]);
export type TEmbedMessage = z.infer<typeof ZEmbedMessage>;

/** The messages that say nothing about the consent or the payer: how the frame is shown. */
const WITHOUT_CONSENT_DATA: ReadonlySet<TEmbedMessage['type']> = new Set([
  EMBED_MESSAGE.heightUpdate,
  EMBED_MESSAGE.consentFailed,
  EMBED_MESSAGE.closeRequest,
  EMBED_MESSAGE.pageDialog,
]);

/**
 * Whether a message tells the parent anything about the consent or the payer. Such a message
 * goes only to an origin the merchant registered; the others go to the parent's own origin.
 */
export function carriesConsentData(message: TEmbedMessage): boolean {
  return !WITHOUT_CONSENT_DATA.has(message.type);
}

/** Messages the page accepts from its parent or from attestation frames (spec §7 Messages). */
export const ZMessageFromParent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('attest-height-update'), height: z.number().check(z.nonnegative()) }),
  z.object({ type: z.literal('USER_DISCOVERY_RESULT'), userData: z.unknown() }),
  z.object({ type: z.literal('authentication-updated') }),
]);
export type TMessageFromParent = z.infer<typeof ZMessageFromParent>;

/** The message the page sends to attestation frames to close them (spec §7 Messages). */
export const DISCOVERY_CLOSE_MESSAGE = { type: 'DISCOVERY_CLOSE' } as const;

/**
 * A message from the page's parent, or null for anything else (spec §7 Messages). The page
 * authenticates in place with passkeys, so it opens no attestation frames:
 * 'authentication-updated' (the payer signed in elsewhere; the stored session is read again) is
 * the one the page acts on.
 */
export function parseMessageFromParent(data: unknown): TMessageFromParent | null {
  const parsed = ZMessageFromParent.safeParse(data);
  return parsed.success ? parsed.data : null;
}

import { z } from 'zod/mini';
import { CONSENT_STEPS } from './consent-steps';
import { EMBED_MESSAGE } from './embed-message-names';
import { PAYMENT_METHODS } from './constants';

export { EMBED_MESSAGE };

/** How the immediate payment is being paid, in the payment stream's names. */
export const ZEmbedPaymentMethod = /* @__PURE__ */ z.enum(PAYMENT_METHODS);
export type TEmbedPaymentMethod = z.infer<typeof ZEmbedPaymentMethod>;

/**
 * Where the immediate payment stands, as the parent hears it: 'started' when an attempt begins
 * (a card charge sent, a transfer account issued, a saved account's debit, a chip purchase),
 * 'completed' when the payment says so, 'failed' when the payer is shown a failure.
 */
export const ZEmbedPaymentStatus = /* @__PURE__ */ z.enum(['started', 'completed', 'failed']);
export type TEmbedPaymentStatus = z.infer<typeof ZEmbedPaymentStatus>;

// Built when first used (a pure call the bundler drops where nothing parses with it): the page
// only sends these messages, typed by it, and need not load zod to do so.
export const ZEmbedMessage = /* @__PURE__ */ (() =>
  z.discriminatedUnion('type', [
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
  ]))();
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

export type { TMessageFromParent } from './parent-messages';

import { z } from 'zod/mini';
import { ZKobo } from './consent';
import { ZPrintable } from './fields';
import { SANDBOX_TRANSFER_OUTCOMES, ZSandboxThreeDsResponse } from './sandbox';
import { ZWebhookEventType, ZWebhookPayload } from './webhooks';

/*
 * The dashboard's Sandbox tools (docs/dashboard.md "Sandbox tools"), on a sandbox server only:
 * what waits on the sandbox network among the merchant's own payments, a transfer sent to one,
 * a 3-D Secure challenge answered, a test event fired at the merchant's webhooks.
 */

const ok = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object({ success: z.literal(true), ...shape });

/** A payment of the merchant's, named by its id or its consent's reference. */
const ZPaymentOrReference = ZPrintable(200).check(z.trim(), z.minLength(1));

/** A payment waiting on the sandbox: its one-time account, or its card's 3-D Secure check. */
export const ZSandboxWaitingPayment = z.object({
  paymentId: z.string(),
  reference: z.nullable(z.string()),
  /** Kobo the payer owes: what the one-time account takes, or what the card is charged. */
  amount: ZKobo,
  narration: z.string(),
  /** The one-time account's number and bank, or the card's brand and last 4 digits. */
  detail: z.string(),
});
export type TSandboxWaitingPayment = z.infer<typeof ZSandboxWaitingPayment>;

/** GET /api/dashboard/sandbox: what the tools may act on now, newest first. */
export const ZSandboxToolsResponse = ok({
  transfers: z.array(ZSandboxWaitingPayment),
  challenges: z.array(ZSandboxWaitingPayment),
  /** The merchant's webhook endpoints that take events (not disabled). */
  activeWebhooks: z.number().check(z.int(), z.nonnegative()),
});
export type TSandboxTools = z.infer<typeof ZSandboxToolsResponse>;

/** POST /api/dashboard/sandbox/transfers: the sandbox bank sends money to its one-time account. */
export const ZSandboxToolTransferRequest = z.strictObject({
  payment: ZPaymentOrReference,
  /** Kobo; what the payment owes when absent. */
  amount: z.optional(ZKobo.check(z.gte(1, 'must be at least 1 kobo'), z.lte(100_000_000_000))),
});
export type TSandboxToolTransferRequest = z.infer<typeof ZSandboxToolTransferRequest>;
export const ZSandboxToolTransferResponse = ok({
  paymentId: z.string(),
  amount: ZKobo,
  outcome: z.enum(SANDBOX_TRANSFER_OUTCOMES),
  message: z.string(),
});

/** POST /api/dashboard/sandbox/challenges: the payer's answer to their card's 3-D Secure check. */
export const ZSandboxToolChallengeRequest = z.strictObject({
  payment: ZPaymentOrReference,
  approved: z.boolean(),
});
export type TSandboxToolChallengeRequest = z.infer<typeof ZSandboxToolChallengeRequest>;
export const ZSandboxToolChallengeResponse = z.extend(ZSandboxThreeDsResponse, {
  paymentId: z.string(),
});

/** POST /api/dashboard/sandbox/events: a test event of `type` for each of the merchant's keys. */
export const ZSandboxToolEventRequest = z.strictObject({ type: ZWebhookEventType });
export const ZSandboxToolEventResponse = ok({
  /** One event per API key (client) of the merchant, each delivered to its webhooks. */
  events: z.array(z.object({ clientId: z.string(), event: ZWebhookPayload })),
  activeWebhooks: z.number().check(z.int(), z.nonnegative()),
});

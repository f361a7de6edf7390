import { z } from 'zod';
import { ZIdentifier, ZPrintable } from './fields';

/** What a merchant hears about (docs/webhooks.md); more join as their flows are built. */
export const WEBHOOK_EVENT_TYPES = [
  'consent.granted',
  'consent.declined',
  'consent.revoked',
  'payment.completed',
  'payment.failed',
  'future_payment.collected',
  'future_payment.failed',
  'form.completed',
  'consent.failed',
  'mandate.active',
] as const;
export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type TWebhookEventType = z.infer<typeof ZWebhookEventType>;

/** The body of every webhook: the event id is what an idempotent receiver keys on. */
export const ZWebhookPayload = z.object({
  id: z.string(),
  type: ZWebhookEventType,
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type TWebhookPayload = z.infer<typeof ZWebhookPayload>;

/** POST /api/v1/webhooks body */
export const ZCreateWebhookRequest = z.strictObject({
  url: ZPrintable(2_000).pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
});

const ZWebhookEndpoint = z.object({ id: z.string(), url: z.string(), createdAt: z.string() });

/** POST /api/v1/webhooks answer: the signing secret (`whsec_<base64>`) is shown this once. */
export const ZCreateWebhookResponse = ZWebhookEndpoint.extend({
  success: z.literal(true),
  secret: z.string(),
});

/** GET /api/v1/webhooks answer: `disabled` once a delivery was answered 410 Gone. */
export const ZListWebhooksResponse = z.object({
  success: z.literal(true),
  webhooks: z.array(
    ZWebhookEndpoint.extend({
      status: z.enum(['active', 'disabled']),
      disabledAt: z.string().nullable(),
    }),
  ),
});

/**
 * POST /api/v1/webhooks/{id}/rotate-secret answer: the new secret, shown this once; the previous
 * one signs too until `previousSecretValidUntil`.
 */
export const ZRotateWebhookSecretResponse = z.object({
  success: z.literal(true),
  id: z.string(),
  secret: z.string(),
  previousSecretValidUntil: z.string(),
});

export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  endpointId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  consentId: z.string().nullable(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** GET /api/v1/webhooks/deliveries query and answer */
export const ZListDeliveriesQuery = z.object({
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const ZListDeliveriesResponse = z.object({
  success: z.literal(true),
  deliveries: z.array(ZWebhookDelivery),
});

export const ZWebhookIdParams = z.object({ webhookId: ZIdentifier });
export const ZDeliveryIdParams = z.object({ deliveryId: z.coerce.number().int().positive() });
export const ZWebhookOkResponse = z.object({ success: z.literal(true) });

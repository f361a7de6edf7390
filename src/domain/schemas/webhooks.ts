import { z } from 'zod/mini';
import { ZIdentifier, ZIsoDateTime, ZPrintable } from './fields';
import { ZListPage } from './merchant-api';

/** What a merchant hears about (docs/webhooks.md); more join as their flows are built. */
export const WEBHOOK_EVENT_TYPES = [
  'consent.granted',
  'consent.declined',
  'consent.revoked',
  'payment.completed',
  'payment.failed',
  'future_payment.collected',
  'future_payment.failed',
  'future_payment.given_back',
  'future_payment.delayed',
  'form.completed',
  'consent.failed',
  'mandate.active',
  'refund.processed',
  'refund.failed',
  'consent.data_sharing_confirmed',
  'consent.data_sharing_expired',
  'consent.future_payments_cancelled',
  'payment.skipped',
  'consent.paused',
  'consent.resumed',
  'payer.erasure_requested',
  'payment.complaint_raised',
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

/**
 * The events an endpoint is sent, when it names them (an endpoint registered on the dashboard):
 * at least one type, each once. An endpoint that names none is sent every event.
 */
export const ZWebhookEvents = z.array(ZWebhookEventType).check(
  z.minLength(1, 'choose at least one event'),
  z.refine((types) => new Set(types).size === types.length, { error: 'names an event twice' }),
);

/**
 * Who turned an endpoint off: its receiver, by answering 410 Gone, or the merchant's staff on the
 * dashboard. Either way nothing is sent to it until it is enabled again.
 */
export const WEBHOOK_DISABLED_BY = ['receiver', 'staff'] as const;
export type TWebhookDisabledBy = (typeof WEBHOOK_DISABLED_BY)[number];

/**
 * A webhook's URL as a request may name it. Where it may point (https, public addresses only) is
 * the server's check at registration and before every delivery (docs/webhooks.md).
 */
export const ZWebhookUrl = z.pipe(
  ZPrintable(2_000),
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
);

/** POST /api/v1/webhooks body */
export const ZCreateWebhookRequest = z.strictObject({ url: ZWebhookUrl });

const ZWebhookEndpoint = z.object({ id: z.string(), url: z.string(), createdAt: z.string() });

/** POST /api/v1/webhooks answer: the signing secret (`whsec_<base64>`) is shown this once. */
export const ZCreateWebhookResponse = z.extend(ZWebhookEndpoint, {
  success: z.literal(true),
  secret: z.string(),
});

/** GET /api/v1/webhooks answer: `disabled` once a delivery was answered 410 Gone. */
export const ZListWebhooksResponse = z.object({
  success: z.literal(true),
  webhooks: z.array(
    z.extend(ZWebhookEndpoint, {
      status: z.enum(['active', 'disabled']),
      disabledAt: z.nullable(z.string()),
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
  id: z.number().check(z.int()),
  endpointId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  consentId: z.nullable(z.string()),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().check(z.int()),
  lastStatus: z.nullable(z.number().check(z.int())),
  lastError: z.nullable(z.string()),
  /** The start of the endpoint's last answer body (its first 2,048 bytes); null before one. */
  lastBody: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
  deliveredAt: z.nullable(z.string()),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** GET /api/v1/webhooks/deliveries query and answer */
export const ZListDeliveriesQuery = z.object({
  status: z.optional(z.enum(['pending', 'delivered', 'failed'])),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(200)), 50),
});
export const ZListDeliveriesResponse = z.object({
  success: z.literal(true),
  deliveries: z.array(ZWebhookDelivery),
});

export const ZWebhookIdParams = z.object({ webhookId: ZIdentifier });
export const ZDeliveryIdParams = z.object({
  deliveryId: z.coerce.number().check(z.int(), z.positive()),
});
export const ZWebhookOkResponse = z.object({ success: z.literal(true) });

/** How long GET /api/v1/events lists an event after it happened. */
export const EVENT_LIST_DAYS = 30;

/**
 * GET /api/v1/events: what the merchant's webhooks carried, newest first, by type and time, for
 * the last EVENT_LIST_DAYS days; cursor pages as the other lists.
 */
export const ZMerchantEventsQuery = z.object({
  type: z.optional(ZWebhookEventType),
  /** Created at or after this instant. */
  createdFrom: z.optional(ZIsoDateTime),
  /** Created before this instant. */
  createdTo: z.optional(ZIsoDateTime),
  ...ZListPage,
});
export type TMerchantEventsQuery = z.infer<typeof ZMerchantEventsQuery>;

export const ZMerchantEventsResponse = z.object({
  success: z.literal(true),
  /** Each as its webhook's body carried it. */
  events: z.array(ZWebhookPayload),
  /** The cursor of the next page; null on the last. */
  nextCursor: z.nullable(z.string()),
});
export type TMerchantEventsResponse = z.infer<typeof ZMerchantEventsResponse>;

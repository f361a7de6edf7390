import { z } from 'zod/mini';
import { DASHBOARD_ACTIONS, STAFF_ROLES } from '../dashboard-roles';
import { REFUND_REASON_MAX } from '../refunds';
import {
  ZAuthenticationResponse,
  ZPasskeyApprovalOptions,
  ZRegistrationResponse,
  ZWebAuthnOptions,
} from './auth';
import { ZFrequency, ZKobo } from './consent';
import { ZCapabilityLine } from './health';
import { ZIdentifier, ZPrintable } from './fields';
import { ZRefund, ZRefundAccount } from './refunds';
import {
  WEBHOOK_DISABLED_BY,
  ZWebhookDelivery,
  ZWebhookEvents,
  ZWebhookEventType,
  ZWebhookUrl,
} from './webhooks';

/*
 * The merchant dashboard's calls (docs/dashboard.md): a cookie-session API of our own page,
 * under /api/dashboard. The routes and the dashboard's fetchers parse with these.
 */

const ok = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object({ success: z.literal(true), ...shape });

export const ZStaffRole = z.enum(STAFF_ROLES);
export const ZDashboardAction = z.enum(DASHBOARD_ACTIONS);
export const ZDashboardOk = ok({});

/** An invitation link's token (the part after '#'). */
const ZInvitationToken = z.string().check(z.regex(/^[\w-]{20,100}$/, 'is not an invitation'));

// ---------------------------------------------------------------------------------------------
// Invitations, passkeys, sign-in

export const ZInvitationLookupRequest = z.object({ token: ZInvitationToken });
export const ZInvitationLookupResponse = ok({
  merchantName: z.string(),
  role: ZStaffRole,
  /** The number it is for, masked ('0803 *** **42'); null: whichever number accepts it. */
  phoneHint: z.nullable(z.string()),
  expiresAt: z.string(),
});

export const ZInvitationCodeRequest = z.object({
  token: ZInvitationToken,
  phone: ZPrintable(40),
});
export const ZCodeSentResponse = ok({ phoneNumber: z.string(), message: z.string() });

export const ZInvitationAcceptRequest = z.object({
  token: ZInvitationToken,
  phone: ZPrintable(40),
  code: ZPrintable(20),
  /** Needed only when the number has no account with us yet. */
  fullName: z.optional(ZPrintable(100).check(z.trim(), z.minLength(2))),
});

/** POST /api/dashboard/recovery/code and /api/dashboard/recovery (a lost passkey). */
export const ZRecoveryCodeRequest = z.object({ phone: ZPrintable(40) });
export const ZRecoveryRequest = z.object({ phone: ZPrintable(40), code: ZPrintable(20) });

export const ZDashboardPasskeyOptionsResponse = ok({
  options: ZWebAuthnOptions,
  approval: ZPasskeyApprovalOptions,
});
export const ZDashboardPasskeyRequest = z.object({
  response: ZRegistrationResponse,
  approval: z.optional(ZAuthenticationResponse),
});
export const ZSignInOptionsResponse = ok({ options: ZWebAuthnOptions });
export const ZSignInRequest = z.object({ response: ZAuthenticationResponse });

/** GET /api/dashboard/session: who is signed in, for which merchant, with which role. */
export const ZDashboardSessionResponse = ok({
  fullName: z.string(),
  phoneNumber: z.string(),
  /** 'phone-code': an SMS code proved the number; a passkey must be made before anything else. */
  method: z.enum(['passkey', 'phone-code']),
  /** Sent back in the x-dashboard-csrf header by every write. */
  csrfToken: z.string(),
  merchant: z.object({ merchantId: z.string(), name: z.string() }),
  role: ZStaffRole,
  refundLimit: z.nullable(ZKobo),
  actions: z.array(ZDashboardAction),
  /** Whether the server runs on the sandbox network (its tools are offered). */
  sandbox: z.boolean(),
  /**
   * Set while the session's passkey, added with an SMS code alone, may not change anything yet:
   * from when it may (ISO 8601). Reads work meanwhile.
   */
  changesFrom: z.nullable(z.string()),
});
export type TDashboardSession = z.infer<typeof ZDashboardSessionResponse>;

// ---------------------------------------------------------------------------------------------
// Team and audit

export const ZStaffMember = z.object({
  staffId: z.string(),
  fullName: z.string(),
  phoneNumber: z.string(),
  role: ZStaffRole,
  refundLimit: z.nullable(ZKobo),
  createdAt: z.string(),
});
export const ZPendingInvitation = z.object({
  invitationId: z.string(),
  role: ZStaffRole,
  phoneNumber: z.nullable(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export const ZTeamResponse = ok({
  staff: z.array(ZStaffMember),
  invitations: z.array(ZPendingInvitation),
});
export type TTeam = z.infer<typeof ZTeamResponse>;

export const ZInviteRequest = z.object({
  phone: ZPrintable(40),
  role: ZStaffRole,
  /** Kobo one refund may give back; support only. */
  refundLimit: z.optional(ZKobo),
});
export const ZInviteResponse = ok({ invitationId: z.string(), invitationUrl: z.string() });

/** POST /api/operator/clients/{clientId}/owner-invitations (`npm run client:create`). */
export const ZOwnerInvitationRequest = z.object({
  /** The owner's number; none: whoever proves a number first with the link. */
  phone: z.optional(ZPrintable(40)),
});
export const ZOwnerInvitationResponse = ok({ invitationId: z.string(), invitationUrl: z.string() });

export const ZStaffIdParams = z.object({ staffId: ZIdentifier });
export const ZInvitationIdParams = z.object({ invitationId: ZIdentifier });
export const ZStaffChangeRequest = z.object({
  role: ZStaffRole,
  refundLimit: z.nullable(ZKobo),
});

export const ZDashboardAuditEntry = z.object({
  id: z.number().check(z.int()),
  actor: z.string(),
  action: z.string(),
  target: z.nullable(z.string()),
  data: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type TDashboardAuditEntry = z.infer<typeof ZDashboardAuditEntry>;
export const ZAuditQuery = z.object({
  before: z.optional(z.coerce.number().check(z.int(), z.positive())),
});
export const ZAuditResponse = ok({
  entries: z.array(ZDashboardAuditEntry),
  nextBefore: z.nullable(z.number()),
});

// ---------------------------------------------------------------------------------------------
// Payments

export const DASHBOARD_PAGE_SIZE = 25;
export const DASHBOARD_PAYMENT_STATUSES = ['pending', 'executed', 'cancelled', 'skipped'] as const;

/** A Lagos day, as the dashboard's date filters take it. */
export const ZDay = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2026-11-20'));

/** GET /api/dashboard/payments: every filter optional; `q` a reference, account or card digits. */
export const ZPaymentSearchQuery = z.object({
  q: z.optional(ZPrintable(100)),
  status: z.optional(z.enum(DASHBOARD_PAYMENT_STATUSES)),
  /** Kobo, exactly. */
  amount: z.optional(z.coerce.number().check(z.int(), z.nonnegative())),
  from: z.optional(ZDay),
  to: z.optional(ZDay),
  cursor: z.optional(ZPrintable(200)),
});
export type TPaymentSearchQuery = z.infer<typeof ZPaymentSearchQuery>;

export const ZDashboardPaymentRow = z.object({
  paymentId: z.string(),
  consentId: z.string(),
  reference: z.nullable(z.string()),
  type: z.enum(['immediate', 'future']),
  status: z.enum(DASHBOARD_PAYMENT_STATUSES),
  amount: ZKobo,
  refunded: ZKobo,
  narration: z.string(),
  /**
   * How the payer paid, masked: 'Card 408408******0003', 'Saved bank account GTBank ****1234',
   * 'Transfer from GTBank ****1234', 'Collection from …', 'Chip card …'; null: not paid.
   */
  paidWith: z.nullable(z.string()),
  createdAt: z.string(),
  executedAt: z.nullable(z.string()),
  /** A future payment's due date (its first, for a recurring one); null for an immediate one. */
  dueDate: z.nullable(z.string()),
  /** How often a recurring future payment repeats; null for a one-off or an immediate one. */
  frequency: z.nullable(ZFrequency),
  interval: z.nullable(z.number().check(z.int(), z.positive())),
});
export type TDashboardPaymentRow = z.infer<typeof ZDashboardPaymentRow>;
export const ZPaymentSearchResponse = ok({
  payments: z.array(ZDashboardPaymentRow),
  nextCursor: z.nullable(z.string()),
});

export const ZTimelineEntry = z.object({
  at: z.string(),
  kind: z.enum(['created', 'attempt', 'notice', 'collection', 'webhook', 'refund', 'executed']),
  title: z.string(),
  detail: z.nullable(z.string()),
});
export type TTimelineEntry = z.infer<typeof ZTimelineEntry>;
export const ZPaymentIdParams = z.object({ paymentId: ZIdentifier });
export const ZPaymentDetailResponse = ok({
  payment: ZDashboardPaymentRow,
  refunds: z.array(ZRefund),
  /** Kobo still refundable now (0 for a payment not paid). */
  refundable: ZKobo,
  timeline: z.array(ZTimelineEntry),
});
export type TPaymentDetail = z.infer<typeof ZPaymentDetailResponse>;

export const ZDashboardRefundRequest = z.object({
  amount: ZKobo.check(z.gte(1, 'must be at least 1 kobo')),
  reason: ZPrintable(REFUND_REASON_MAX).check(z.trim(), z.minLength(1)),
  /** The payer's account, for a transfer whose notice named no sender (REFUND_SENDER_UNKNOWN). */
  refundTo: z.optional(ZRefundAccount),
});
export type TDashboardRefundRequest = z.infer<typeof ZDashboardRefundRequest>;
export const ZDashboardRefundResponse = ok({ refund: ZRefund });

/** The banks a refund's account may be at, for the refund form's choice. */
export const ZDashboardBanksResponse = ok({
  banks: z.array(z.object({ institutionCode: z.string(), name: z.string() })),
});

// ---------------------------------------------------------------------------------------------
// Developers: keys, webhooks, deliveries, request log

export const ZApiKey = z.object({
  clientId: z.string(),
  allowedOrigins: z.array(z.string()),
  previousSecretValidUntil: z.nullable(z.string()),
});
export const ZApiKeysResponse = ok({ keys: z.array(ZApiKey) });
/** What this server can do, capability by capability, as GET /api/health/ready lists it. */
export const ZCapabilitiesResponse = ok({ capabilities: z.array(ZCapabilityLine) });
export const ZClientIdParams = z.object({ clientId: ZIdentifier });
export const ZKeyRotateRequest = z.object({
  graceHours: z.number().check(z.int(), z.gte(0), z.lte(168)),
});
export const ZKeyRotateResponse = ok({
  clientId: z.string(),
  secret: z.string(),
  previousSecretValidUntil: z.nullable(z.string()),
});
export const ZKeyOriginsRequest = z.object({
  add: z.optional(z.array(ZPrintable(300)).check(z.maxLength(50))),
  remove: z.optional(z.array(ZPrintable(300)).check(z.maxLength(50))),
});
export const ZKeyOriginsResponse = ok({ allowedOrigins: z.array(z.string()) });

export const ZDashboardWebhook = z.object({
  webhookId: z.string(),
  clientId: z.string(),
  url: z.string(),
  /** The events it is sent; null: every event, those added later too. */
  events: z.nullable(z.array(ZWebhookEventType)),
  status: z.enum(['active', 'disabled']),
  /** Who turned it off (its receiver answered 410 Gone, or staff); null while it is on. */
  disabledBy: z.nullable(z.enum(WEBHOOK_DISABLED_BY)),
  createdAt: z.string(),
});
export type TDashboardWebhook = z.infer<typeof ZDashboardWebhook>;
export const ZDashboardWebhooksResponse = ok({ webhooks: z.array(ZDashboardWebhook) });
export const ZWebhookIdParams = z.object({ webhookId: ZIdentifier });

/**
 * POST /api/dashboard/webhooks: an endpoint for one of the merchant's API keys, sent the events
 * named (null: every event, those added later too).
 */
export const ZDashboardWebhookCreateRequest = z.object({
  clientId: ZIdentifier,
  url: ZWebhookUrl,
  events: z.nullable(ZWebhookEvents),
});
export type TDashboardWebhookCreateRequest = z.infer<typeof ZDashboardWebhookCreateRequest>;
/** Its answer: the endpoint, and its signing secret, shown this once. */
export const ZDashboardWebhookCreatedResponse = ok({
  webhook: ZDashboardWebhook,
  secret: z.string(),
});

/** PATCH /api/dashboard/webhooks/{webhookId}: its URL, its events or both; the rest stays. */
export const ZDashboardWebhookChangeRequest = z
  .object({
    url: z.optional(ZWebhookUrl),
    events: z.optional(z.nullable(ZWebhookEvents)),
  })
  .check(
    z.refine((change) => change.url !== undefined || change.events !== undefined, {
      error: 'name a url or events to change',
    }),
  );
export type TDashboardWebhookChangeRequest = z.infer<typeof ZDashboardWebhookChangeRequest>;
export const ZDashboardWebhookResponse = ok({ webhook: ZDashboardWebhook });
export const ZWebhookSecretResponse = ok({
  secret: z.string(),
  previousSecretValidUntil: z.nullable(z.string()),
});

/** A delivery with the request it sends (the event's body) and what the receiver answered. */
export const ZDashboardDelivery = z.extend(ZWebhookDelivery, {
  clientId: z.string(),
  url: z.string(),
  createdAt: z.string(),
  /** The JSON body every try of it sends. */
  request: z.string(),
});
export const ZDeliveriesQuery = z.object({ webhookId: z.optional(ZIdentifier) });
export const ZDeliveriesResponse = ok({ deliveries: z.array(ZDashboardDelivery) });
export type TDashboardDelivery = z.infer<typeof ZDashboardDelivery>;
export const ZDeliveryIdParams = z.object({
  deliveryId: z.coerce.number().check(z.int(), z.positive(), z.lte(Number.MAX_SAFE_INTEGER)),
});

/**
 * A delivery whose job failed every retry and went to its dead letter (docs/jobs.md): nothing
 * sends it again until it is resent. `status` is the delivery's now (a resend may have sent it).
 */
export const ZDashboardDeadLetter = z.object({
  deliveryId: z.number().check(z.int()),
  eventId: z.string(),
  eventType: z.string(),
  url: z.string(),
  /** Tries the job made: the first and each retry. */
  tries: z.number().check(z.int()),
  deadSince: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
});
export const ZDeadLettersResponse = ok({ deadLetters: z.array(ZDashboardDeadLetter) });
export type TDashboardDeadLetter = z.infer<typeof ZDashboardDeadLetter>;

export const ZRequestLogEntry = z.object({
  clientId: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().check(z.int()),
  idempotencyKey: z.nullable(z.string()),
  requestId: z.string(),
  at: z.string(),
});
export const ZRequestLogResponse = ok({ requests: z.array(ZRequestLogEntry) });

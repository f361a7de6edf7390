import { z } from 'zod/mini';
import { DATA_CATEGORIES } from '../constants';
import { ZConsent, ZConsentStatus, ZCounterparty } from './consent';
import { ZIdentifier, ZIsoDateTime, ZPrintable, ZText } from './fields';
import { ZCreatePayment } from './merchant-api';

/** GET /api/consent/{id}[?clientId=] query (spec §7). The answer is ZConsentReadResponse. */
export const ZConsentReadQuery = z.object({
  clientId: z.optional(z.string().check(z.trim(), z.minLength(1))),
});
export type TConsentReadQuery = z.infer<typeof ZConsentReadQuery>;

/** GET /api/consent/{consentId} without clientId (spec §7 alternate read): what sign-in needs. */
export const ZConsentSummaryReadResponse = z.object({
  success: z.literal(true),
  consent: z.object({
    counterparty: ZCounterparty,
    attestDiscoveryId: z.nullable(z.string()),
  }),
});
export type TConsentSummaryReadResponse = z.infer<typeof ZConsentSummaryReadResponse>;

/**
 * spec §3 Consent creation payload (POST /api/consent body; docs/payment-requests.md): the
 * signed-in payer asks the payer `userId` to consent to payments to them, the same payment items
 * a merchant sends to POST /api/v1/consents. expiresAt is 24 h ahead; the server allows no later.
 */
export const ZConsentCreationPayload = z.strictObject({
  userId: ZIdentifier,
  paymentConsents: z.array(ZCreatePayment).check(
    z.minLength(1),
    z.maxLength(120),
    z.refine((items) => items.filter((p) => p.type === 'immediate').length <= 1, {
      message: 'at most one immediate payment',
    }),
  ),
  expiresAt: ZIsoDateTime,
});
export type TConsentCreationPayload = z.infer<typeof ZConsentCreationPayload>;

/**
 * POST /api/consent answer (spec §7); failures answer ZApiErrorBody. `url` (ours) is the consent
 * page the invited payer opens, as a merchant's consent answers it.
 */
export const ZConsentCreationResponse = z.object({
  success: z.literal(true),
  consentId: z.string(),
  url: z.string(),
});
export type TConsentCreationResponse = z.infer<typeof ZConsentCreationResponse>;

/** GET /api/consent/payment-request/{id} answer (spec §7): the payer who asked. */
export const ZPaymentRequestReadResponse = z.object({
  success: z.literal(true),
  data: z.object({ counterparty: ZCounterparty }),
});
export type TPaymentRequestReadResponse = z.infer<typeof ZPaymentRequestReadResponse>;

export const ZDataCategory = z.enum(DATA_CATEGORIES);
export type TDataCategory = z.infer<typeof ZDataCategory>;

/** How an immediate payment is made (spec §7 grant: account, transfer or card). */
export const ZImmediatePaymentMethod = z.discriminatedUnion('type', [
  z.object({ type: z.literal('account'), accountId: ZIdentifier }),
  z.object({ type: z.literal('transfer'), paymentId: ZIdentifier }),
  z.object({ type: z.literal('card'), paymentId: ZIdentifier }),
]);
export type TImmediatePaymentMethod = z.infer<typeof ZImmediatePaymentMethod>;

/** Future payments are only ever debited from a linked account. */
export const ZFuturePaymentMethod = z.object({
  type: z.literal('account'),
  accountId: ZIdentifier,
});
export type TFuturePaymentMethod = z.infer<typeof ZFuturePaymentMethod>;

/** At most this many accounts or methods in one part of a grant. */
const GRANT_LIST_MAX = 20;

/**
 * POST /api/consent/{consentId}/grant body (spec §7), signed with the payer's attestation.
 * A granted future-payment part needs at least one account (spec §5 Repayment Confirm).
 */
/** Where the consent page was shown: on its own, or embedded in the merchant's page. */
export const ZGrantChannel = z.enum(['standalone', 'embedded']);
export type TGrantChannel = z.infer<typeof ZGrantChannel>;

export const ZGrantRequest = z.object({
  originalRequestId: z.nullable(ZPrintable(200)),
  consentData: z.object({ consentId: ZIdentifier }),
  userAuthenticated: z.boolean(),
  attestDiscoveryId: z.nullable(ZIdentifier),
  futurePayments: z.optional(
    z
      .object({
        granted: z.boolean(),
        selectedAccounts: z.array(ZIdentifier).check(z.maxLength(GRANT_LIST_MAX)),
        paymentMethods: z.array(ZFuturePaymentMethod).check(z.maxLength(GRANT_LIST_MAX)),
      })
      .check(
        z.refine((f) => !f.granted || f.selectedAccounts.length > 0, {
          message: 'granted future payments need at least one account',
          path: ['selectedAccounts'],
        }),
      ),
  ),
  dataSharing: z.optional(
    z.object({
      granted: z.boolean(),
      dataTypes: z.array(ZDataCategory).check(z.maxLength(DATA_CATEGORIES.length)),
    }),
  ),
  immediatePayments: z.optional(
    z.object({
      granted: z.boolean(),
      selectedAccounts: z.array(ZIdentifier).check(z.maxLength(GRANT_LIST_MAX)),
      paymentMethods: z.array(ZImmediatePaymentMethod).check(z.maxLength(GRANT_LIST_MAX)),
    }),
  ),
  /** The page's channel, kept in the grant's record (docs/payer-consents.md "The record"). */
  channel: z.optional(ZGrantChannel),
});
export type TGrantRequest = z.infer<typeof ZGrantRequest>;

/** How the immediate payments of a grant went; `failed` must be 0 for success (spec §4). */
export const ZPaymentResults = z.object({
  total: z.number().check(z.int(), z.nonnegative()),
  succeeded: z.number().check(z.int(), z.nonnegative()),
  failed: z.number().check(z.int(), z.nonnegative()),
});
export type TPaymentResults = z.infer<typeof ZPaymentResults>;

/**
 * POST /api/consent/{consentId}/grant answer (spec §7). A grant whose debits failed is still a
 * 200 answer: `paymentResults.failed` and `error` tell the page (spec §4 Grant outcome).
 */
export const ZGrantResponse = z.object({
  success: z.literal(true),
  consent: ZConsent,
  paymentResults: z.optional(ZPaymentResults),
  status: ZConsentStatus,
  message: z.optional(z.string()),
  error: z.optional(z.string()),
});
export type TGrantResponse = z.infer<typeof ZGrantResponse>;

/**
 * POST /api/consent/{consentId}/decline answer (ours: spec §2 'Decline' on a consent that asks
 * for neither payments nor data): the consent, now declined, and 'Consent was rejected by user'.
 */
export const ZDeclineResponse = z.omit(ZGrantResponse, { paymentResults: true, error: true });
export type TDeclineResponse = z.infer<typeof ZDeclineResponse>;

/** POST /api/consent/otp body (spec §7) */
export const ZConsentOtpRequest = z.object({
  paymentId: ZIdentifier,
  otp: ZText(50),
  /** A payer who is not signed in names the consent whose link they hold (spec §6). */
  consentId: z.optional(ZIdentifier),
  /** Without sign-in: the token the charge's answer gave its page (ZCardChargeResponse). */
  chargeToken: z.optional(ZIdentifier),
});
export type TConsentOtpRequest = z.infer<typeof ZConsentOtpRequest>;

/** POST /api/consent/otp answer (spec §7); failures answer ZApiErrorBody. */
export const ZConsentOtpResponse = z.object({
  success: z.literal(true),
  /** Ours: the card network did not answer the OTP; the charge's end comes on its stream. */
  status: z.optional(z.literal('charging')),
});
export type TConsentOtpResponse = z.infer<typeof ZConsentOtpResponse>;

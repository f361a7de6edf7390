import { z } from 'zod/mini';
import { DATA_CATEGORIES } from '../constants';
import { ERROR_CODES } from '../errors';
import { ZMandateType } from './account-link';
import { SKIP_REASONS } from '../debit-notices';
import { COMPLAINT_CATEGORIES } from '../complaints';
import { ZKobo } from './consent';
import { ZMerchantEcho } from './merchant-api';
import type { TWebhookEventType } from './webhooks';

/*
 * The `data` of each webhook event type (docs/webhooks.md, "Events"): what the OpenAPI
 * document's `webhooks` section describes, one entry per type. The server tests check every
 * event the app writes against the document (src/server/testing/openapi-answers.ts).
 */

const ZTimestamp = z.string().check(z.describe('ISO 8601 date-time (UTC)'));
const ZMethod = z.enum(['bank_transfer', 'card', 'account', 'chip_card']);
const ZTrigger = z
  .enum(['schedule', 'merchant'])
  .check(
    z.describe('schedule: on its due date; merchant: POST /api/v1/payments/{paymentId}/collect'),
  );
const ZCollectionCommon = {
  consentId: z.string(),
  paymentId: z.string(),
  collectionId: z.string(),
  amount: ZKobo.check(z.describe('kobo')),
  trigger: ZTrigger,
};

const ZRefundCommon = {
  consentId: z.string(),
  paymentId: z.string(),
  refundId: z.string(),
  amount: ZKobo.check(z.describe('kobo')),
  reason: z.nullable(z.string()),
};

/** An event's own fields, and the consent's reference and metadata every event echoes. */
const eventData = <TShape extends z.core.$ZodLooseShape>(shape: TShape) =>
  z.object({ ...shape, ...ZMerchantEcho });

export const WEBHOOK_EVENT_DATA = {
  'consent.granted': eventData({
    consentId: z.string(),
    grantedAt: ZTimestamp,
    immediatePaymentId: z.nullable(z.string()),
    dataTypes: z.array(z.enum(DATA_CATEGORIES)),
    payerAuthenticated: z.boolean(),
  }),
  'consent.declined': eventData({
    consentId: z.string(),
    declinedAt: ZTimestamp,
    reason: z.string(),
  }),
  'consent.revoked': eventData({
    consentId: z.string(),
    revokedAt: ZTimestamp,
    cancelledPaymentIds: z.array(z.string()),
  }),
  'payment.completed': eventData({
    consentId: z.string(),
    paymentId: z.string(),
    amount: ZKobo.check(z.describe('kobo')),
    method: ZMethod,
    executedAt: ZTimestamp,
  }),
  'payment.failed': eventData({
    consentId: z.string(),
    paymentId: z.string(),
    method: ZMethod,
    code: z.enum(ERROR_CODES),
    message: z.string(),
  }),
  'future_payment.collected': eventData({
    ...ZCollectionCommon,
    accountId: z.string(),
    bankName: z.string(),
    executedAt: ZTimestamp,
  }),
  'future_payment.failed': eventData({
    ...ZCollectionCommon,
    code: z.literal('DIRECT_DEBIT_FAILED'),
    message: z.string(),
    reason: z.string(),
    rounds: z.number().check(z.int(), z.positive()),
    tries: z.array(
      z.object({
        position: z.number().check(z.int(), z.nonnegative()),
        accountId: z.string(),
        reason: z.string(),
      }),
    ),
  }),
  'future_payment.given_back': eventData({
    ...ZCollectionCommon,
    accountId: z.string(),
    bankName: z.string(),
    reason: z
      .enum(['consent_revoked', 'future_payments_cancelled'])
      .check(z.describe('who cancelled the payment: the payer, or the merchant')),
    givenBackAt: ZTimestamp,
  }),
  'future_payment.delayed': eventData({
    ...ZCollectionCommon,
    reason: z
      .literal('payer_not_notified')
      .check(
        z.describe(
          'the payer could not be sent the SMS notice before the debit (the SMS provider refused ' +
            'it, or the payer has no number it reaches)',
        ),
      ),
    dueAt: ZTimestamp.check(
      z.describe('when it is due now: the notice is tried again the lead before it'),
    ),
    delayedAt: ZTimestamp,
  }),
  'payment.skipped': eventData({
    ...ZCollectionCommon,
    dueAt: ZTimestamp.check(z.describe('when it would have been debited')),
    reason: z
      .enum(SKIP_REASONS)
      .check(
        z.describe(
          'payer_skipped: the payer skipped it from the notice before the debit; ' +
            'consent_paused: it fell due while the payer had paused the consent',
        ),
      ),
    skippedAt: ZTimestamp,
  }),
  'consent.paused': eventData({
    consentId: z.string(),
    pausedAt: ZTimestamp,
  }),
  'consent.resumed': eventData({
    consentId: z.string(),
    resumedAt: ZTimestamp,
    pausedAt: ZTimestamp.check(z.describe('when the pause that ended began')),
  }),
  'payer.erasure_requested': eventData({
    consentId: z.string().check(z.describe('the consent through which you received their data')),
    requestedAt: ZTimestamp,
    dataTypes: z
      .array(z.enum(DATA_CATEGORIES))
      .check(z.describe('what the consent shared with you: erase your copy of it')),
  }),
  'payment.complaint_raised': eventData({
    consentId: z.string(),
    paymentId: z.string(),
    complaintId: z.string(),
    reference: z.string().check(z.describe('what the payer quotes: CP- and eight characters')),
    category: z.enum(COMPLAINT_CATEGORIES),
    description: z.string().check(z.describe('the payer’s own words')),
    raisedAt: ZTimestamp,
    acknowledgeBy: ZTimestamp.check(z.describe('the target to acknowledge it by')),
    resolveBy: ZTimestamp.check(z.describe('the target to resolve it by')),
  }),
  'form.completed': eventData({
    consentId: z.string(),
    formId: z.string(),
    formResponseId: z.string(),
    submittedAt: ZTimestamp,
  }),
  'consent.failed': eventData({
    consentId: z.string(),
    failedAt: ZTimestamp.check(z.describe('the consent’s expiresAt')),
    code: z.literal('CONSENT_EXPIRED'),
    reason: z.string(),
    paidPaymentIds: z.array(z.string()),
  }),
  'mandate.active': eventData({
    consentId: z.string(),
    mandateId: z.string(),
    accountId: z.string(),
    bankName: z.string(),
    mandateType: ZMandateType,
    activatedAt: z.nullable(ZTimestamp),
  }),
  'refund.processed': eventData({
    ...ZRefundCommon,
    processedAt: ZTimestamp,
  }),
  'refund.failed': eventData({
    ...ZRefundCommon,
    failureReason: z.string().check(z.describe('why the provider did not give it back')),
    failedAt: ZTimestamp,
  }),
  'consent.data_sharing_confirmed': eventData({
    consentId: z.string(),
    confirmedAt: ZTimestamp,
    dataSharingExpiresAt: ZTimestamp,
  }),
  'consent.data_sharing_expired': eventData({
    consentId: z.string(),
    endedAt: ZTimestamp,
    dataSharingExpiresAt: ZTimestamp,
    dataTypes: z.array(z.enum(DATA_CATEGORIES)),
  }),
  'consent.future_payments_cancelled': eventData({
    consentId: z.string(),
    cancelledAt: ZTimestamp,
    cancelledPaymentIds: z.array(z.string()),
    reason: z.string(),
  }),
} as const satisfies Record<TWebhookEventType, z.ZodMiniType>;

/** What each event type is for: the `webhooks` entries' summaries. */
export const WEBHOOK_EVENT_SUMMARIES: Record<TWebhookEventType, string> = {
  'consent.granted': 'The payer granted the consent',
  'consent.declined': 'The payer declined the consent',
  'consent.revoked': 'The payer revoked the consent; its uncollected future payments are cancelled',
  'payment.completed': 'An immediate payment was paid (card, transfer, a saved account)',
  'payment.failed': 'A way of paying a payment failed (the payer may try again)',
  'future_payment.collected': 'A granted future payment was debited',
  'future_payment.failed': 'Every chosen account refused a future payment’s debit',
  'future_payment.given_back':
    'A bank debited a future payment after it was cancelled; the debit was given back to the payer',
  'future_payment.delayed':
    'A future payment’s debit waits: its payer could not be sent the notice before it, so it is noticed again the next day and never debited untold (sent once per collection)',
  'payment.skipped':
    'A future payment will not be collected: its payer skipped it, or it fell due while they had paused the consent; ask for it again only by a new consent',
  'consent.paused':
    'The payer paused the consent’s future payments: none is collected, and what falls due is skipped',
  'consent.resumed': 'The payer resumed the consent’s future payments',
  'payer.erasure_requested':
    'The payer asked for their data to be erased (NDPA 2023): erase the copy of what this consent shared with you, keeping only what a law makes you keep',
  'payment.complaint_raised':
    'The payer raised a complaint about one of the consent’s payments; it is to be acknowledged and resolved by the dates given',
  'form.completed': 'The payer’s form answers became final with the grant',
  'consent.failed': 'The consent expired while still pending',
  'mandate.active': 'A mandate the future payments are collected on is active',
  'refund.processed': 'A refund of a paid payment was given back to the payer',
  'refund.failed':
    'A refund of a paid payment was not given back; its amount may be refunded again',
  'consent.data_sharing_confirmed':
    'The payer confirmed the consent’s data sharing again: it lasts 12 months more',
  'consent.data_sharing_expired':
    'The consent’s data sharing ended: the payer did not confirm it within 12 months',
  'consent.future_payments_cancelled':
    'The merchant’s staff cancelled the consent’s uncollected future payments, with a reason; the consent stays granted',
};

/** The whole body of a delivery of `type`. */
export const webhookBodyOf = <T extends TWebhookEventType>(type: T) =>
  z.object({
    id: z
      .string()
      .check(z.describe('The event id: the same on every delivery of this event; key on it')),
    type: z.literal(type),
    createdAt: ZTimestamp,
    data: WEBHOOK_EVENT_DATA[type],
  });

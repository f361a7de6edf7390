import { z } from 'zod/mini';
import { dataSharingExpiry } from './consent-record';
import { ERROR_CATALOGUE } from './errors';
import type { WEBHOOK_EVENT_DATA } from './schemas/webhook-events';
import type { ZMerchantEcho } from './schemas/merchant-api';
import { ZWebhookEventType, ZWebhookPayload, type TWebhookEventType } from './schemas/webhooks';

/*
 * Test events (docs/webhooks.md, "Events on your machine"): what `npm run client:trigger` fires
 * on a sandbox server, one sample `data` per event type, valid for its type's schema, so a
 * merchant's receiver meets every event before any real consent makes it. Every id in a sample
 * is the real one's prefix, then `test_`, then the caller's suffix (random on the server), so a
 * receiver tells test events from real ones and no two test events share an id.
 */

/** What every id of a test event holds after its kind's prefix: `cns_test_…`, `pay_test_…`. */
export const TEST_ID_MARK = 'test_';

/** An event's own fields: the consent's reference and metadata are added as it is recorded. */
export type TTestEventData<T extends TWebhookEventType> = Omit<
  z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>,
  keyof typeof ZMerchantEcho
>;

/** The ids' prefixes: those of the real records (a mandate is an account link, `alk_`). */
const PREFIXES = {
  consent: 'cns',
  payment: 'pay',
  collection: 'col',
  account: 'acc',
  mandate: 'alk',
  refund: 'rfd',
  form: 'frm',
  formResponse: 'frs',
  complaint: 'cmp',
} as const;
type TSampleIds = Record<keyof typeof PREFIXES, string>;

const AMOUNT_KOBO = 250_000;
const BANK_NAME = 'Access Bank';
const DATA_TYPES = ['bvnData', 'bankAccounts'] as const;

const SAMPLES: {
  [T in TWebhookEventType]: (id: TSampleIds, at: string, now: Date) => TTestEventData<T>;
} = {
  'consent.granted': (id, at) => ({
    consentId: id.consent,
    grantedAt: at,
    immediatePaymentId: id.payment,
    dataTypes: [...DATA_TYPES],
    payerAuthenticated: true,
  }),
  'consent.declined': (id, at) => ({
    consentId: id.consent,
    declinedAt: at,
    reason: ERROR_CATALOGUE.CONSENT_REJECTED.message,
  }),
  'consent.revoked': (id, at) => ({
    consentId: id.consent,
    revokedAt: at,
    cancelledPaymentIds: [id.payment],
  }),
  'payment.completed': (id, at) => ({
    consentId: id.consent,
    paymentId: id.payment,
    amount: AMOUNT_KOBO,
    method: 'card',
    executedAt: at,
  }),
  'payment.failed': (id) => ({
    consentId: id.consent,
    paymentId: id.payment,
    method: 'card',
    code: 'CARD_PAYMENT_FAILED',
    message: ERROR_CATALOGUE.CARD_PAYMENT_FAILED.message,
  }),
  'future_payment.collected': (id, at) => ({
    consentId: id.consent,
    paymentId: id.payment,
    collectionId: id.collection,
    amount: AMOUNT_KOBO,
    trigger: 'schedule',
    accountId: id.account,
    bankName: BANK_NAME,
    executedAt: at,
  }),
  'future_payment.failed': (id) => ({
    consentId: id.consent,
    paymentId: id.payment,
    collectionId: id.collection,
    amount: AMOUNT_KOBO,
    trigger: 'schedule',
    code: 'DIRECT_DEBIT_FAILED',
    message: ERROR_CATALOGUE.DIRECT_DEBIT_FAILED.message,
    reason: 'insufficient_funds',
    rounds: 3,
    tries: [{ position: 0, accountId: id.account, reason: 'insufficient_funds' }],
  }),
  'future_payment.given_back': (id, at) => ({
    consentId: id.consent,
    paymentId: id.payment,
    collectionId: id.collection,
    amount: AMOUNT_KOBO,
    trigger: 'merchant',
    accountId: id.account,
    bankName: BANK_NAME,
    reason: 'consent_revoked',
    givenBackAt: at,
  }),
  'future_payment.delayed': (id, at) => ({
    consentId: id.consent,
    paymentId: id.payment,
    collectionId: id.collection,
    amount: AMOUNT_KOBO,
    trigger: 'schedule',
    reason: 'payer_not_notified',
    dueAt: at,
    delayedAt: at,
  }),
  'form.completed': (id, at) => ({
    consentId: id.consent,
    formId: id.form,
    formResponseId: id.formResponse,
    submittedAt: at,
  }),
  'consent.failed': (id, at) => ({
    consentId: id.consent,
    failedAt: at,
    code: 'CONSENT_EXPIRED',
    reason: 'The consent expired before the payer answered it',
    paidPaymentIds: [],
  }),
  'mandate.active': (id, at) => ({
    consentId: id.consent,
    mandateId: id.mandate,
    accountId: id.account,
    bankName: BANK_NAME,
    mandateType: 'otp',
    activatedAt: at,
  }),
  'refund.processed': (id, at) => ({
    consentId: id.consent,
    paymentId: id.payment,
    refundId: id.refund,
    amount: AMOUNT_KOBO,
    reason: null,
    processedAt: at,
  }),
  'refund.failed': (id, at) => ({
    consentId: id.consent,
    paymentId: id.payment,
    refundId: id.refund,
    amount: AMOUNT_KOBO,
    reason: null,
    failureReason: 'expired',
    failedAt: at,
  }),
  'consent.data_sharing_confirmed': (id, at, now) => ({
    consentId: id.consent,
    confirmedAt: at,
    dataSharingExpiresAt: dataSharingExpiry(now).toISOString(),
  }),
  'consent.data_sharing_expired': (id, at) => ({
    consentId: id.consent,
    endedAt: at,
    dataSharingExpiresAt: at,
    dataTypes: [...DATA_TYPES],
  }),
  'consent.future_payments_cancelled': (id, at) => ({
    consentId: id.consent,
    cancelledAt: at,
    cancelledPaymentIds: [id.payment],
    reason: 'The order was cancelled',
  }),
  'payment.skipped': (id, at) => ({
    consentId: id.consent,
    paymentId: id.payment,
    collectionId: id.collection,
    amount: AMOUNT_KOBO,
    trigger: 'schedule',
    dueAt: at,
    reason: 'payer_skipped',
    skippedAt: at,
  }),
  'consent.paused': (id, at) => ({ consentId: id.consent, pausedAt: at }),
  'consent.resumed': (id, at) => ({ consentId: id.consent, resumedAt: at, pausedAt: at }),
  'payer.erasure_requested': (id, at) => ({
    consentId: id.consent,
    requestedAt: at,
    dataTypes: ['bvnData'],
  }),
  'payment.complaint_raised': (id, at, now) => ({
    consentId: id.consent,
    paymentId: id.payment,
    complaintId: id.complaint,
    reference: 'CP-TEST2345',
    category: 'wrong_amount',
    description: 'I was debited more than I agreed to.',
    raisedAt: at,
    acknowledgeBy: new Date(now.getTime() + 3 * 24 * 3_600_000).toISOString(),
    resolveBy: new Date(now.getTime() + 14 * 24 * 3_600_000).toISOString(),
  }),
};

/** The sample `data` of a test event of `type` at `now`, each id ending in `suffix`. */
export function testEventData<T extends TWebhookEventType>(
  type: T,
  input: { suffix: string; now: Date },
): TTestEventData<T> {
  const ids = Object.fromEntries(
    Object.entries(PREFIXES).map(([kind, prefix]) => [
      kind,
      `${prefix}_${TEST_ID_MARK}${input.suffix}`,
    ]),
  ) as TSampleIds;
  return SAMPLES[type](ids, input.now.toISOString(), input.now);
}

/** POST /api/operator/clients/{clientId}/events body: the type of the test event to fire. */
export const ZTestEventRequest = z.strictObject({ type: ZWebhookEventType });

/** Its answer: the event as its deliveries carry it (and GET …/events lists it). */
export const ZTestEventResponse = z.object({ success: z.literal(true), event: ZWebhookPayload });

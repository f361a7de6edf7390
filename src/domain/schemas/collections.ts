import { z } from 'zod/mini';
import { PAYMENT_METHODS } from '../constants';
import { ZAmountType, ZKobo } from './consent';
import { ZIdentifier, ZIsoDateTime } from './fields';
import { ZListPage, ZMerchantEcho, ZMerchantReference } from './merchant-api';
import { ZRefund } from './refunds';

/*
 * The merchant's calls on its consents' payments (docs/payments.md "Collecting future payments"):
 * collect a variable or 'As needed' future payment now, and read a payment with its collections.
 */

export const ZPaymentIdParams = z.object({ paymentId: ZIdentifier });

/** POST /api/v1/payments/{paymentId}/collect body: integer kobo, at most the consented amount. */
export const ZCollectRequest = z.strictObject({
  amount: ZKobo.check(z.gte(1, 'must be at least 1 kobo')),
});

/** The account a collection tried or debited, as the merchant sees it: the number masked. */
const ZCollectionAccount = z.object({
  accountId: z.string(),
  bankName: z.string(),
  /** The last four digits only, e.g. '******6785'. */
  accountNumber: z.string(),
});

export const ZCollectionTry = z.extend(ZCollectionAccount, {
  position: z.number().check(z.int()),
  outcome: z.enum(['succeeded', 'failed']),
  /** Why the bank refused: 'insufficient_funds', 'account_not_found', 'mandate_inactive', … */
  reason: z.nullable(z.string()),
  at: z.string(),
});

export const ZCollection = z.object({
  collectionId: z.string(),
  paymentId: z.string(),
  /** 'schedule': on the due date by the runner; 'merchant': the collect call. */
  trigger: z.enum(['schedule', 'merchant']),
  amount: z.number().check(z.int()),
  /**
   * cancelled: never debited, because the payer revoked the consent before it was; skipped: the
   * payer skipped it from the notice, or it fell due while the consent was paused (the
   * `payment.skipped` webhook says which).
   */
  status: z.enum(['pending', 'collecting', 'succeeded', 'failed', 'cancelled', 'skipped']),
  dueAt: z.string(),
  notifiedAt: z.nullable(z.string()),
  completedAt: z.nullable(z.string()),
  account: z.nullable(ZCollectionAccount),
  failure: z.nullable(z.object({ code: z.string(), message: z.string(), reason: z.string() })),
  tries: z.array(ZCollectionTry),
});
export type TCollection = z.infer<typeof ZCollection>;

/** POST /api/v1/payments/{paymentId}/collect answer (201 collected, 202 still at the bank). */
export const ZCollectResponse = z.object({ success: z.literal(true), collection: ZCollection });

/** GET /api/v1/payments/{paymentId} answer: the payment, every collection and refund of it. */
export const ZMerchantPayment = z.object({
  paymentId: z.string(),
  consentId: z.string(),
  type: z.enum(['immediate', 'future']),
  /** skipped: its payer skipped it, or it fell due while they had paused the consent. */
  status: z.enum(['pending', 'executed', 'cancelled', 'skipped']),
  amount: z.number().check(z.int()),
  amountType: ZAmountType,
  narration: z.string(),
  dueDate: z.nullable(z.string()),
  executedAt: z.nullable(z.string()),
  collections: z.array(ZCollection),
  /** Kobo its refunds hold: processed, and pending (reserved until the provider answers). */
  refunded: z.number().check(z.int()),
  /** Every refund of it, oldest first (docs/payments.md "Refunds"). */
  refunds: z.array(ZRefund),
  /** How it was paid: the method of its completed attempt, 'account' for a debit; null unpaid. */
  method: z.nullable(z.enum(PAYMENT_METHODS)),
  createdAt: z.string(),
  ...ZMerchantEcho,
});
export type TMerchantPayment = z.infer<typeof ZMerchantPayment>;

export const ZMerchantPaymentResponse = z.object({
  success: z.literal(true),
  payment: ZMerchantPayment,
});
export type TMerchantPaymentResponse = z.infer<typeof ZMerchantPaymentResponse>;

/**
 * GET /api/v1/payments: the merchant's payments newest first, by status, method, creation time,
 * the consent's reference or the consent; cursor pages as GET /api/v1/consents.
 */
export const ZMerchantPaymentsQuery = z.object({
  status: z.optional(ZMerchantPayment.shape.status),
  method: z.optional(z.enum(PAYMENT_METHODS)),
  /** Created at or after this instant. */
  createdFrom: z.optional(ZIsoDateTime),
  /** Created before this instant. */
  createdTo: z.optional(ZIsoDateTime),
  /** Payments of the consent with this reference of the merchant's. */
  reference: z.optional(ZMerchantReference),
  consentId: z.optional(ZIdentifier),
  ...ZListPage,
});
export type TMerchantPaymentsQuery = z.infer<typeof ZMerchantPaymentsQuery>;

export const ZMerchantPaymentsResponse = z.object({
  success: z.literal(true),
  payments: z.array(ZMerchantPayment),
  /** The cursor of the next page; null on the last. */
  nextCursor: z.nullable(z.string()),
});
export type TMerchantPaymentsResponse = z.infer<typeof ZMerchantPaymentsResponse>;

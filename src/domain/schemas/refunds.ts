import { z } from 'zod/mini';
import { REFUND_CHANNELS } from '../refund-clocks';
import { REFUND_REASON_MAX, REFUND_STATES } from '../refunds';
import { ZInstitutionCode } from './account-link';
import { ZKobo } from './consent';
import { ZPrintable } from './fields';
import { ZAccountNumber } from './user-account';

/*
 * A merchant's refunds of a paid payment (docs/payments.md "Refunds"): what the merchant asks,
 * what the API answers and the payment's read lists, and what the payer sees on /consents.
 */

/**
 * The account a transfer is paid back to when its bank's notice named no sender: the payer's,
 * as they told the merchant (docs/payments.md "Refunds").
 */
export const ZRefundAccount = z.strictObject({
  institutionCode: ZInstitutionCode,
  accountNumber: ZAccountNumber,
});
export type TRefundAccount = z.infer<typeof ZRefundAccount>;

/** POST /api/v1/payments/{paymentId}/refunds body: no amount refunds what remains. */
export const ZRefundRequest = z.strictObject({
  amount: z.optional(ZKobo.check(z.gte(1, 'must be at least 1 kobo'))),
  reason: z.optional(ZPrintable(REFUND_REASON_MAX).check(z.minLength(1))),
  /** Only for a transfer whose notice named no sender (REFUND_SENDER_UNKNOWN without it). */
  refundTo: z.optional(ZRefundAccount),
});
export type TRefundRequestBody = z.infer<typeof ZRefundRequest>;

export const ZRefundStatus = z.enum(REFUND_STATES);

/** A refund as its merchant reads it. */
export const ZRefund = z.object({
  refundId: z.string(),
  paymentId: z.string(),
  /** Kobo given back (or being given back). */
  amount: ZKobo,
  reason: z.nullable(z.string()),
  /** pending: asked of the provider; processed: given back; failed: not given back. */
  status: ZRefundStatus,
  /** Why the provider refused it (status failed). */
  failureReason: z.nullable(z.string()),
  createdAt: z.string(),
  /** When it was processed or failed. */
  endedAt: z.nullable(z.string()),
});
export type TRefund = z.infer<typeof ZRefund>;

/** POST /api/v1/payments/{paymentId}/refunds answer: 201 ended (processed or failed), 202 pending. */
export const ZRefundResponse = z.object({ success: z.literal(true), refund: ZRefund });
export type TRefundResponse = z.infer<typeof ZRefundResponse>;

/** A refund of one of the payer's payments, as /consents and the SMS receipt's page show it. */
export const ZPayerRefund = z.object({
  refundId: z.string(),
  paymentId: z.string(),
  amount: ZKobo,
  status: ZRefundStatus,
  createdAt: z.string(),
  /**
   * A merchant's refund, or a reversal: money we give back ourselves (a debit a bank made after
   * its payment was cancelled, a charge that reached a payment paid another way). A reversal's
   * id is its collection's or attempt's.
   */
  kind: z.enum(['refund', 'reversal']),
  /** How it comes back: to the card, to the account a transfer came from, or the debited one. */
  channel: z.enum(REFUND_CHANNELS),
  /**
   * The Lagos date (YYYY-MM-DD) it should have reached the payer by (domain/refund-clocks.ts
   * refundExpectedBy, reversalExpectedBy); a refund's is null once it is no longer waited for
   * (refunded, or failed), a reversal's is kept.
   */
  expectedBy: z.nullable(z.string()),
});
export type TPayerRefund = z.infer<typeof ZPayerRefund>;

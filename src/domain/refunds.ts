/*
 * The life of a merchant's refund (docs/payments.md "Refunds"): one table of the moves a refund
 * may make, read by the server's one move function (services/payments/refunds.ts moveRefund), so
 * no service changes a refund's state by a rule of its own.
 */

export const REFUND_STATES = [
  /** Asked of the provider (or about to be): the amount is reserved on the payment. */
  'pending',
  /** The provider gave the money back to the payer: booked out of the merchant's wallet. */
  'processed',
  /** The provider refused it (or never received it): the reservation is released. */
  'failed',
] as const;

export type TRefundState = (typeof REFUND_STATES)[number];

/** Every move a refund may make: the states it leaves from and the one it reaches. */
export const REFUND_TRANSITIONS = {
  /** The provider says the money went back. */
  process: { from: ['pending'], to: 'processed' },
  /** The provider refused, or said it never received the refund. */
  fail: { from: ['pending'], to: 'failed' },
} as const satisfies Record<string, { from: readonly TRefundState[]; to: TRefundState }>;

export type TRefundEdge = keyof typeof REFUND_TRANSITIONS;

/** The longest reason a merchant may give a refund (kept, and sent to the provider). */
export const REFUND_REASON_MAX = 200;

/** How the payer reads a refund's state on /consents. */
export const REFUND_STATE_LABELS: Record<TRefundState, string> = {
  pending: 'Refund pending',
  processed: 'Refunded',
  failed: 'Refund failed',
};

/**
 * How the payer reads the state of money we give back ourselves (a reversal: a debit made after
 * its payment was cancelled, a charge that reached a payment paid another way).
 */
export const REVERSAL_STATE_LABELS: Record<TRefundState, string> = {
  pending: 'Being given back',
  processed: 'Given back',
  failed: 'Not given back',
};

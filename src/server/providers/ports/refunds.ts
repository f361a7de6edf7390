import type { TTransferSender } from './transfers-in';

/* The refunds port: money a payment took given back by the way it came. */

/** What became of a refund: a provider may answer at once or later (a notice, a requery). */
export type TRefundOutcome =
  | { kind: 'processed'; providerReference: string }
  | {
      kind: 'pending';
      providerReference: string | null;
      /**
       * 'account': the provider holds the refund until it is told the account to pay back
       * (Paystack's needs-attention); asked for again with its `sender`, it is told. null: on
       * its way.
       */
      awaiting: 'account' | null;
    }
  | { kind: 'failed'; providerReference: string | null; reason: string };

/**
 * Gives money a payment took back to whoever paid it, whole or in part: to the card, to the
 * debited account, or to the account a transfer came from. Safe to repeat for one `reference`.
 */
export type TRefundRequest = {
  /** Ours, one per refund. */
  reference: string;
  /** What the provider called the payment's charge, debit or transfer. */
  providerReference: string;
  channel: 'card' | 'debit' | 'transfer';
  /** Kobo; at most what the payment took, less what was refunded before. */
  amount: number;
  /**
   * For a transfer: the account the money goes back to: the one it came from, or, where its
   * notice named none, the one the merchant gave (the payer's, as they told the merchant).
   */
  sender: TTransferSender | null;
  reason: string | null;
  /**
   * When the refund was first asked for (its row's): asked again, the provider looks for the
   * earlier ask among the refunds made since then, never through all it ever made.
   */
  createdAt: Date;
};

/**
 * Refunds a merchant gives (docs/payments.md "Refunds"): the money goes back by the way it came,
 * whole or in part, with our refund's reference. A provider may answer at once or later (a
 * notice); a lost answer is asked about by that reference, never asked for again with another.
 */
export type TRefundsPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * Asks for a refund; asking again with the same `reference` answers the same refund (and tells
   * one awaiting its account the request's `sender`).
   */
  refund(request: TRefundRequest): Promise<TRefundOutcome>;
  /**
   * What became of the refund asked for with our `reference` ('failed' if it never arrived). The
   * caller says what it asked for and when, so the provider looks among that charge's refunds of
   * that time, never through all it ever made.
   */
  requeryRefund(request: TRefundRequery): Promise<TRefundOutcome>;
};

/**
 * A refund asked about: what it was asked for with and when (TRefundRequest's); the provider
 * made it then, or within that call's time.
 */
export type TRefundRequery = Pick<
  TRefundRequest,
  'reference' | 'providerReference' | 'channel' | 'createdAt'
>;

import type { TRequeryOutcome } from './common';

/* The payouts port: money sent out of our collection account, and its requery. */

/** Money sent out of our collection account, and its requery. */
export type TPayoutsPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * Sends money from our collection account to a bank account (a payer's release of what their
   * payment requests collected, docs/payments.md "Releasing"). Safe to repeat for one
   * `reference`: the bank answers what it did the first time and never credits twice.
   */
  payOut(request: TPayoutRequest): Promise<TPayoutOutcome>;
  /** What became of the payout sent with our `reference`. */
  requeryPayout(reference: string): Promise<TRequeryOutcome>;
};

/**
 * The payouts ports an adapter that pays money back by payout reaches (Remita's give-backs): new
 * work's, for a payout first sent now, and each provider's by name, for every later call about
 * one sent before (registry.ts: the row names its adapter).
 */
export type TPayoutsByProvider = {
  /** The first of the payouts list now; throws while payouts are off. */
  newWork(): TPayoutsPort;
  /** The payouts port of the provider named; throws ProviderNotConfigured when none runs. */
  named(provider: string): TPayoutsPort;
};

export type TPayoutRequest = {
  /** Ours, one per payout: a retried call with it is answered, never paid again. */
  reference: string;
  institutionCode: string;
  accountNumber: string;
  /** The holder's name as we know it; a bank may refuse a payout to another name. */
  accountName: string;
  amount: number;
  narration: string;
};

export type TPayoutOutcome =
  | { kind: 'succeeded'; providerReference: string }
  | {
      kind: 'failed';
      providerReference: string | null;
      /** 'expired': the reference was asked about (a requery) before the payout arrived. */
      reason: 'account_not_found' | 'expired';
    };

import type { TPaymentRequestOutcome } from './acquirer';
import type { TCardSummary } from './cards';
import type { TRequeryOutcome } from './common';
import type { TRefundOutcome } from './refunds';
import type { TTransferSender } from './transfers-in';

/* The notices port: what a provider tells us on its own, verified and read by its adapter. */

/** A provider's notices (POST /api/providers/{name}/notices), verified and read by its adapter. */
export type TNoticesPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * Verifies a notice (its signature over the raw body, with the provider's secret) and reads it:
   * null when it fails verification (a missing or wrong signature, a body it cannot read), which
   * changes nothing. Async: the key may live in a store.
   */
  readNotice(notice: TRawNotice): Promise<TProviderNotice | null>;
};

/*
 * What a provider tells us on its own (a notice: a transfer arrived, a charge completed, a refund
 * or a payout ended) comes in through POST /api/providers/{name}/notices, as the raw bytes it
 * sent: the adapter verifies them (its signature is over those bytes, never over re-serialised
 * JSON) and reads them into one of these. Each feeds the one completion path a requery feeds.
 */

/** A notice as it reached us: the body's bytes and the request's headers (names in lower case). */
export type TRawNotice = {
  body: Buffer;
  headers: Readonly<Record<string, string | string[] | undefined>>;
};

/**
 * A charge's end as a notice tells it: a requery's answer, with the card and the token that
 * charges it again where the provider's notice names them (a card being linked is saved by it).
 */
export type TNoticedCharge = TRequeryOutcome<{ card?: TCardSummary; token?: string | null }>;

/** What a verified notice says, in the port's words. */
export type TProviderNotice =
  /**
   * Money reached the one-time account opened for our `reference` (TTransfersInPort): `amount` in
   * the minor unit of `currency` (ISO 4217), as the provider says; only naira is ours to take.
   */
  | {
      kind: 'transfer_received';
      reference: string;
      amount: number;
      currency: string;
      sender: TTransferSender | null;
      providerReference: string;
    }
  /**
   * A charge or a debit made with our `reference` ended (or still waits), as a requery would say,
   * in `currency` (ISO 4217): money taken in another currency than the naira pays no payment.
   */
  | {
      kind: 'charge';
      channel: 'card' | 'debit';
      reference: string;
      currency: string;
      outcome: TNoticedCharge;
    }
  /**
   * Refunds asked for with our references, each as the provider's record of it stands: a
   * provider whose notice names the refunded charge and not the refund tells of every refund of
   * ours of that charge, so two refunds alike are each ended by their own record.
   */
  | {
      kind: 'refunds';
      refunds: ReadonlyArray<{ reference: string; outcome: TRefundOutcome }>;
    }
  /** A payout sent with our `reference` ended; 'reversed' came back after a success. */
  | {
      kind: 'payout';
      reference: string;
      outcome: 'succeeded' | 'failed' | 'reversed';
      providerReference: string | null;
    }
  /**
   * A payment request pushed to a terminal (TPushTerminalPort) ended, or still waits: named by
   * the provider's reference the push answered and by ours where the request carries it (a push
   * whose answer was lost never kept the provider's), in `currency`, as a requery would say.
   */
  | {
      kind: 'terminal_request';
      providerReference: string;
      reference: string | null;
      currency: string;
      outcome: TPaymentRequestOutcome;
    }
  /** A payer approved a debit mandate at their bank's page (TDebitMandates 'bank_page'). */
  | { kind: 'debit_mandate'; providerReference: string; authorization: string }
  /**
   * The one-time account opened for our `reference` was closed before its time (the sandbox's
   * 'Expire this account now'): it takes no more money, and what waited on it ends expired.
   */
  | { kind: 'transfer_account_expired'; reference: string }
  /**
   * Whether an account the payer named is held under their BVN (checkAccountHolder 'pending'):
   * the account as the provider shows it, its number masked but for its first and last digits.
   */
  | {
      kind: 'account_holder';
      payerId: string;
      institutionCode: string;
      accountNumberMask: string;
      matches: boolean;
    }
  /** Verified, and about nothing we act on (another event type): acknowledged, changes nothing. */
  | { kind: 'ignored'; event: string };

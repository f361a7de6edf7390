import type { TRequeryOutcome } from './common';

/* The debits port: direct debits on a mandate, their requery, cancellation and reversal. */

/**
 * A debit mandate the payer approves at their bank's page (Paystack's direct debit): opened for
 * one account, then active once the bank confirms it, with the authorisation debits run on.
 */
export type TBankMandateStatus =
  | { kind: 'pending' }
  | {
      kind: 'active';
      /** What the provider debits the account by (TAccountDebitRequest.mandateReference). */
      authorization: string;
    };

/**
 * How a payer authorises this provider's direct debits on an account of a bank that offers them
 * (the transaction service): a test transfer from the account (the sandbox's banks, the link's
 * own id is the mandate), or their approval at the bank's page.
 */
export type TDebitMandates =
  | { kind: 'test_transfer' }
  | {
      kind: 'bank_page';
      /**
       * Opens the mandate for the payer's account: where the payer approves it, and the
       * provider's reference for it (what its notice names and `status` asks about).
       */
      open(request: {
        payerId: string;
        institutionCode: string;
        accountNumber: string;
        /** Where the bank's page sends the payer back once they answered. */
        returnUrl: string;
      }): Promise<{ providerReference: string; formUrl: string }>;
      /** Where the mandate stands (the requery of a notice that did not come). */
      status(providerReference: string): Promise<TBankMandateStatus>;
    };

/** Direct debits on a mandate, their requery and reversal. */
export type TDebitsPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /** How a mandate for these debits is authorised. */
  readonly debitMandates: TDebitMandates;
  /**
   * Debits a linked account on its mandate (a saved-account payment, a future payment falling
   * due). Safe to repeat for one `reference`: the bank answers what it did the first time and
   * never debits twice.
   */
  debitAccount(request: TAccountDebitRequest): Promise<TAccountDebitOutcome>;
  /**
   * What became of the debit made with our `reference`; `mandateReference` is the debit's
   * mandate, for a provider that finds a debit only under its mandate (Remita).
   */
  requeryDebit(reference: string, mandateReference?: string): Promise<TRequeryOutcome>;
  /**
   * Gives a succeeded debit back to the account, whole. Safe to repeat for one `reference`.
   * `account` is the debited account, for a provider that cannot reverse a debit and sends the
   * money back by a payout instead (Remita): it answers that payout's reference, what the payouts
   * capability's record names it by.
   */
  reverseDebit(request: {
    providerReference: string;
    reference: string;
    account?: { institutionCode: string; accountNumber: string; accountName: string };
  }): Promise<{ reversed: true; payoutReference?: string }>;
  /**
   * Cancels the debit made with our `reference` while it is still pending at the bank, where the
   * provider allows it (Remita's payment/stop), and answers what became of it: not_taken
   * (cancelled, refused, or never arrived: nothing will be taken), taken (the bank debited it
   * first), or pending (not cancelled yet: asked again later). `providerReference` is its pending
   * answer's (what a cancellation names), null when none came; `mandateReference` as for
   * requeryDebit. A provider whose debits never wait at the bank answers its requery.
   */
  cancelDebit(request: {
    reference: string;
    mandateReference: string;
    providerReference: string | null;
  }): Promise<TRequeryOutcome>;
};

export type TAccountDebitRequest = {
  /** Ours, one per debit: a retried call with it is answered, never debited again. */
  reference: string;
  /**
   * The mandate on the account: the account link that activated it, or the authorisation the
   * provider gave for it (TBankMandateStatus).
   */
  mandateReference: string;
  /** The payer whose account it is (a provider that keeps one customer per payer needs it). */
  payerId: string;
  institutionCode: string;
  accountNumber: string;
  amount: number;
  narration: string;
};

/** Why a debit failed, for our records and the merchant; the payer reads the catalogue's text. */
export type TDebitFailureReason =
  | 'insufficient_funds'
  | 'account_not_found'
  /** The reference was asked about (a requery) before the debit arrived: closed. */
  | 'expired';

export type TAccountDebitOutcome =
  | { kind: 'succeeded'; providerReference: string }
  | { kind: 'failed'; providerReference: string | null; reason: TDebitFailureReason }
  /**
   * The bank took the instruction and has not debited yet (Remita's 'awaiting debit'): its fate
   * is unknown, so it is asked about again by `reference`, never sent again, and cancelled
   * (cancelDebit) once it has waited `pendingAtMostMs`, how long the provider says a debit may take.
   */
  | { kind: 'pending'; providerReference: string; pendingAtMostMs: number };

/* The transfers-in port: one-time accounts that take one transfer each. */

/** One-time accounts that take one transfer each (pay by transfer, a link's test transfer). */
export type TTransfersInPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * Opens a one-time account that takes one transfer of exactly `amount` for our `reference`
   * until it expires: after the provider's own lifetime, or `notAfter` when that comes first
   * (the consent's expiry); `expiresAt` says which. The provider tells us when money arrives
   * (for the sandbox: sandbox/sandbox-transfers.ts) and returns to its sender what we do not take
   * (TTransferNoticeAnswer): another amount, a late or a second transfer.
   */
  openTransferAccount(request: {
    reference: string;
    amount: number;
    /** The name the payer's bank shows for the account, e.g. 'Tola Stores / Oya Money'. */
    accountName: string;
    /** The account takes no money from this moment on, if it comes before its own expiry. */
    notAfter?: Date;
  }): Promise<TTransferAccount>;
  /**
   * Gives money a notice told us of and we did not take back to whoever sent it (the notice was
   * answered with a reason: TTransferNoticeAnswer): a transfer to its sender, or a charge taken
   * in a currency other than the naira to its payer (only a provider whose notices tell of
   * charges sends those). Safe to repeat for one `providerReference`: the money goes back once.
   */
  returnTransfer(request: {
    /** Ours: the one-time account's reference the transfer reached, or the charge's attempt. */
    reference: string;
    /** The provider's, from its notice of the money. */
    providerReference: string;
    /** In the minor unit of `currency`, as the notice said. */
    amount: number;
    /** ISO 4217, as the notice said. */
    currency: string;
    reason: TTransferReturnReason;
  }): Promise<{ returned: true }>;
};

/** A one-time account (spec §3 Transfer details, less the amount). */
export type TTransferAccount = {
  bankName: string;
  accountNumber: string;
  accountName: string;
  expiresAt: Date;
};

/**
 * The account a transfer came from, as the provider's notice of it names it (a NIP notice carries
 * the sender's account number, name and bank).
 */
export type TTransferSender = {
  institutionCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
};

/**
 * Why we do not take money a provider told us reached a one-time account: the provider returns it
 * to its sender with this reason. `wrong_amount` includes money in another currency than the
 * naira (it is not the amount asked for). `not_from_account`: a link's test transfer that did not
 * come from the account being linked (docs/accounts.md "The test transfer and its refund").
 */
export type TTransferReturnReason =
  'expired' | 'already_paid' | 'wrong_amount' | 'not_from_account';

/** Our answer to the provider's notice of a transfer: taken, or returned to its sender and why. */
export type TTransferNoticeAnswer =
  { taken: true } | { taken: false; reason: TTransferReturnReason };

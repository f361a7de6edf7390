import type { TCardBrand } from '../../domain/card-brand';
import { CAPABILITIES } from '../../domain/capabilities';
import type { TAuthParam, TMandateEnd } from '../../domain/schemas/account-link';
import type { TAccountIntegrations } from '../../domain/schemas/user-account';
import type { TMandateTerms } from '../../domain/mandate-terms';

/*
 * The PaymentProvider port (ARCHITECTURE.md "Money movement: the provider port"): everything a
 * bank or a card network does for us, as a record of capabilities (TPaymentProviders), each
 * from one adapter chosen at start-up from PAYMENT_PROVIDER (context.ts); the sandbox network is
 * the default. Every adapter passes the contract suites of the capabilities it offers
 * (contract/, payments.contract.ts for the whole port).
 *
 * The port grows flow by flow: card charges (PIN, OTP, 3-D Secure, the ways a charge fails),
 * refunds, one-time accounts for transfers, name enquiry, mandates and direct debits on them,
 * and the card terminal's acquirer (reader keys, chip purchases and their reversal).
 *
 * What crosses it: card details in the clear, in memory only, for the one call that needs them
 * (never stored, never logged: the adapter keeps none of them either); amounts in integer kobo;
 * our reference for the attempt, which a provider echoes and which makes a retried call safe.
 *
 * Every call that moves money carries our reference, and each kind of it can be asked about by
 * that reference (a requery: debited or not) when its answer was lost (a timeout, a crash): the
 * reconciler asks before anything may charge the payment again (docs/payments.md
 * "Reconciliation"). A requery's 'not_taken' is final: the provider closes the reference, and a
 * late call with it is refused.
 */

/**
 * What a provider says became of the call made with our reference: the money taken (with its
 * amount, and whether it was given back since), never taken (refused, or never arrived: the
 * reference is closed), or still pending (the payer or the issuer has not answered yet).
 */
export type TRequeryOutcome<TTaken = object> =
  | ({
      kind: 'taken';
      providerReference: string;
      amount: number;
      /** Given back whole since (a refund, a reversal). */
      givenBack: boolean;
    } & TTaken)
  | { kind: 'not_taken'; providerReference: string | null; reason: string }
  | {
      kind: 'pending';
      /** What the charge waits for from the payer; null while the provider itself thinks. */
      awaiting: 'pin' | 'otp' | '3ds' | null;
      /** The provider's reference of the call, where it gave one (what the payer's step needs). */
      providerReference: string | null;
    };

/**
 * The money channels a provider keeps a record of, by our reference; 'refund': money it gave
 * back by a refund asked for with our reference (TRefundsPort).
 */
export type TSettlementChannel = 'card' | 'chip' | 'debit' | 'payout' | 'refund';

/** One call that took money, as the provider's record (its settlement report) holds it. */
export type TSettlementLine = {
  channel: TSettlementChannel;
  reference: string;
  amount: number;
  /** Given back whole since: it nets to nothing. */
  givenBack: boolean;
};

/**
 * A card as the payer typed it, decrypted for one call: digits, 'MM/YY', CVV, and its PIN where
 * the payer gave one with the card; null: the charge asks for it if the card needs one
 * ('pin_required').
 */
export type TPlainCard = {
  number: string;
  expiry: string;
  cvv: string;
  pin: string | null;
};

/** What may be kept of a card: its brand and the digits every receipt shows. */
export type TCardSummary = { brand: TCardBrand; first6: string; last4: string };

/** Why a charge failed, for our records and the merchant; the payer reads the catalogue's text. */
export type TCardFailureReason =
  | 'declined'
  | 'insufficient_funds'
  | 'invalid_card'
  | 'incorrect_pin'
  | 'incorrect_otp'
  | 'three_ds_declined'
  | 'timeout'
  /** The reference was asked about (a requery) before the charge arrived: closed. */
  | 'expired';

/** Where a charge stands after a call to the provider. */
export type TCardChargeOutcome =
  | {
      kind: 'succeeded';
      providerReference: string;
      card: TCardSummary;
      /**
       * What charges this card again without its details (a saved card, spec §3
       * integrations.card.token); null when the issuer does not allow it. Kept only for a card
       * the payer asked to save.
       */
      token: string | null;
    }
  /** The issuer asks for the card's PIN, given with submitCardPin (a card charged without one). */
  | { kind: 'pin_required'; providerReference: string; card: TCardSummary }
  | {
      kind: 'otp_required';
      providerReference: string;
      card: TCardSummary;
      /** The issuer's words, e.g. 'Enter the OTP sent to 0803***1234'. */
      displayMessage: string;
    }
  | {
      kind: 'three_ds_required';
      providerReference: string;
      card: TCardSummary;
      /** The issuer's challenge page, opened by the payer's browser. */
      challengeUrl: string;
      displayMessage: string;
    }
  | {
      kind: 'failed';
      /** null when the provider never took the charge (an invalid card, no answer). */
      providerReference: string | null;
      card: TCardSummary | null;
      reason: TCardFailureReason;
    };

export type TCardChargeRequest = {
  /**
   * Ours: one per attempt, sent so a provider that deduplicates can. Our attempt's state, changed
   * atomically, is what keeps a charge from being taken twice (docs/payments.md).
   */
  reference: string;
  amount: number;
  narration: string;
  card: TPlainCard;
};

/** Card charges (PIN, OTP, 3-D Secure), their requery and refund, and which account a card draws on. */
export type TCardsPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * Charges a card: succeeded, or the step the issuer asks the payer for (its PIN, when none
   * came with the card; an OTP; 3-D Secure), or failed.
   */
  chargeCard(request: TCardChargeRequest): Promise<TCardChargeOutcome>;
  /**
   * Goes on with a charge that asked for the card's PIN. A wrong PIN fails the charge. `card` is
   * the card again as the payer sent it with its PIN, in memory for this one call: a provider
   * whose charge carries the PIN (Monnify) charges it now; the others have the charge waiting.
   */
  submitCardPin(request: {
    providerReference: string;
    pin: string;
    card?: TPlainCard;
  }): Promise<TCardChargeOutcome>;
  /** Completes a charge that asked for an OTP. A wrong OTP fails the charge. */
  submitCardOtp(request: { providerReference: string; otp: string }): Promise<TCardChargeOutcome>;
  /** What became of the charge made with our `reference` (and its OTP or 3-D Secure step). */
  requeryCardCharge(reference: string): Promise<TRequeryOutcome<{ card: TCardSummary }>>;
  /** Gives a succeeded charge back to the card, whole. Safe to repeat for one `reference`. */
  refundCard(request: {
    providerReference: string;
    amount: number;
    reference: string;
  }): Promise<{ refunded: true }>;
  /**
   * Whether a card draws on this bank account, as the card's issuer says: a card links only the
   * account it is issued on (docs/accounts.md "Linking by card"). The card is its number, in
   * memory for this one call, or the token of a card kept after a payment.
   */
  isCardOnAccount(request: {
    card: { number: string } | { token: string };
    institutionCode: string;
    accountNumber: string;
  }): Promise<boolean>;
};

/** The banks a name enquiry reaches, and the enquiry itself (the holder's name and BVN). */
export type TBanksPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /** A bank by CBN institution code, with the ways it lets an account be linked; null if unknown. */
  lookupBank(institutionCode: string): Promise<TBank | null>;
  /** Every bank a name enquiry can be sent to (an account search asks those whose check digit fits). */
  listBanks(): Promise<readonly TBank[]>;
  /**
   * Asks a bank whose account a number is (NIBSS-style name enquiry): the holder's name, the
   * enquiry's reference and how this account can be linked; null when the bank has no such
   * account.
   */
  nameEnquiry(request: { institutionCode: string; accountNumber: string }): Promise<{
    accountName: string;
    nameEnquiryId: string;
    integrations: readonly TBankIntegration[];
    /** The holder's BVN as the bank holds it (NIP name enquiry answers it); null when it gave none. */
    bvn: string | null;
  } | null>;
  /**
   * Whether the account is held under the payer's BVN, for a provider whose name enquiry answers
   * no BVN (Paystack's customer validation). The BVN is in memory for this one call.
   */
  checkAccountHolder(request: {
    payerId: string;
    bvn: string;
    fullName: string;
    institutionCode: string;
    accountNumber: string;
  }): Promise<TAccountHolderAnswer>;
};

/**
 * Whether an account is held under a BVN: the provider answers at once, or later by its notice
 * (TProviderNotice 'account_holder').
 */
export type TAccountHolderAnswer = 'matches' | 'differs' | 'pending';

/** A way the BVN registry can send a BVN's holder a code, with its hint of where ('0803***4567'). */
export type TBvnCodeMethod = { id: string; hint: string };

/** A bank account by its bank (CBN institution code) and NUBAN. */
export type TAccountAtBank = { institutionCode: string; accountNumber: string };

/** How a verification ended at the registry. */
export type TBvnVerificationEnd =
  /**
   * The code was right: the BVN the registry proved, its holder, and the accounts it holds under
   * the BVN (null when this registry's consent gives none: Mono's `identity` scope).
   */
  | {
      outcome: 'verified';
      bvn: string;
      holder: TBvnHolder;
      accounts: readonly TAccountAtBank[] | null;
    }
  /** Not the code sent: the session may be tried again. */
  | { outcome: 'wrong_code' }
  /** The session ended (its time, or its tries, ran out): a new verification is needed. */
  | { outcome: 'expired' };

/**
 * The BVN registry (docs/identity.md "The BVN"): the registry itself proves a BVN is the payer's
 * by a code it sends to a contact of the BVN's holder, as NIBSS's iGree consent does, then says
 * who the holder is; and it says whose BVN an account is held under. Every call may be billed
 * (Mono bills each, failed ones too): the services call it only for what the payer asked.
 */
export type TBvnRegistryPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /** Who delivers the code, as the payer is told: NIBSS (iGree), or the sandbox's SMS outbox. */
  readonly codeSender: 'nibss' | 'sandbox';
  /**
   * Whether `accountOwner` is the word on whose account it is, asked for every account a payer
   * links (Mono: NIBSS's record, billed per lookup); else the payment provider's name enquiry
   * stands (the sandbox's registry answers what its banks' name enquiry does).
   */
  readonly decidesOwners: boolean;
  /**
   * Opens a verification of `bvn`: the registry's session and the ways it can send the holder a
   * code, with its masked hints; null when the registry holds no such BVN.
   */
  startVerification(bvn: string): Promise<{ session: string; methods: TBvnCodeMethod[] } | null>;
  /** Has the registry send the code by `method` (one of the session's); again for a resend. */
  sendCode(session: string, method: string): Promise<'sent' | 'expired'>;
  /** Gives the registry the code the holder received. */
  finishVerification(session: string, code: string): Promise<TBvnVerificationEnd>;
  /**
   * The BVN an account is held under (account-number lookup); null when the bank has no such
   * account. `beforeBilledCall` runs right before a call the registry bills (the payer's and the
   * address's limits, 429 past them): one refused without a call (a bank it cannot name,
   * ACCOUNT_NOT_SUPPORTED) counts nothing.
   */
  accountOwner(
    account: TAccountAtBank,
    beforeBilledCall?: () => Promise<void>,
  ): Promise<string | null>;
};

/** The ways a bank mandates an account besides the payer's own debit authorisation: the alternate service's auth parameters and the signed paper mandate. */
export type TMandateSetupPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * Opens a mandate on an account with the alternate service (Remita-style): the bank's
   * reference for it and the details the payer must give to authorise it. Asking again for the
   * same `reference` answers the same. null when the service cannot mandate this account.
   */
  requestAltMandate(request: {
    reference: string;
    institutionCode: string;
    accountNumber: string;
    /**
     * Whose mandate it is and what it allows: a provider that keeps its own mandates
     * (TOwnMandates) names the payer on it and sets it up with the terms of the consent it
     * serves, and refuses to set one up without them.
     */
    payer?: TMandatePayer;
    terms?: TMandateTerms;
  }): Promise<(TAltMandate & { providerReference?: string }) | null>;
  /**
   * Checks the payer's answers to an alternate-service mandate's auth parameters. Safe to repeat
   * after an answer was lost: the mandate found active answers verified, whatever the answers
   * (a code the lost call used up reads as wrong at the provider).
   */
  verifyAltMandate(request: {
    remitaTransRef: string;
    /** Ours, as the mandate was requested with it, and the provider's, where it set one up. */
    reference: string;
    providerReference: string | null;
    institutionCode: string;
    accountNumber: string;
    /** One answer per parameter name (param1 or param2 of an auth parameter pair). */
    answers: ReadonlyArray<{ param: string; value: string }>;
  }): Promise<{ verified: boolean }>;
  /**
   * Whether the alternate-service mandate is active (the provider's mandate status), asked
   * instead of sending the payer's answers again after the answer to them was lost: the lost
   * call may have used the bank's one-time code up. Throws when the provider does not answer.
   */
  altMandateActive(request: {
    reference: string;
    providerReference: string | null;
  }): Promise<boolean>;
  /** Where the bank stands on a signed paper mandate we issued at `issuedAt`. */
  paperMandateStatus(request: {
    reference: string;
    issuedAt: Date;
    /** The provider's own reference of the mandate, where it set one up (TOwnMandates). */
    providerReference?: string | null;
  }): Promise<'pending' | 'approved'>;
  /**
   * Present where the provider keeps the mandates it sets up and debits them itself (Remita):
   * then its alternate-service answer names its mandate (`providerReference`), a bank it cannot
   * activate by OTP has the mandate on the provider's own printable form, and the debits on those
   * mandates go to it, whatever adapter serves the debits capability.
   */
  readonly own?: TOwnMandates;
};

/** The payer a provider's mandate names (Remita's setup asks their name, email and phone). */
export type TMandatePayer = { id: string; fullName: string; phoneNumber: string };

/** Mandates a provider holds itself (TMandateSetupPort.own): paper, stop, and their debits. */
export type TOwnMandates = {
  /** Whether it mandates accounts of this bank (the banks it lists). */
  mandatesBank(institutionCode: string): boolean;
  /**
   * Sets up a mandate the payer's bank activates at its branch, on the provider's printable form:
   * the provider's reference of the mandate and where the form is. Safe to repeat for one
   * `reference`.
   */
  openPaperMandate(request: {
    reference: string;
    institutionCode: string;
    accountNumber: string;
    payer: TMandatePayer;
    terms: TMandateTerms;
  }): Promise<{ providerReference: string; formUrl: string }>;
  /**
   * Stops a mandate for good: nothing is debited on it again. `reference` is the one it was set
   * up with. Safe to repeat. Answers how the mandate ended, as the provider holds it; throws when
   * it did not answer, or holds the mandate still active, or knows none by this reference.
   */
  stopMandate(request: { providerReference: string; reference: string }): Promise<TMandateEnd>;
  /** The debits on its own mandates (mandateReference: its reference of the mandate). */
  debits: TDebitsPort;
};

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

/**
 * The chip terminal, of one of two kinds: a card reader whose chip data and PIN block we send to
 * an acquirer (the spec's Bluetooth reader, served by the sandbox), or a certified terminal its
 * provider drives, to which we push a payment request (Paystack Terminal): the payer inserts or
 * taps there, and the provider tells us by its notice (docs/providers/paystack-terminal.md).
 */
export type TAcquirerPort = TReaderAcquirerPort | TPushTerminalPort;

/** The card terminal's acquirer: reader keys, chip purchases, their requery and reversal. */
export type TReaderAcquirerPort = {
  readonly kind: 'reader';
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /** A card reader the acquirer registered, by its serial (spec §7 fetch-keys); null if unknown. */
  terminalFetchKeys(serial: string): Promise<TTerminalReader | null>;
  /**
   * Sends a chip purchase read by a card reader to the acquirer (spec §7 chip-purchase): the
   * issuer checks the card's cryptogram and PIN and approves or declines. Safe to repeat for one
   * `reference`: the answer is the same and the card is charged once.
   */
  terminalChipPurchase(request: TChipPurchase): Promise<TChipPurchaseOutcome>;
  /** What became of the chip purchase sent with our `reference`. */
  requeryChipPurchase(reference: string): Promise<TRequeryOutcome<{ authCode: string }>>;
  /** Gives an approved chip purchase back to the card, whole. Safe to repeat. */
  terminalReverse(request: {
    providerReference: string;
    amount: number;
    reference: string;
  }): Promise<{ reversed: true }>;
};

/** Whether a pushed terminal can take a payment request now, as its provider says. */
export type TTerminalPresence =
  /** On, connected and free: a payment request sent now is shown to the payer. */
  | 'ready'
  /** On and connected, busy with another payment. */
  | 'busy'
  /** Not connected: a payment request would wait unseen. */
  | 'offline'
  /** The provider knows no such terminal on this account. */
  | 'unknown';

/**
 * A certified terminal its provider drives (Paystack Terminal's push payment requests): we ask
 * whether it is there, push a payment request for our reference, and ask what became of it. The
 * payer's card never reaches us; the provider's notice, or our requery, says it was paid.
 */
export type TPushTerminalPort = {
  readonly kind: 'push';
  /** The adapter offering it: the provider's name, e.g. 'paystack-terminal'. */
  readonly provider: string;
  /** Whether the terminal (the provider's id of it) can take a payment request now. */
  terminalPresence(terminalId: string): Promise<TTerminalPresence>;
  /**
   * Creates the payment request for our `reference` and shows it on the terminal. Safe to repeat
   * for one reference (a lost answer, a retried job): one payment request per reference, shown
   * again. `createdAt` bounds where a request made before is looked for. Refused: the provider
   * said no to the request, or the terminal could not be sent it; nothing can be paid by it.
   * Thrown: the answer was lost, and the request may be on the terminal.
   */
  pushPaymentRequest(request: TTerminalPush): Promise<TTerminalPushAnswer>;
  /**
   * What became of the payment request of our `reference` (its provider's reference where the
   * push answered one): paid ('taken', with the transaction it produced), refused at the
   * terminal ('not_taken'), or still waiting.
   */
  requeryPaymentRequest(request: TPaymentRequestAsked): Promise<TPaymentRequestOutcome>;
  /**
   * Withdraws the payment request of our `reference` at its provider, so that no card pays it
   * any more, and answers what became of it: 'not_taken' once withdrawn (WITHDRAWN_REASON) or
   * never made (no provider reference), or what
   * it ended with first (paid, refused at the terminal). Safe to repeat. Thrown: the provider did
   * not withdraw it (no answer, or a refusal): it may still be paid at the terminal.
   */
  withdrawPaymentRequest(request: TPaymentRequestAsked): Promise<TPaymentRequestOutcome>;
  /**
   * Gives back `amount` of what a paid payment request took, by a refund of the transaction it
   * produced (`transaction`), once for our `reference`. Thrown: refused, or no answer.
   */
  givePaymentBack(request: {
    transaction: string;
    amount: number;
    reference: string;
  }): Promise<void>;
};

/** Why a withdrawal answers 'not_taken': the request was taken back unpaid. */
export const WITHDRAWN_REASON = 'withdrawn';

/** A payment request asked about: ours, the provider's code where the push answered one. */
export type TPaymentRequestAsked = {
  reference: string;
  providerReference: string | null;
  createdAt: Date;
};

/**
 * What became of a payment request, as a requery says: once paid, with the provider's reference
 * of the transaction the payment produced (not the request's): what a refund of it names.
 */
export type TPaymentRequestOutcome = TRequeryOutcome<{
  card: TCardSummary | null;
  transaction: string;
}>;

/** What the provider answered a push. */
export type TTerminalPushAnswer =
  | { kind: 'pushed'; providerReference: string }
  /** `at`: the request was refused, or made and not shown on the terminal (not reachable). */
  | { kind: 'refused'; at: 'request' | 'terminal'; reason: string };

/** A payment request pushed to a terminal. */
export type TTerminalPush = {
  /** Ours: the attempt's id. */
  reference: string;
  /** The provider's id of the terminal, as the merchant registered it. */
  terminalId: string;
  amount: number;
  /** What the terminal shows the payer, e.g. 'Tola Stores'. */
  description: string;
  createdAt: Date;
};

/** The provider's settlement report: every call that took money, by our reference. */
export type TSettlementPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * The provider's record of every call that took money, by our reference (a settlement
   * report): what `npm run ledger:check` compares the books with. Given a period, the calls made
   * within it at least (a provider that cannot narrow its record answers all of it).
   */
  settlementReport(period?: TSettlementPeriod): Promise<readonly TSettlementLine[]>;
};

/** A time a settlement report covers, both ends included. */
export type TSettlementPeriod = { from: Date; to: Date };

/**
 * The whole port as the services see it: a record of capabilities, each from the adapter the
 * composition root chose for it (context.ts), each naming that adapter (`provider`).
 */
export type TPaymentProviders = {
  cards: TCardsPort;
  banks: TBanksPort;
  bvn: TBvnRegistryPort;
  mandates: TMandateSetupPort;
  debits: TDebitsPort;
  payouts: TPayoutsPort;
  refunds: TRefundsPort;
  transfersIn: TTransfersInPort;
  notices: TNoticesPort;
  acquirer: TAcquirerPort;
  settlement: TSettlementPort;
};

/**
 * The capabilities of the port, by name: what an adapter offers and a configuration needs. The
 * domain lists them (with SMS, which is a port of its own); every key of the port is one of them.
 */
export const PROVIDER_CAPABILITIES = CAPABILITIES.filter(
  (capability): capability is keyof TPaymentProviders => capability !== 'sms',
);

export type TProviderCapability = keyof TPaymentProviders;

/** A BVN's registration: its holder, date of birth (YYYY-MM-DD) and registered phone (E.164). */
export type TBvnRecord = { fullName: string; dateOfBirth: string; phoneNumber: string };

/** A BVN's holder as the registry names them once the code proved the BVN: name and birth date. */
export type TBvnHolder = Pick<TBvnRecord, 'fullName' | 'dateOfBirth'>;

/** A registered card reader: its terminal and merchant ids at the acquirer. */
export type TTerminalReader = { serial: string; tid: string; mid: string };

/**
 * A chip purchase as the reader read it (docs/terminal.md), in memory for this one call: the
 * card number, track 2 and the encrypted PIN block are never stored or logged.
 */
export type TChipPurchase = {
  /** Ours, one per attempt. */
  reference: string;
  rrn: string;
  transDatetime: string;
  serial: string;
  tid: string;
  mid: string;
  /** Kobo, as 9F02 holds it. */
  amount: number;
  pan: string;
  track2: string;
  /** YYMM. */
  expiry: string;
  /** ISO 9564 format 0, encrypted under the reader's PIN key (hex). */
  pinBlock: string;
  /** BER-TLV hex. */
  iccData: string;
};

/** Why the acquirer or the issuer refused a chip purchase (ISO 8583 response codes). */
export type TChipDeclineReason =
  /** 51 */
  | 'insufficient_funds'
  /** 55 */
  | 'incorrect_pin'
  /** 05 (do not honour: the card, its cryptogram or the issuer refused), 14, 54 */
  | 'declined'
  /** 30: the message could not be read (a PIN block under another key, malformed chip data). */
  | 'format_error'
  /** 68: the reference was asked about (a requery) before the purchase arrived: closed. */
  | 'expired'
  /** 13: the amount disagrees with the chip's. */
  | 'invalid_amount'
  /** 03: the terminal is not the acquirer's, or not with this merchant id. */
  | 'invalid_terminal';

export type TChipPurchaseOutcome =
  | { kind: 'approved'; responseCode: '00'; authCode: string; providerReference: string }
  | {
      kind: 'declined';
      responseCode: string;
      reason: TChipDeclineReason;
      /** null when the acquirer never took the purchase (it could not read or place it). */
      providerReference: string | null;
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

/** An alternate-service mandate waiting for its auth parameters (spec §3 Account link response). */
export type TAltMandate = {
  remitaTransRef: string;
  requestId: string;
  remitaLogoUrl: string | null;
  authParams: TAuthParam[];
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

/** A way to link an account that a bank offers (spec §3 User account.integrations). */
export type TBankIntegration = keyof TAccountIntegrations;

export type TBank = {
  institutionCode: string;
  name: string;
  integrations: readonly TBankIntegration[];
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

import type { TCardSummary } from './cards';
import type { TRequeryOutcome } from './common';

/* The acquirer port: the chip terminal, a card reader's acquirer or a pushed terminal. */

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

/*
 * The life of a payment attempt (docs/payments.md "States"): one table of the moves an attempt
 * may make, read by the server's one move function (services/payments/attempts/moves.ts) and by
 * the payment read, so no service changes an attempt's state by a rule of its own.
 *
 * The database keeps an attempt as a status (spec §4: pending, in_progress, completed, failed)
 * and, while it is open, a stage (where it waits). Those pairs are named here as states, since
 * the pair is what a move checks and sets: a one-time account opened and not yet said to be paid
 * ('transfer_open') and one the payer said they paid into ('transfer_claimed') share the stage
 * 'awaiting_transfer' and differ by status. The page sees both as 'awaiting_transfer'
 * (pageStateOf).
 */

/**
 * What an attempt's charge is for: a payment (its payment and consent named on it), or a card
 * link's test charge (spec §9: ₦1.00–₦10.00, given back at once; docs/accounts.md "Linking by
 * card"), whose link it names. Both move along the one table below; a link's test charge never
 * waits for a PIN (its form sends the PIN with the card), never fails over, and, taken, is
 * always owed back (the give-back below) rather than paying anything.
 */
export const ATTEMPT_PURPOSES = ['payment', 'link_test'] as const;

export type TAttemptPurpose = (typeof ATTEMPT_PURPOSES)[number];

export const ATTEMPT_STATES = {
  /** A one-time account is open; the payer has not said they sent money. */
  transfer_open: { status: 'pending', stage: 'awaiting_transfer' },
  /** 'I have made the transfer': 'Waiting for transfer confirmation...'. */
  transfer_claimed: { status: 'in_progress', stage: 'awaiting_transfer' },
  /** The provider has the call (a charge, a debit, a chip purchase) and has not answered. */
  charging: { status: 'in_progress', stage: 'charging' },
  /**
   * The card's provider did not answer the charge (a timeout, a 5xx, a broken connection):
   * whether it took the money is not known. It is asked about by reference at that provider (the
   * requery gate) before the payment may be charged again, there or anywhere else.
   */
  unanswered: { status: 'in_progress', stage: 'unanswered' },
  /**
   * Past the requery gate: the provider said it took nothing, or could not say within
   * CARD_ASKING_WINDOW_MS. The payer may try again through the next card provider, entering the
   * card's steps again (a PIN, an OTP, a 3-D Secure check belong to one provider's session).
   */
  retry_elsewhere: { status: 'failed', stage: 'retry_elsewhere' },
  /**
   * The payer tried again through another provider: a newer attempt of the payment took over.
   * Money its own provider still reports taken is booked once: it pays the payment if nothing
   * else has, or it is given back.
   */
  tried_elsewhere: { status: 'failed', stage: 'tried_elsewhere' },
  /**
   * The issuer asked for the card's PIN: asked of the payer only now, once the card's details
   * showed it needs one (a card checked by 3-D Secure never is).
   */
  awaiting_pin: { status: 'in_progress', stage: 'awaiting_pin' },
  /** The issuer asked for an OTP (or a bank token). */
  awaiting_otp: { status: 'in_progress', stage: 'awaiting_otp' },
  /** The issuer asked for a 3-D Secure check in the payer's browser. */
  awaiting_3ds: { status: 'in_progress', stage: 'awaiting_3ds' },
  /**
   * A pushed terminal's payment request the server called off, unpaid past
   * PUSHED_TERMINAL_EXPIRY_MS (pushed-terminal.ts): withdrawn at its provider, or, where the
   * provider did not withdraw it, still payable at the terminal until it does. Ended for the
   * payer, who may pay another way; money reaching it later pays the payment if nothing else has
   * (paidAfterCallOff), or is owed back.
   */
  called_off: { status: 'failed', stage: 'called_off' },
  /** This attempt paid the payment. */
  completed: { status: 'completed', stage: null },
  /** Ended without paying. */
  failed: { status: 'failed', stage: null },
} as const;

export type TAttemptState = keyof typeof ATTEMPT_STATES;
export type TAttemptStatus = (typeof ATTEMPT_STATES)[TAttemptState]['status'];
export type TAttemptStage = NonNullable<(typeof ATTEMPT_STATES)[TAttemptState]['stage']>;

const OPEN_TRANSFER = ['transfer_open', 'transfer_claimed'] as const;
const WAITING_FOR_PAYER = ['awaiting_pin', 'awaiting_otp', 'awaiting_3ds'] as const;
/** A charge whose answer is awaited from its provider: one at a time per payment. */
export const AT_THE_PROVIDER = [
  'charging',
  'unanswered',
] as const satisfies readonly TAttemptState[];
/** A charge that failed over, whose own provider may still report it taken late. */
export const FAILED_OVER = [
  'retry_elsewhere',
  'tried_elsewhere',
] as const satisfies readonly TAttemptState[];
/** Every state an attempt has not ended in. */
export const OPEN_ATTEMPT_STATES = [
  ...OPEN_TRANSFER,
  ...AT_THE_PROVIDER,
  ...WAITING_FOR_PAYER,
] as const satisfies readonly TAttemptState[];

/**
 * Every move an attempt may make. An attempt is created 'charging' (a card, a debit, a chip
 * purchase) or 'transfer_open' (a one-time account); each edge names the states it leaves from
 * and the one it reaches.
 */
export const ATTEMPT_TRANSITIONS = {
  /** 'I have made the transfer'. */
  claimTransfer: { from: ['transfer_open'], to: 'transfer_claimed' },
  /**
   * The issuer asks the payer for the card's PIN (in the charge's answer, or in the requery of a
   * charge whose answer was lost).
   */
  askPin: { from: AT_THE_PROVIDER, to: 'awaiting_pin' },
  /** The issuer asks the payer for an OTP. */
  askOtp: { from: AT_THE_PROVIDER, to: 'awaiting_otp' },
  /** The issuer asks the payer for a 3-D Secure check. */
  ask3ds: { from: AT_THE_PROVIDER, to: 'awaiting_3ds' },
  /**
   * The payer's answer (a PIN, an OTP, a 3-D Secure check) or a requery is put to the provider:
   * one request takes the waiting attempt, a second finds it taken.
   */
  takeAnswer: { from: WAITING_FOR_PAYER, to: 'charging' },
  /**
   * The provider took the money and this attempt paid the payment: its answer, or a late one of a
   * charge that failed over, before anything else paid it.
   */
  complete: { from: [...AT_THE_PROVIDER, ...FAILED_OVER, ...OPEN_TRANSFER], to: 'completed' },
  /** The provider refused, said nothing was taken, or took it and gave it back. */
  fail: { from: AT_THE_PROVIDER, to: 'failed' },
  /** The card's provider did not answer the charge: it is asked about before anything else. */
  loseAnswer: { from: ['charging'], to: 'unanswered' },
  /**
   * The requery gate opens: the unanswered charge's provider said it took nothing, or the asking
   * window ended without its word, and another card provider may take the payer's next try.
   */
  offerElsewhere: { from: ['unanswered'], to: 'retry_elsewhere' },
  /** The payer's next try went to another provider: a new attempt of the same payment. */
  tryElsewhere: { from: ['retry_elsewhere'], to: 'tried_elsewhere' },
  /**
   * Ended without the provider: a one-time account expired or could not be opened, a waiting
   * charge given way to a newer card, a 3-D Secure challenge left unanswered or cancelled.
   */
  abandon: { from: [...OPEN_TRANSFER, ...WAITING_FOR_PAYER], to: 'failed' },
  /**
   * A pushed terminal's request unpaid past its expiry is called off (isCalledOffPush): the
   * payment is free for another way.
   */
  callOff: { from: AT_THE_PROVIDER, to: 'called_off' },
  /** Its money reached us after another attempt had paid the payment: it is given back. */
  paidOtherwise: { from: [...AT_THE_PROVIDER, ...FAILED_OVER, ...OPEN_TRANSFER], to: 'failed' },
  /**
   * Another attempt paid the payment: what the payer had also started and that waits on them (an
   * open account, a PIN, an OTP, a 3-D Secure check) ends. A charge still at the provider is left to its
   * answer, which is given back (paidOtherwise).
   */
  closedByPayment: { from: [...OPEN_TRANSFER, ...WAITING_FOR_PAYER], to: 'failed' },
  /**
   * A payment request the server called off while it waited unpaid at a pushed terminal
   * (isCalledOffPush) was paid there after all: it pays its payment, if nothing else has.
   */
  paidAfterCallOff: { from: ['called_off'], to: 'completed' },
} as const satisfies Record<string, { from: readonly TAttemptState[]; to: TAttemptState }>;

export type TAttemptEdge = keyof typeof ATTEMPT_TRANSITIONS;

/** The named state of a status and stage pair as the database keeps them; null for none. */
export function namedStateOf(row: { status: string; stage: string | null }): TAttemptState | null {
  for (const [state, pair] of Object.entries(ATTEMPT_STATES)) {
    if (pair.status === row.status && pair.stage === row.stage) return state as TAttemptState;
  }
  return null;
}

/** Whether `edge` may move an attempt in `state`. */
export function mayMove(state: TAttemptState | null, edge: TAttemptEdge): boolean {
  const { from } = ATTEMPT_TRANSITIONS[edge];
  return state !== null && (from as readonly TAttemptState[]).includes(state);
}

/** The state the page draws (ZPaymentAttemptState.state): both transfer states wait on one. */
export function pageStateOf(
  state: TAttemptState,
):
  | 'awaiting_transfer'
  | 'awaiting_pin'
  | 'awaiting_otp'
  | 'awaiting_3ds'
  | 'charging'
  | 'completed'
  | 'failed' {
  switch (state) {
    case 'transfer_open':
    case 'transfer_claimed':
      return 'awaiting_transfer';
    // Asked about at its provider: the page waits on the bank, as for any charge.
    case 'unanswered':
      return 'charging';
    // Ended for this attempt; the view says whether another provider may take the next try.
    case 'retry_elsewhere':
    case 'tried_elsewhere':
    case 'called_off':
      return 'failed';
    default:
      return state;
  }
}

/**
 * How long an unanswered card charge is asked about at its provider before the payer may try
 * again elsewhere all the same (the provider not answering its requeries either). Money it
 * reports taken later is booked once: it pays the payment if nothing else has, or is given back.
 */
export const CARD_ASKING_WINDOW_MS = 5 * 60 * 1_000;

/** Why a charge failed over without its provider's word: what the watch of late money asks about. */
export const ASKING_WINDOW_REASON = 'no word from its provider within the asking window';

/**
 * The payer's refusals a requery may report of a charge that took nothing (a decline, a wrong
 * PIN or OTP, a failed 3-D Secure check): the payer's answer, not the provider's failure, so the
 * charge ends there and never fails over. Anything else (never arrived, the network gave up on
 * the issuer) is the provider's side, and the next provider may take the payer's next try.
 */
const PAYERS_REFUSALS: ReadonlySet<string> = new Set([
  'insufficient_funds',
  'incorrect_pin',
  'invalid_card',
  'declined',
  'incorrect_otp',
  'three_ds_declined',
]);

/** Whether an unanswered charge its provider says took nothing for `reason` may fail over. */
export const failsOverOn = (reason: string): boolean => !PAYERS_REFUSALS.has(reason);

/**
 * Whether an attempt's page offers 'Try Again' through the next provider: past the requery gate,
 * and not yet tried elsewhere.
 */
export const offersRetryElsewhere = (state: TAttemptState | null): boolean =>
  mayMove(state, 'tryElsewhere');

/** How long a 3-D Secure challenge is given before its attempt ends as failed. */
export const THREE_DS_CHALLENGE_MS = 10 * 60 * 1_000;

/**
 * The reason a called-off push's attempt records, for the payer and the merchant to read beside
 * its state ('called_off').
 */
export const CALLED_OFF_REASON = 'called off: no card at the terminal in time';

/**
 * Whether an ended attempt is a called-off push, which money reaching it later completes
 * (paidAfterCallOff) where the payment is still unpaid, instead of being owed back: the payer paid
 * at the terminal, and nothing else paid the payment meanwhile.
 */
export const isCalledOffPush = (attempt: { status: string; stage: string | null }): boolean =>
  namedStateOf(attempt) === 'called_off';

/**
 * An attempt's give-back (docs/payments.md "States"), kept apart from its state: money that
 * reached an attempt whose payment was paid otherwise, or that had ended, is booked back out and
 * owed back to the payer, then given back at its provider. The database keeps it as the attempt's
 * `refund`, named here with the value it writes; the server moves it by the one function
 * (moveGiveBack, services/payments/attempts/moves.ts), in one statement.
 */
export const GIVE_BACK_STATES = {
  /** Nothing owed back: the attempt took nothing, or its money paid its payment. */
  none: null,
  /** Booked back out, to be given back at the provider (by its answer, else the reconciler). */
  owed: 'owed',
  /**
   * Owed, and given back by no call of ours: a pushed terminal's money owed before the transaction
   * its payment request produced was kept. An operator refunds it at the provider and records it.
   */
  by_hand: 'by_hand',
  /** Given back, or the provider said it never took it (or gave it back itself). */
  settled: 'settled',
} as const;

export type TGiveBackState = keyof typeof GIVE_BACK_STATES;

/**
 * The give-backs an attempt starts in: nothing owed, as every attempt is created, or left to an
 * operator by a version of the server that kept no pushed terminal's transaction (no move reaches
 * 'by_hand' now; the rows it left remain until recorded given back).
 */
export const GIVE_BACK_STARTS = ['none', 'by_hand'] as const satisfies readonly TGiveBackState[];

/** Every move of an attempt's give-back: the states it leaves from and the one it reaches. */
export const GIVE_BACK_TRANSITIONS = {
  /**
   * Its money reached a payment paid otherwise, or the attempt had ended: booked in and straight
   * back out, in the transaction that found it (a transfer's bank returns it: nothing is owed).
   */
  owe: { from: ['none'], to: 'owed' },
  /** The provider gave it back (a refund, a reversal), or said it never took it. */
  giveBack: { from: ['owed'], to: 'settled' },
  /** An operator refunded it at the provider and recorded that refund's reference. */
  givenBackByHand: { from: ['by_hand'], to: 'settled' },
} as const satisfies Record<string, { from: readonly TGiveBackState[]; to: TGiveBackState }>;

export type TGiveBackEdge = keyof typeof GIVE_BACK_TRANSITIONS;

/** The named give-back of the attempt's `refund` as the database keeps it; null for none known. */
export function giveBackStateOf(refund: string | null): TGiveBackState | null {
  for (const [state, value] of Object.entries(GIVE_BACK_STATES)) {
    if (value === refund) return state as TGiveBackState;
  }
  return null;
}

/** Whether `edge` may move a give-back in `state`. */
export function mayGiveBack(state: TGiveBackState | null, edge: TGiveBackEdge): boolean {
  const { from } = GIVE_BACK_TRANSITIONS[edge];
  return state !== null && (from as readonly TGiveBackState[]).includes(state);
}

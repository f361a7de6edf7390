/*
 * The life of a payment attempt (docs/payments.md "States"): one table of the moves an attempt
 * may make, read by the server's one move function (services/payments/attempt-moves.ts) and by
 * the payment read, so no service changes an attempt's state by a rule of its own.
 *
 * The database keeps an attempt as a status (spec §4: pending, in_progress, completed, failed)
 * and, while it is open, a stage (where it waits). Those pairs are named here as states, since
 * the pair is what a move checks and sets: a one-time account opened and not yet said to be paid
 * ('transfer_open') and one the payer said they paid into ('transfer_claimed') share the stage
 * 'awaiting_transfer' and differ by status. The page sees both as 'awaiting_transfer'
 * (pageStateOf).
 */

export const ATTEMPT_STATES = {
  /** A one-time account is open; the payer has not said they sent money. */
  transfer_open: { status: 'pending', stage: 'awaiting_transfer' },
  /** 'I have made the transfer': 'Waiting for transfer confirmation...'. */
  transfer_claimed: { status: 'in_progress', stage: 'awaiting_transfer' },
  /** The provider has the call (a charge, a debit, a chip purchase) and has not answered. */
  charging: { status: 'in_progress', stage: 'charging' },
  /**
   * The issuer asked for the card's PIN: asked of the payer only now, once the card's details
   * showed it needs one (a card checked by 3-D Secure never is).
   */
  awaiting_pin: { status: 'in_progress', stage: 'awaiting_pin' },
  /** The issuer asked for an OTP (or a bank token). */
  awaiting_otp: { status: 'in_progress', stage: 'awaiting_otp' },
  /** The issuer asked for a 3-D Secure check in the payer's browser. */
  awaiting_3ds: { status: 'in_progress', stage: 'awaiting_3ds' },
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
/** Every state an attempt has not ended in. */
export const OPEN_ATTEMPT_STATES = [
  ...OPEN_TRANSFER,
  'charging',
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
  /** The issuer asks the payer for the card's PIN. */
  askPin: { from: ['charging'], to: 'awaiting_pin' },
  /** The issuer asks the payer for an OTP. */
  askOtp: { from: ['charging'], to: 'awaiting_otp' },
  /** The issuer asks the payer for a 3-D Secure check. */
  ask3ds: { from: ['charging'], to: 'awaiting_3ds' },
  /**
   * The payer's answer (a PIN, an OTP, a 3-D Secure check) or a requery is put to the provider:
   * one request takes the waiting attempt, a second finds it taken.
   */
  takeAnswer: { from: WAITING_FOR_PAYER, to: 'charging' },
  /** The provider took the money and this attempt paid the payment. */
  complete: { from: ['charging', ...OPEN_TRANSFER], to: 'completed' },
  /** The provider refused, said nothing was taken, or took it and gave it back. */
  fail: { from: ['charging'], to: 'failed' },
  /**
   * Ended without the provider: a one-time account expired or could not be opened, a waiting
   * charge given way to a newer card, a 3-D Secure challenge left unanswered or cancelled.
   */
  abandon: { from: [...OPEN_TRANSFER, ...WAITING_FOR_PAYER], to: 'failed' },
  /** Its money reached us after another attempt had paid the payment: it is given back. */
  paidOtherwise: { from: ['charging', ...OPEN_TRANSFER], to: 'failed' },
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
  paidAfterCallOff: { from: ['failed'], to: 'completed' },
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
  return state === 'transfer_open' || state === 'transfer_claimed' ? 'awaiting_transfer' : state;
}

/** How long a 3-D Secure challenge is given before its attempt ends as failed. */
export const THREE_DS_CHALLENGE_MS = 10 * 60 * 1_000;

/**
 * Why a pushed terminal's attempt failed when the server called its payment request off, unpaid
 * past PUSHED_TERMINAL_EXPIRY_MS (pushed-terminal.ts): withdrawn at its provider, or, where the
 * provider did not withdraw it, still payable at the terminal until it does.
 */
export const CALLED_OFF_REASON = 'called off: no card at the terminal in time';

/**
 * Whether an ended attempt is a called-off push, which money reaching it later completes
 * (paidAfterCallOff) where the payment is still unpaid, instead of being owed back: the payer paid
 * at the terminal, and nothing else paid the payment meanwhile.
 */
export const isCalledOffPush = (attempt: {
  method: string;
  status: string;
  failureReason: string | null;
}): boolean =>
  attempt.method === 'chip_card' &&
  attempt.status === 'failed' &&
  attempt.failureReason === CALLED_OFF_REASON;

import { ERROR_CATALOGUE } from './errors';
import { PAGE_ERRORS } from './page-errors';

/*
 * The Chip Card Terminal modal where the chip terminal is the merchant's certified terminal the
 * server pushes the payment to (Paystack Terminal, docs/providers/paystack-terminal.md), not a
 * reader the page connects: the payer picks one of the merchant's terminals (one is picked at
 * once), the payment is sent to it, and the payment's stream says approved or declined. The
 * spec's words where it has them (§8 Chip terminal: 'Device is busy, please wait', 'Transaction
 * declined by card or issuer'); ours elsewhere.
 */

/** A merchant's terminal as the payer picks it. */
export type TPushedTerminal = { id: string; name: string };

/** Where the payment at the terminal stands. */
export type TPushedTerminalStep =
  /** The merchant's terminals are being read. */
  | 'loading'
  /** The merchant has several: the payer picks one. */
  | 'choosing'
  /** The merchant registered none: another way to pay. */
  | 'none'
  /** The payment is being sent to the terminal. */
  | 'sending'
  /** The payment is on the terminal, waiting for the payer's card and PIN there. */
  | 'waiting'
  /**
   * The server refused a second send: the payment is already on its way (the terminal it was
   * sent to before this modal was closed and opened again, or another way in another tab). The
   * stream says how it ends.
   */
  | 'in_progress'
  /**
   * The send's answer never reached the page (no network, the server failed): the payment may
   * be on the terminal, and while it is the server refuses every other way. Without sign-in the
   * lost answer held the token that reads the payment, so the stream may never tell; once the
   * wait stalls, the payer may send again (a push still charging is refused and followed).
   */
  | 'unsure'
  /** The terminal is not connected: nothing was sent. */
  | 'offline'
  /** Terminal state: the card was approved and the payment is paid. */
  | 'approved'
  /** The card or its issuer said no at the terminal. */
  | 'declined'
  /** Anything else went wrong (busy, a network failure, the terminal never answered). */
  | 'failed';

export type TPushedTerminalState = {
  step: TPushedTerminalStep;
  /** The merchant's terminals, once read. */
  terminals: readonly TPushedTerminal[] | null;
  /** The terminal the payment goes, or went, to. */
  terminal: TPushedTerminal | null;
  /** Counts the sends asked for: each is made once (the screen sends when it grows). */
  sends: number;
  /**
   * Sending longer than PUSHED_TERMINAL_SEND_STALL_MS, or waiting for the terminal longer than
   * PUSHED_TERMINAL_STALL_MS: the payer is told, and may close.
   */
  stalled: boolean;
  /** What the payer reads about the failure; null when all is well. */
  error: string | null;
};

/** What the payment's stream said of the payment while the modal was open. */
export type TTerminalPaymentNews =
  { status: 'completed' } | { status: 'failed'; code: string | null; message: string | null };

export type TPushedTerminalAction =
  | { type: 'terminals_loaded'; terminals: readonly TPushedTerminal[] }
  | { type: 'terminals_failed'; message: string }
  | { type: 'terminal_chosen'; terminal: TPushedTerminal }
  /** The server put the payment on the terminal. */
  | { type: 'push_answered' }
  /** The server refused to send it (its catalogue's code and words). */
  | { type: 'push_refused'; code: string | null; message: string }
  | { type: 'payment_news'; news: TTerminalPaymentNews }
  /** Sending or waiting has gone on for its stall time (pushedTerminalStallMs). */
  | { type: 'wait_stalled' }
  /** 'Try Again' after a failure. */
  | { type: 'try_again' };

/** How long the payer waits at the terminal before the modal says it has not answered. */
export const PUSHED_TERMINAL_STALL_MS = 90_000;

/** How long the send may take before the modal says the terminal's provider is slow. */
export const PUSHED_TERMINAL_SEND_STALL_MS = 15_000;

/** Where the payment may be at the terminal, waiting for its card: each wait stalls. */
const WAITS: ReadonlySet<TPushedTerminalStep> = new Set(['waiting', 'in_progress', 'unsure']);

/** The stall time of where the modal stands; null where nothing waits. */
export function pushedTerminalStallMs(state: TPushedTerminalState): number | null {
  if (state.stalled) return null;
  if (state.step === 'sending') return PUSHED_TERMINAL_SEND_STALL_MS;
  return WAITS.has(state.step) ? PUSHED_TERMINAL_STALL_MS : null;
}

/**
 * A send refused with no word of the server's (the page could not reach it, or it failed): the
 * push may have been recorded before the answer was lost.
 */
const answerLost = (code: string | null) => code === null || code === 'API_REQUEST_FAILED';

/**
 * How long a payment sent to a terminal may wait there for a card. Past it, a request the
 * terminal's provider still holds unpaid is called off by the server's next look at it (the
 * attempt fails TERMINAL_TIMEOUT), so its payment can be paid another way; a card taken there
 * after that pays the payment if nothing else has, and is owed back otherwise
 * (payment-attempts.ts isCalledOffPush).
 */
export const PUSHED_TERMINAL_EXPIRY_MS = 3 * 60_000;

/** Whether a payment request pushed when its attempt began (`began`) is past its wait at `now`. */
export const isPushPastExpiry = (began: Date, now: Date): boolean =>
  now.getTime() - began.getTime() >= PUSHED_TERMINAL_EXPIRY_MS;

/**
 * Thrown by a pushed terminal's provider when its call to withdraw a payment request failed (no
 * answer, or a refusal): the request may still be paid at the terminal. Only this lets the
 * server call the payment off anyway; any other failure (the request could not be read, or is
 * paid and its transaction not listed yet) leaves the payment charging, to be asked about again,
 * so that a card taken is never recorded as called off.
 */
export class PaymentRequestNotWithdrawn extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentRequestNotWithdrawn';
  }
}

export const PUSHED_TERMINAL_INITIAL: TPushedTerminalState = {
  step: 'loading',
  terminals: null,
  terminal: null,
  sends: 0,
  stalled: false,
  error: null,
};

const send = (state: TPushedTerminalState, terminal: TPushedTerminal): TPushedTerminalState => ({
  ...state,
  step: 'sending',
  terminal,
  sends: state.sends + 1,
  stalled: false,
  error: null,
});

/** The terminals read: none, one (sent to at once), or several to choose from. */
function pickFrom(
  state: TPushedTerminalState,
  terminals: readonly TPushedTerminal[],
): TPushedTerminalState {
  const [only] = terminals;
  if (terminals.length === 0) return { ...state, step: 'none', terminals, error: null };
  if (terminals.length === 1 && only) return send({ ...state, terminals }, only);
  return { ...state, step: 'choosing', terminals, terminal: null, error: null };
}

const ENDED: ReadonlySet<TPushedTerminalStep> = new Set(['offline', 'declined', 'failed']);
/** Where the payment may be on its way and the payer may send again once the wait stalls. */
const STALLED_RETRY: ReadonlySet<TPushedTerminalStep> = new Set(['in_progress', 'unsure']);
/** Where the payment is on its way: the stream's failure is this payment's. */
const FOLLOWING: ReadonlySet<TPushedTerminalStep> = new Set([
  'sending',
  'waiting',
  'in_progress',
  'unsure',
]);

/** What the stream said, where the payment is at the terminal. */
function onNews(state: TPushedTerminalState, news: TTerminalPaymentNews): TPushedTerminalState {
  // Paid is paid, whatever this page thought: the terminal took the card.
  if (news.status === 'completed') {
    return state.step === 'approved'
      ? state
      : { ...state, step: 'approved', stalled: false, error: null };
  }
  // A failure told while nothing was sent is an earlier attempt's.
  if (!FOLLOWING.has(state.step)) return state;
  if (news.code === 'TERMINAL_DECLINED') {
    return {
      ...state,
      step: 'declined',
      stalled: false,
      error: ERROR_CATALOGUE.TERMINAL_DECLINED.message,
    };
  }
  return {
    ...state,
    step: 'failed',
    stalled: false,
    error: news.message ?? PAGE_ERRORS.PAYMENT_FAILED.message,
  };
}

/**
 * The pushed terminal's state machine. An action the current state does not accept returns the
 * same state object.
 */
export function pushedTerminalReducer(
  state: TPushedTerminalState,
  action: TPushedTerminalAction,
): TPushedTerminalState {
  switch (action.type) {
    case 'terminals_loaded':
      return state.step === 'loading' ? pickFrom(state, action.terminals) : state;
    case 'terminals_failed':
      return state.step === 'loading' ? { ...state, step: 'failed', error: action.message } : state;
    case 'terminal_chosen':
      return state.step === 'choosing' ? send(state, action.terminal) : state;
    case 'push_answered':
      // The wait at the terminal has a stall time of its own.
      return state.step === 'sending' ? { ...state, step: 'waiting', stalled: false } : state;
    case 'push_refused':
      if (state.step !== 'sending') return state;
      if (action.code === 'PAYMENT_IN_PROGRESS') return { ...state, step: 'in_progress' };
      if (answerLost(action.code)) return { ...state, step: 'unsure', stalled: false };
      return action.code === 'TERMINAL_OFFLINE'
        ? { ...state, step: 'offline', error: action.message }
        : { ...state, step: 'failed', error: action.message };
    case 'payment_news':
      return onNews(state, action.news);
    case 'wait_stalled':
      return pushedTerminalStallMs(state) === null ? state : { ...state, stalled: true };
    case 'try_again': {
      if (!pushedTerminalCanRetry(state)) return state;
      const retried = { ...state, error: null };
      if (state.terminals === null) return { ...retried, step: 'loading' };
      // The same terminal where there is one; the choice again where there are several.
      return state.terminals.length > 1
        ? { ...retried, step: 'choosing', terminal: null }
        : pickFrom(retried, state.terminals);
    }
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled pushed-terminal action ${JSON.stringify(unhandled)}`);
    }
  }
}

/** 'Transaction state' in the modal. */
export const PUSHED_TERMINAL_STEP_LABELS: Readonly<Record<TPushedTerminalStep, string>> = {
  loading: 'Finding terminals',
  choosing: 'Choose a terminal',
  none: 'No terminal',
  sending: 'Sending to the terminal',
  waiting: 'Waiting for the terminal',
  in_progress: 'In progress',
  unsure: 'Not confirmed',
  offline: 'Terminal offline',
  approved: 'Approved',
  declined: 'Declined',
  failed: 'Failed',
};

/** A wait at the terminal that stalled: the server calls the payment off, then it is free. */
const calledOffSoon = (name: string) =>
  `${name} has not answered yet. If the payment is not on its screen, it is called off a few minutes after it was sent; then try again or choose another way to pay. This page shows the payment if it goes through.`;

/** The line under the state, read aloud as it changes: what the payer does next. */
export function pushedTerminalInstruction(state: TPushedTerminalState): string {
  const name = state.terminal?.name ?? 'the terminal';
  switch (state.step) {
    case 'loading':
      return "Finding the merchant's terminals...";
    case 'choosing':
      return 'Choose the terminal you are paying at.';
    case 'none':
      return 'This merchant has no card terminal set up. Choose another way to pay.';
    case 'sending':
      return state.stalled
        ? `Still sending the payment to ${name}: its provider is slow to answer. Keep this open; this page shows the payment if it goes through.`
        : `Sending the payment to ${name}...`;
    case 'waiting':
      return state.stalled
        ? calledOffSoon(name)
        : `Insert or tap your card on ${name} and enter your PIN there.`;
    case 'in_progress':
      return state.stalled
        ? calledOffSoon(name)
        : `${ERROR_CATALOGUE.PAYMENT_IN_PROGRESS.message} If it is on ${name}, finish it there; this page shows the payment when it ends.`;
    case 'unsure':
      return state.stalled
        ? `${name} has not answered yet. If the payment is not on its screen, try again: a payment already on its way is not sent twice.`
        : `The payment may have reached ${name}, but this page could not confirm it. If it is on its screen, finish it there.`;
    case 'offline':
      return `Check that ${name} is on and connected, then try again.`;
    case 'approved':
      return 'Payment approved. You can remove the card.';
    case 'declined':
    case 'failed':
      return 'Try again, or close this and choose another way to pay.';
  }
}

/** The modal's status badge: one word for where the payment at the terminal stands. */
export function pushedTerminalBadge(state: TPushedTerminalState): {
  text: string;
  tone: 'neutral' | 'ready' | 'busy' | 'done' | 'failed';
} {
  switch (state.step) {
    case 'approved':
      return { text: 'Approved', tone: 'done' };
    case 'offline':
      return { text: 'Offline', tone: 'failed' };
    case 'declined':
    case 'failed':
      return { text: 'Failed', tone: 'failed' };
    case 'sending':
    case 'waiting':
    case 'in_progress':
    case 'unsure':
      return { text: 'In progress', tone: 'busy' };
    case 'choosing':
      return { text: 'Ready', tone: 'ready' };
    case 'loading':
      return { text: 'Starting', tone: 'busy' };
    case 'none':
      return { text: 'Not available', tone: 'neutral' };
  }
}

/**
 * Whether 'Try Again' is offered: after a failure, where trying again can help, and once a send
 * whose answer was lost, or a payment already on its way, has stalled (its text tells the payer
 * to try again once it is called off; the server refuses it while the first one charges). A
 * payer who is not signed in may never hear how that payment ends, and would be left with Close.
 */
export function pushedTerminalCanRetry(state: TPushedTerminalState): boolean {
  return ENDED.has(state.step) || (STALLED_RETRY.has(state.step) && state.stalled);
}

/** Whether the modal is busy (its spinner, aria-busy): reading the terminals, or sending. */
export const pushedTerminalBusy = (state: TPushedTerminalState): boolean =>
  state.step === 'loading' || state.step === 'sending';

/** Whether 'Close' is offered: always, but once approved (the page goes on by itself). */
export const pushedTerminalOffersClose = (state: TPushedTerminalState): boolean =>
  state.step !== 'approved';

import type { TPaidOrigin } from './after-payment';
import { STEP_TEXT_AWAITING_TRANSFER } from './constants';
import { offersTryAgainElsewhere, tryAgainElsewhereLines } from './card-retry-elsewhere';
import { nextAttempt, type TPaymentAttempt } from './embed-payment-report';
import { PAGE_ERRORS } from './page-errors';
import type { TTerminalPaymentNews } from './pushed-terminal';
import { formatNaira } from './money';
import { otpFailureAction } from './otp-input';
import {
  PAYMENT_STATUS_INITIAL,
  paymentStatusReducer,
  type TPaymentStatusAction,
  type TPaymentStatusState,
} from './payment-status';
import type { TCardChargeResponse, TEncryptedCard, TPayerBank, TPayerCard } from './schemas/card';
import type {
  TPaymentAttemptState,
  TPaymentStateResponse,
  TPaymentStatusEvent,
  TTransferDetails,
} from './schemas/payment';

/*
 * The Immediate Payment screen (spec §2, §4) as one state machine: which view shows, how the
 * payer is paying, the card's OTP and 3-D Secure steps, the payment's status (the payment-status
 * reducer, composed), what the server said of the latest attempt, and the prompt after the
 * payment. The page draws this state and sends it what happened; it keeps no view of its own.
 */

type TReturned = NonNullable<TPaymentAttemptState['returned']>;

export type TPayNowView =
  | 'methods'
  | 'transfer'
  | 'card'
  /** The card's issuer asked for its PIN ('Enter Card PIN'): the card went with its details. */
  | 'card_pin'
  | 'otp'
  | 'three_ds'
  | 'processing';

/** The views of Pay with Card's own steps. */
const CARD_STEP_VIEWS: readonly TPayNowView[] = ['card', 'card_pin', 'otp', 'three_ds'];

/**
 * Whether the screen draws Pay with Card's steps: at one of them, or while Retry Payment sends the
 * card again from wherever the payer is (its 'retrying' line), short of the processing view.
 */
export const showsCardSteps = (state: Pick<TPayNowState, 'view' | 'card'>): boolean =>
  CARD_STEP_VIEWS.includes(state.view) || (state.card.resending && state.view !== 'processing');

/** The card entered on this page last, as it was sent (envelopes only), and how it shows. */
export type TStoredCard = {
  cardDetails: TEncryptedCard;
  saveCard: boolean;
  obfuscatedCard: string;
};

export type TPayNowState = {
  view: TPayNowView;
  method: 'transfer' | 'card';
  /** The progress ring's state (spec §4 Payment status). */
  status: TPaymentStatusState;
  /** The amount due, in kobo: what a returned transfer is told against. */
  amountDue: number;
  /** The latest attempt as the server last told it (read or event); null before any. */
  attempt: TPaymentAttemptState | null;
  /** Each transfer sent back since the page opened, in the order the page heard of them. */
  returns: TReturned[];
  /** Whether the payment's read has been applied (a reload resumes from it once). */
  resumed: boolean;
  /** The one-time account last shown, and whether the server ended it (then shown expired). */
  details: TTransferDetails | null;
  detailsEnded: boolean;
  payerBank: TPayerBank | null;
  payerCard: TPayerCard | null;
  /**
   * In memory only, for 'Retry Payment' and 'Pay with Card | {masked card}'; never stored. A card
   * refused for insufficient funds is dropped when the payer turns to another method.
   */
  storedCard: TStoredCard | null;
  card: {
    /** The form's error (a refusal the form can fix, or no stored card to retry). */
    error: string | null;
    /** A charge is on its way to the bank and has not come back. */
    charging: boolean;
    /** ...for long enough that the page says the bank is still answering. */
    slow: boolean;
    /** The stored card is being sent again. */
    resending: boolean;
  };
  otp: {
    displayMessage: string;
    error: string | null;
    verifying: boolean;
    /** A refused OTP ended its charge: the boxes go, only Retry Payment is left. */
    ended: boolean;
    /** Each OTP screen of a new charge starts afresh (empty boxes, its own countdown). */
    round: number;
  };
  threeDs: { challengeUrl: string | null; expiresAt: string | null };
  /** Where the money came from, for the prompts after the payment (spec §3 origin). */
  origin: TPaidOrigin | null;
  /** Only a card charged while signed in was kept by the server to be saved. */
  signedInWhenPaid: boolean;
  prompt: { settled: boolean; step: 'ask' | 'sign_in' | 'link' };
  terminalOpen: boolean;
  /**
   * What the payment's stream said last while the terminal's modal was open, numbered: a pushed
   * terminal's modal learns from it that the card was approved or declined there.
   */
  terminalNews: { seq: number; news: TTerminalPaymentNews } | null;
  /** The latest way of paying begun here, as the embedding parent is told of it. */
  report: TPaymentAttempt | null;
  /**
   * The charge this page sent that its bank had not answered when the call came back ('charging'):
   * the step its issuer asks for later (a PIN, an OTP, 3-D Secure), heard on the stream or read,
   * is shown as the call's own answer would have shown it.
   */
  awaitedCharge: string | null;
};

export type TPayNowAction =
  /** The payment's read (GET /api/payments/{id}): a page opened mid-payment resumes there. */
  | {
      type: 'read';
      read: TPaymentStateResponse;
      answersCharge: boolean;
      /** The page opened again on the way back from a 3-D Secure check it opened in its own
       * window (an app's browser). */
      backFromChallenge?: boolean;
    }
  /** An event of the payment's stream (or the poll that stands in for it). */
  | { type: 'event'; event: TPaymentStatusEvent }
  | { type: 'pay_by_transfer' }
  | { type: 'transfer_opened'; details: TTransferDetails }
  /** 'I have made the transfer' answered. */
  | { type: 'transfer_confirmed'; status: 'in_progress' | 'completed' }
  | { type: 'view_transfer_details' }
  /** 'back' from the transfer details or the card form. */
  | { type: 'back' }
  | { type: 'pay_with_card' }
  /** A card sent: a new one (with how it shows), or the stored one again. */
  | { type: 'card_submitted'; card: TStoredCard | null; signedIn: boolean }
  /** The charge has been out for CARD_SLOW_AFTER_MS. */
  | { type: 'card_slow' }
  | { type: 'card_answered'; answer: TCardChargeResponse }
  /** The PIN the card's issuer asked for, sent with the card that is waiting for it. */
  | { type: 'pin_submitted' }
  /** The charge call answered an error: the bank's refusal, or one the form must fix. */
  | {
      type: 'card_refused';
      message: string;
      paymentFailure: boolean;
      /** The envelopes sent can never go through (isUnusableCardEnvelope): not kept to resend. */
      unusableEnvelope?: boolean;
    }
  /** 'Retry Payment', 'Try Again', 'Pay with Card | {masked card}'. */
  | { type: 'retry_card' }
  | { type: 'otp_verifying' }
  | { type: 'otp_verified' }
  | { type: 'otp_refused'; message: string }
  | { type: 'three_ds_opened' }
  /** The 3-D Secure attempt cancelled on the server: back to the methods. */
  /** The cancel call's answer: the attempt as it ended (completed if the bank answered first). */
  | { type: 'three_ds_cancelled'; attempt: TPaymentAttemptState }
  /** 'cancel' or 'Try Another Method'. */
  | { type: 'cancel' }
  | { type: 'terminal_opened' }
  | { type: 'terminal_closed' }
  | { type: 'prompt_step'; step: 'ask' | 'sign_in' | 'link' }
  | { type: 'prompt_settled' }
  | { type: 'pulse' }
  | { type: 'completion_delay_elapsed' };

/** A payment paid before the page opened starts at its end; anything else at the methods. */
export function payNowInitial(input: {
  paid: boolean;
  amountDue: number;
  origin: TPaidOrigin | null;
  method: 'transfer' | 'card';
}): TPayNowState {
  const status = input.paid
    ? paymentStatusReducer(paymentStatusReducer(PAYMENT_STATUS_INITIAL, { type: 'completed' }), {
        type: 'completion_delay_elapsed',
      })
    : PAYMENT_STATUS_INITIAL;
  return {
    view: input.paid ? 'processing' : 'methods',
    method: input.method,
    status,
    amountDue: input.amountDue,
    attempt: null,
    returns: [],
    resumed: input.paid,
    details: null,
    detailsEnded: false,
    payerBank: input.paid ? (input.origin?.payerBank ?? null) : null,
    payerCard: null,
    storedCard: null,
    card: { error: null, charging: false, slow: false, resending: false },
    otp: { displayMessage: '', error: null, verifying: false, ended: false, round: 0 },
    threeDs: { challengeUrl: null, expiresAt: null },
    origin: input.paid ? input.origin : null,
    signedInWhenPaid: false,
    prompt: { settled: false, step: 'ask' },
    terminalOpen: false,
    terminalNews: null,
    report: null,
    awaitedCharge: null,
  };
}

const RETURN_REASONS: Readonly<
  Record<NonNullable<TPaymentAttemptState['returned']>['reason'], (due: string) => string>
> = {
  wrong_amount: (due) => `it was not the amount due (${due}).`,
  expired: () => 'it reached the one-time account after the account expired.',
  already_paid: () => 'this payment had already been paid.',
};

const returnText = ({ amount, reason }: TReturned, amountDue: number) =>
  `Your transfer of ${formatNaira(amount)} was sent back to you: ${RETURN_REASONS[reason](
    formatNaira(amountDue),
  )}`;

/**
 * Every transfer sent back, one line each in order, then the way on: the same account while it is
 * open (for the amount due), a new one once it has ended.
 */
function returnsText(state: TPayNowState): string {
  const due = formatNaira(state.amountDue);
  return [
    ...state.returns.map((returned) => returnText(returned, state.amountDue)),
    state.detailsEnded
      ? 'That account is closed: Retry Payment gives you a new one, or try another method.'
      : `Retry Payment to send exactly ${due} to the same account, or try another method.`,
  ].join('\n');
}

/**
 * What the payer is told of an attempt that ended or gave money back: a transfer returned (how
 * much, and why), or a failure in the catalogue's words with whether the card was charged.
 */
export function attemptOutcomeText(attempt: TPaymentAttemptState, amountDue: number): string {
  if (attempt.returned) return returnText(attempt.returned, amountDue);
  if (offersTryAgainElsewhere(attempt)) {
    const failure = attemptOutcomeText({ ...attempt, retryElsewhere: false }, amountDue);
    return [failure, ...tryAgainElsewhereLines(attempt)].join(' ');
  }
  const message = (attempt.message?.trim() || PAGE_ERRORS.PAYMENT_FAILED.message).replace(
    /\.$/,
    '',
  );
  // CARD_BANK_NO_ANSWER's own words already say nothing was charged.
  if (attempt.charged === false && attempt.failureCode === 'CARD_BANK_NO_ANSWER')
    return `${message}.`;
  if (attempt.charged === false) return `${message}. Nothing was charged to your card.`;
  if (attempt.charged === true)
    return `${message}. Your card was charged; the money is being sent back to it.`;
  return attempt.message?.trim() || PAGE_ERRORS.PAYMENT_FAILED.message;
}

const methodOf = (
  method: TPaymentAttemptState['method'] | null | undefined,
): 'transfer' | 'card' | null =>
  method === 'bank_transfer'
    ? 'transfer'
    : method === 'card' || method === 'chip_card'
      ? 'card'
      : null;

const moveStatus = (state: TPayNowState, ...actions: TPaymentStatusAction[]): TPayNowState => ({
  ...state,
  status: actions.reduce(paymentStatusReducer, state.status),
});

/** A new try from a failure: the status reducer's retry; from anywhere else, nothing to undo. */
const fresh = (state: TPayNowState): TPayNowState => moveStatus(state, { type: 'retry' });

const toMethods = (state: TPayNowState): TPayNowState => ({
  ...moveStatus(state, { type: 'cancel' }),
  view: 'methods',
  threeDs: { challengeUrl: null, expiresAt: null },
});

const completed = (state: TPayNowState): TPayNowState => ({
  ...moveStatus(state, { type: 'completed' }),
  view: 'processing',
});

const failed = (state: TPayNowState, message: string | null | undefined): TPayNowState => ({
  ...moveStatus(state, { type: 'failed', message }),
  view: 'processing',
});

/** Failed, or (already failed) told again with what has happened since. */
const failedWith = (state: TPayNowState, text: string): TPayNowState =>
  state.status.phase === 'failed'
    ? { ...state, status: { ...state.status, error: text, stepText: text } }
    : failed(state, text);

const sameReturn = (a: TReturned, b: TReturned | null | undefined) =>
  a.amount === b?.amount && a.reason === b.reason;

/**
 * The step the issuer asked of a charge this page awaits, as the charge call answers it, once the
 * attempt (heard or read) waits on the payer; null while it does not.
 */
function lateStepAnswer(
  state: TPayNowState,
  otpDisplayMessage: string | null,
): TCardChargeResponse | null {
  const { attempt } = state;
  if (!attempt || attempt.attemptId !== state.awaitedCharge) return null;
  const base = { success: true, transactionReference: attempt.attemptId };
  switch (attempt.state) {
    case 'awaiting_pin':
      return { ...base, requiresPIN: true };
    case 'awaiting_otp':
      return { ...base, requiresOTP: true, displayMessage: otpDisplayMessage ?? '' };
    case 'awaiting_3ds':
      return attempt.challengeUrl
        ? { ...base, requires3DS: true, challengeUrl: attempt.challengeUrl }
        : null;
    default:
      return null;
  }
}

/**
 * A charge this page awaits whose attempt now waits on the payer: the step it asks for, whichever
 * way the news came (the stream, the poll standing in for it, or the call's answer after it).
 */
function followAwaitedCharge(
  state: TPayNowState,
  otpDisplayMessage: string | null,
): TPayNowState | null {
  const answer = lateStepAnswer(state, otpDisplayMessage);
  if (!answer) return null;
  const next = cardAnswered({ ...state, awaitedCharge: null }, answer);
  const status = next.status.phase === 'charging' ? PAYMENT_STATUS_INITIAL : next.status;
  return {
    ...next,
    status,
    threeDs: answer.requires3DS ? state.threeDs : next.threeDs,
  };
}

/** An attempt the server told of: what its state means for the screen. */
function withAttempt(
  state: TPayNowState,
  attempt: TPaymentAttemptState,
  otpDisplayMessage: string | null = null,
): TPayNowState {
  const known = state.attempt?.attemptId === attempt.attemptId ? state.attempt : null;
  // A return the page has not heard of: its amount or reason differ from the attempt's last one.
  const returnedNow = attempt.returned !== null && !sameReturn(attempt.returned, known?.returned);
  let next: TPayNowState = {
    ...state,
    attempt,
    returns: returnedNow && attempt.returned ? [...state.returns, attempt.returned] : state.returns,
  };
  const transfer = attempt.method === 'bank_transfer';
  // A one-time account the server ended is shown as expired, never with a fresh countdown.
  if (transfer && attempt.state === 'failed') next = { ...next, detailsEnded: true };
  if (attempt.state === 'awaiting_3ds') {
    next = {
      ...next,
      threeDs: {
        challengeUrl: attempt.challengeUrl ?? state.threeDs.challengeUrl,
        expiresAt: attempt.expiresAt,
      },
    };
  }
  const endedNow = attempt.state === 'failed' && known?.state !== 'failed';
  if (next.view === 'processing') {
    const late = followAwaitedCharge(next, otpDisplayMessage);
    if (late) return late;
  }
  // Money sent back is said at once, wherever the payer is waiting on the transfer.
  if (returnedNow && next.status.phase !== 'processed' && next.status.phase !== 'completed') {
    if (next.view === 'processing' || next.view === 'transfer' || next.view === 'methods') {
      return { ...failedWith(next, returnsText(next)), method: 'transfer' };
    }
  }
  // A charge this page is not waiting on (another tab's, or one resumed): the bank is answering.
  // One it is waiting on says so itself (card_slow), on the form the payer may still need.
  if (attempt.state === 'charging' && !next.card.charging && next.view === 'processing') {
    return { ...moveStatus(next, { type: 'charging' }), view: 'processing' };
  }
  // The charge's answer said it failed first; the attempt says what was charged, or that Try
  // Again goes through another processor.
  const told = attempt.charged !== null || offersTryAgainElsewhere(attempt);
  if (attempt.state === 'failed' && told && next.status.phase === 'failed') {
    const text = attemptOutcomeText(attempt, state.amountDue);
    return { ...next, status: { ...next.status, error: text, stepText: text } };
  }
  // The 3-D Secure screen has no call of its own to answer it: the server's end is its news.
  if (endedNow && (next.view === 'processing' || next.view === 'three_ds' || next.card.charging)) {
    return {
      // An account that ends after money came back: the returns again, with the new way on.
      ...(transfer && next.returns.length > 0
        ? failedWith(next, returnsText(next))
        : failed(next, attemptOutcomeText(attempt, state.amountDue))),
      card: { ...next.card, charging: false, slow: false, resending: false },
    };
  }
  return next;
}

/**
 * A read polled while the payment's stream is down, as the stream's event would have told it
 * (null while nothing has happened): the completion names where the money came from.
 */
export function eventOfRead(read: TPaymentStateResponse): TPaymentStatusEvent | null {
  if (read.status === 'pending') return null;
  return {
    paymentId: read.paymentId,
    status: read.status,
    ...(read.stepText ? { stepText: read.stepText } : {}),
    ...(read.message ? { message: read.message } : {}),
    // The attempt as read, so a poll moves the screen as the stream's event would.
    ...(read.attempt ? { attempt: read.attempt } : {}),
    ...(read.otpDisplayMessage !== null ? { otpDisplayMessage: read.otpDisplayMessage } : {}),
    ...(read.status === 'completed'
      ? {
          payerBank: read.payerBank,
          shouldPromptBankAccountLinking: read.shouldPromptBankAccountLinking,
          ...(read.method ? { paymentType: read.method } : {}),
        }
      : {}),
  };
}

/** Where the completion says the money came from (spec §3 origin). */
const originOfCompletion = (state: TPayNowState, event: TPaymentStatusEvent): TPaidOrigin => ({
  // A chip card read by the terminal is a card payment (docs/terminal.md).
  method: event.paymentType === 'card' || event.paymentType === 'chip_card' ? 'card' : 'transfer',
  // An event that does not say forgets nothing the page knew.
  payerBank: event.payerBank ?? state.origin?.payerBank ?? null,
  shouldPromptBankAccountLinking:
    event.shouldPromptBankAccountLinking ?? state.origin?.shouldPromptBankAccountLinking ?? false,
  shouldPromptCardLinking:
    event.shouldPromptCardLinking ?? state.origin?.shouldPromptCardLinking ?? false,
});

/** The read of a page opened (or reloaded) mid-payment: where the screen picks it up. */
function resume(
  state: TPayNowState,
  read: TPaymentStateResponse,
  answersCharge: boolean,
  backFromChallenge = false,
): TPayNowState {
  if (state.resumed) {
    // Paid before the page opened, the consent's copy of the origin is masked; the payer who paid
    // reads the account in full (docs/payments.md "Who sees the origin") for the prompt to name.
    return state.origin && read.payerBank
      ? {
          ...state,
          payerBank: read.payerBank,
          origin: { ...state.origin, payerBank: read.payerBank },
        }
      : state;
  }
  let next: TPayNowState = {
    ...state,
    resumed: true,
    method: methodOf(read.method) ?? state.method,
    details: read.transferDetails ?? state.details,
    payerBank: read.payerBank ?? state.payerBank,
    attempt: read.attempt,
    returns: read.attempt?.returned ? [read.attempt.returned] : [],
  };
  // Paid while the page did not watch (another tab, or before the screen drew again after a
  // sign-in): the read names where the money came from, as the completion's event does, so the
  // prompt after the payment is offered all the same.
  const news = eventOfRead(read);
  if (news?.status === 'completed') {
    return completed({ ...next, origin: originOfCompletion(next, news) });
  }
  const attempt = read.attempt;
  if (attempt?.method === 'bank_transfer' && attempt.state === 'failed') {
    next = { ...next, detailsEnded: true };
  }
  if (read.status !== 'in_progress') {
    // A transfer sent back, the last thing that happened: said, with a way on.
    if (attempt?.returned) return failed(next, returnsText(next));
    // Back from a 3-D Secure check this window opened: its refusal is said, as a page that
    // watched the stream from beside the check's tab says it.
    if (backFromChallenge && attempt?.method === 'card' && attempt.state === 'failed') {
      return failed(next, attempt.message ?? read.message);
    }
    // A charge its processor did not answer, past the asking: Try Again, through another one.
    if (attempt && offersTryAgainElsewhere(attempt)) {
      return failed(next, attemptOutcomeText(attempt, state.amountDue));
    }
    return next;
  }
  if (read.method === 'bank_transfer') {
    const received = read.stepText !== null && read.stepText !== STEP_TEXT_AWAITING_TRANSFER;
    next = moveStatus(
      next,
      { type: 'transfer_confirmation_requested' },
      ...(received ? [{ type: 'in_progress' } as const] : []),
    );
    return { ...next, view: 'processing' };
  }
  if (read.method !== 'card') return next;
  if (attempt?.state === 'awaiting_3ds') {
    return {
      ...moveStatus(next, { type: 'three_ds_started' }),
      view: 'processing',
      threeDs: { challengeUrl: attempt.challengeUrl, expiresAt: attempt.expiresAt },
    };
  }
  if (attempt?.state === 'charging') {
    return { ...moveStatus(next, { type: 'charging' }), view: 'processing' };
  }
  // A charge this page did not start (another tab's, without sign-in) is not its to answer.
  if (read.otpDisplayMessage !== null && answersCharge) {
    return {
      ...next,
      view: 'otp',
      otp: { ...next.otp, displayMessage: read.otpDisplayMessage, ended: false, error: null },
    };
  }
  return next;
}

/** The stream's answer, numbered after the last one the terminal's modal was told. */
function terminalNewsOf(
  state: TPayNowState,
  event: TPaymentStatusEvent,
): NonNullable<TPayNowState['terminalNews']> {
  const seq = (state.terminalNews?.seq ?? 0) + 1;
  if (event.status === 'completed') return { seq, news: { status: 'completed' } };
  return {
    seq,
    news: {
      status: 'failed',
      code: event.attempt?.failureCode ?? null,
      message: event.message ?? event.attempt?.message ?? null,
    },
  };
}

function onEvent(state: TPayNowState, event: TPaymentStatusEvent): TPayNowState {
  let next: TPayNowState = {
    ...state,
    payerBank: event.payerBank ?? state.payerBank,
    payerCard: event.payerCard ?? state.payerCard,
  };
  if (event.status === 'completed') next = { ...next, origin: originOfCompletion(state, event) };
  // With the terminal open, the stream's news is the chip purchase's: it began, or it failed in
  // the terminal's modal, which says so to the payer.
  if (state.terminalOpen && event.status === 'in_progress') {
    next = { ...next, report: nextAttempt(state.report, 'chip_card') };
  }
  if (state.terminalOpen && event.status === 'failed' && next.report) {
    next = { ...next, report: { ...next.report, failed: true } };
  }
  if (state.terminalOpen && event.status !== 'in_progress') {
    next = { ...next, terminalNews: terminalNewsOf(state, event) };
  }
  if (event.status === 'completed') return completed(next);
  if (event.attempt && !state.terminalOpen) {
    next = withAttempt(next, event.attempt, event.otpDisplayMessage ?? null);
  }
  if (next !== state && next.status !== state.status) return next;
  if (event.status === 'in_progress') {
    // A card's steps (OTP, 3-D Secure, charging) are answered by its own calls and views.
    if (event.paymentType === 'card' || state.method === 'card') return next;
    // The transfer in progress is the one the payer said they made, or one they made without
    // saying so (another device): either way the processing view shows it.
    const action: TPaymentStatusAction =
      event.stepText === STEP_TEXT_AWAITING_TRANSFER
        ? { type: 'transfer_confirmation_requested' }
        : { type: 'in_progress' };
    return { ...moveStatus(next, action), view: 'processing', method: 'transfer' };
  }
  // A card's failures on the card, OTP and 3-D Secure views come with their own answers.
  if (event.status === 'failed' && state.view === 'processing') {
    return failed(next, event.message);
  }
  return next;
}

type TActionOf<TType extends TPayNowAction['type']> = Extract<TPayNowAction, { type: TType }>;

/** Pay by Transfer: its account opened, the payer's 'I have made the transfer', its details. */
function transferStep(
  state: TPayNowState,
  action: TActionOf<
    'pay_by_transfer' | 'transfer_opened' | 'transfer_confirmed' | 'view_transfer_details'
  >,
): TPayNowState {
  switch (action.type) {
    case 'pay_by_transfer':
      return { ...fresh(state), method: 'transfer', view: 'transfer' };
    case 'transfer_opened':
      return {
        ...state,
        details: action.details,
        detailsEnded: false,
        report: nextAttempt(state.report, 'bank_transfer', action.details.accountNumber),
      };
    case 'transfer_confirmed': {
      const next = moveStatus(state, { type: 'transfer_confirmation_requested' });
      return action.status === 'completed'
        ? completed(next)
        : { ...next, view: 'processing', method: 'transfer' };
    }
    case 'view_transfer_details':
      return { ...state, view: 'transfer' };
  }
}

/** The charge call's answer: the PIN, OTP or 3-D Secure step it asks for, or where it ended. */
function cardAnswered(state: TPayNowState, answer: TCardChargeResponse): TPayNowState {
  const next: TPayNowState = {
    ...state,
    card: { ...state.card, charging: false, slow: false, resending: false },
  };
  if (answer.requiresPIN) return { ...next, view: 'card_pin' };
  if (answer.requiresOTP) {
    return {
      ...next,
      status: next.status.phase === 'charging' ? PAYMENT_STATUS_INITIAL : next.status,
      view: 'otp',
      otp: {
        displayMessage: answer.displayMessage ?? '',
        error: null,
        verifying: false,
        ended: false,
        round: state.otp.round + 1,
      },
    };
  }
  if (answer.requires3DS && answer.challengeUrl) {
    return {
      ...next,
      view: 'three_ds',
      threeDs: { challengeUrl: answer.challengeUrl, expiresAt: null },
    };
  }
  // The bank has the charge and has not answered: its answer comes on the stream. The call
  // itself succeeded (success: true), so this is read before success: nothing is paid yet.
  if (answer.status === 'charging') {
    const charging: TPayNowState = {
      ...moveStatus(next, { type: 'charging' }),
      view: 'processing',
      awaitedCharge: answer.transactionReference ?? null,
    };
    // Its step heard before the call came back (a signed-in page's stream is already open).
    return followAwaitedCharge(charging, null) ?? charging;
  }
  if (answer.success) return completed(next);
  return failed(next, answer.message);
}

/** The charge call answered an error: the bank's refusal, or one the form must fix. */
function cardRefused(state: TPayNowState, action: TActionOf<'card_refused'>): TPayNowState {
  const next: TPayNowState = {
    ...state,
    // Envelopes for a retired key are refused however often they are sent: the payer enters
    // the card again instead ('Pay with Card | {masked card}' and Retry Payment drop them).
    storedCard: action.unusableEnvelope ? null : state.storedCard,
    card: { ...state.card, charging: false, slow: false, resending: false },
  };
  // The bank's refusal is the payment failing; anything else is the form's to fix (also
  // for the stored card sent again: the form, to enter it, or another, anew). The attempt the
  // stream last named is the one refused: its end, heard late on the stream while the payer
  // already tries again, is news of the past, not the new charge's failure.
  if (action.paymentFailure) {
    const { attempt } = next;
    const open = attempt?.method === 'card' && !['completed', 'failed'].includes(attempt.state);
    return failed(
      { ...next, attempt: attempt && open ? { ...attempt, state: 'failed' } : attempt },
      action.message,
    );
  }
  return { ...next, view: 'card', card: { ...next.card, error: action.message } };
}

/** 'Retry Payment', 'Try Again', 'Pay with Card | {masked card}': the stored card sent again. */
function retryCard(state: TPayNowState): TPayNowState {
  if (state.card.resending) return state;
  const next = { ...fresh(state), method: 'card' as const };
  if (!state.storedCard) {
    // Through another processor the card is entered again anyway: the form, nothing missing.
    const error = offersTryAgainElsewhere(state.attempt)
      ? null
      : PAGE_ERRORS.NO_STORED_CARD_FOR_RETRY.message;
    return { ...next, view: 'card', card: { ...state.card, error } };
  }
  return { ...next, card: { ...state.card, error: null, resending: true } };
}

/** Pay with Card: the form, the card sent, its PIN, the charge's answer or refusal, a retry. */
function cardStep(
  state: TPayNowState,
  action: TActionOf<
    | 'pay_with_card'
    | 'card_submitted'
    | 'pin_submitted'
    | 'card_slow'
    | 'card_answered'
    | 'card_refused'
    | 'retry_card'
  >,
): TPayNowState {
  switch (action.type) {
    case 'pay_with_card':
      return {
        ...fresh(state),
        method: 'card',
        view: 'card',
        card: { ...state.card, error: null },
      };
    case 'card_submitted':
      return {
        ...state,
        method: 'card',
        // A charge that offered Try Again elsewhere has had its try: the offer is spent.
        attempt: state.attempt && { ...state.attempt, retryElsewhere: false },
        storedCard: action.card ?? state.storedCard,
        awaitedCharge: null,
        report: nextAttempt(state.report, 'card'),
        card: { ...state.card, error: null, charging: true, slow: false },
        signedInWhenPaid: action.signedIn,
        origin: {
          method: 'card',
          payerBank: null,
          shouldPromptBankAccountLinking: false,
          shouldPromptCardLinking: (action.card ?? state.storedCard)?.saveCard ?? false,
        },
      };
    case 'pin_submitted':
      return { ...state, card: { ...state.card, error: null, charging: true, slow: false } };
    case 'card_slow':
      return state.card.charging ? { ...state, card: { ...state.card, slow: true } } : state;
    case 'card_answered':
      return cardAnswered(state, action.answer);
    case 'card_refused':
      return cardRefused(state, action);
    case 'retry_card':
      return retryCard(state);
  }
}

/** The card's OTP: being verified, verified, or refused. */
function otpStep(
  state: TPayNowState,
  action: TActionOf<'otp_verifying' | 'otp_verified' | 'otp_refused'>,
): TPayNowState {
  switch (action.type) {
    case 'otp_verifying':
      return { ...state, otp: { ...state.otp, verifying: true, error: null } };
    case 'otp_verified':
      return completed({ ...state, otp: { ...state.otp, verifying: false } });
    case 'otp_refused':
      // spec §4: 'Insufficient funds' cannot be fixed by another try: back to the start.
      if (otpFailureAction(action.message) === 'restart') {
        return toMethods({ ...state, storedCard: null, otp: { ...state.otp, verifying: false } });
      }
      // A refused OTP ends its charge: nothing left to verify, only a new charge.
      return {
        ...state,
        otp: {
          ...state.otp,
          verifying: false,
          error: action.message,
          ended: true,
          round: state.otp.round + 1,
        },
      };
  }
}

/** The ways back: 'back', 'cancel' or 'Try Another Method', and 3-D Secure opened or cancelled. */
function leaveStep(
  state: TPayNowState,
  action: TActionOf<'back' | 'three_ds_opened' | 'three_ds_cancelled' | 'cancel'>,
): TPayNowState {
  switch (action.type) {
    case 'back':
      // From the PIN the issuer asked for, back to the card's details (a new card may follow).
      return { ...state, view: state.view === 'card_pin' ? 'card' : 'methods' };
    case 'three_ds_opened':
      return { ...moveStatus(state, { type: 'three_ds_started' }), view: 'processing' };
    case 'three_ds_cancelled':
      return action.attempt.state === 'completed'
        ? completed({ ...state, attempt: action.attempt })
        : toMethods({ ...state, attempt: action.attempt });
    case 'cancel':
      // 'Try Another Method' after 'Insufficient funds' (spec §4: another try cannot succeed):
      // the methods without that card. Refused for another reason, it is offered to send again.
      return toMethods(
        state.method === 'card' && otpFailureAction(state.status.error) === 'restart'
          ? { ...state, storedCard: null }
          : state,
      );
  }
}

/** The chip terminal's modal opened or closed, and the prompt after the payment moved on. */
function asideStep(
  state: TPayNowState,
  action: TActionOf<'terminal_opened' | 'terminal_closed' | 'prompt_step' | 'prompt_settled'>,
): TPayNowState {
  switch (action.type) {
    case 'terminal_opened':
      // Its answers are a card's: the stream's steps are the modal's to show.
      return { ...fresh(state), method: 'card', terminalOpen: true, terminalNews: null };
    case 'terminal_closed':
      return { ...state, terminalOpen: false };
    case 'prompt_step':
      return { ...state, prompt: { ...state.prompt, step: action.step } };
    case 'prompt_settled':
      return { ...state, prompt: { settled: true, step: 'ask' } };
  }
}

/** The Immediate Payment screen's reducer: every edge of it, one place. */
export function payNowReducer(state: TPayNowState, action: TPayNowAction): TPayNowState {
  switch (action.type) {
    case 'read':
      return resume(state, action.read, action.answersCharge, action.backFromChallenge);
    case 'event':
      return onEvent(state, action.event);
    case 'pay_by_transfer':
    case 'transfer_opened':
    case 'transfer_confirmed':
    case 'view_transfer_details':
      return transferStep(state, action);
    case 'pay_with_card':
    case 'card_submitted':
    case 'pin_submitted':
    case 'card_slow':
    case 'card_answered':
    case 'card_refused':
    case 'retry_card':
      return cardStep(state, action);
    case 'otp_verifying':
    case 'otp_verified':
    case 'otp_refused':
      return otpStep(state, action);
    case 'back':
    case 'three_ds_opened':
    case 'three_ds_cancelled':
    case 'cancel':
      return leaveStep(state, action);
    case 'terminal_opened':
    case 'terminal_closed':
    case 'prompt_step':
    case 'prompt_settled':
      return asideStep(state, action);
    case 'pulse':
    case 'completion_delay_elapsed':
      return moveStatus(state, action);
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled pay-now action ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The screen's header: 'Pending … due now' only while nothing is under way (spec §2). */
export function payNowHeader(state: TPayNowState): {
  badge: 'Pending' | 'In progress' | 'Completed';
  amountText: 'due now' | 'being paid' | 'paid';
} {
  const { phase } = state.status;
  if (phase === 'processed' || phase === 'completed')
    return { badge: 'Completed', amountText: 'paid' };
  if (phase === 'pending' || phase === 'failed' || phase === 'retrying')
    return { badge: 'Pending', amountText: 'due now' };
  return { badge: 'In progress', amountText: 'being paid' };
}

/** Whether 'Pay by Transfer' must ask for an account: none yet, or the one shown has ended. */
export function needsTransferAccount(state: TPayNowState, now: Date): boolean {
  const { details } = state;
  return !details || state.detailsEnded || new Date(details.expiresAt).getTime() <= now.getTime();
}

/** What the processing view offers while the payer, not the bank, is awaited. */
export function processingControls(state: TPayNowState): {
  viewTransferDetails: boolean;
  reconnect: string | null;
  cancel: 'local' | 'three_ds' | null;
} {
  const { phase } = state.status;
  if (phase === 'awaiting_transfer') {
    return { viewTransferDetails: true, reconnect: null, cancel: 'local' };
  }
  if (phase === 'awaiting_3ds') {
    return {
      viewTransferDetails: false,
      reconnect: state.threeDs.challengeUrl,
      cancel: 'three_ds',
    };
  }
  return { viewTransferDetails: false, reconnect: null, cancel: null };
}

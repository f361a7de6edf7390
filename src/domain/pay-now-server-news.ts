// What the server tells the Immediate Payment screen: an attempt's state, a read of the payment
// (on opening or reloading mid-payment), the status stream's events and the terminal's news.
import type { TPaidOrigin } from './after-payment';
import { STEP_TEXT_AWAITING_TRANSFER } from './constants';
import { offersTryAgainElsewhere } from './card-retry-elsewhere';
import { nextAttempt } from './embed-payment-report';
import { type TPaymentStatusAction } from './payment-status';
import type {
  TPaymentAttemptState,
  TPaymentStateResponse,
  TPaymentStatusEvent,
} from './schemas/payment';
import { type TPayNowState, type TStoredCard } from './pay-now-state';
import {
  returnsText,
  attemptOutcomeText,
  methodOf,
  moveStatus,
  completed,
  failed,
  failedWith,
  sameReturn,
} from './pay-now-moves';
import { followAwaitedCharge } from './pay-now-card-answers';

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

/** What the page itself holds of the payment it reads on opening. */
export type TResumeHeld = {
  /** Whether this page may answer the payment's waiting charge (its token, or sign-in). */
  answersCharge: boolean;
  /** The card this tab charged whose charge asked for its PIN, as it kept it; null for none. */
  pinCard: TStoredCard | null;
  /** The page opened again on the way back from a 3-D Secure check it opened itself. */
  backFromChallenge: boolean;
};

/** The read of a page opened (or reloaded) mid-payment: where the screen picks it up. */
export function resume(
  state: TPayNowState,
  read: TPaymentStateResponse,
  held: TResumeHeld,
): TPayNowState {
  const { answersCharge, backFromChallenge } = held;
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
  // The PIN its charge asked for, from the page that holds the card charged: the PIN step again,
  // the PIN to go beside that card's envelopes. A page without the card has nothing to send.
  if (attempt?.state === 'awaiting_pin' && answersCharge && held.pinCard) {
    return { ...next, method: 'card', view: 'card_pin', storedCard: held.pinCard };
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

export function onEvent(state: TPayNowState, event: TPaymentStatusEvent): TPayNowState {
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

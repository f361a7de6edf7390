import type { TPaidOrigin } from './after-payment';
import { PAYMENT_STATUS_INITIAL, paymentStatusReducer } from './payment-status';
import { type TPayNowState, type TPayNowAction } from './pay-now-state';
import { moveStatus } from './pay-now-moves';
import { resume, onEvent } from './pay-now-server-news';
import { transferStep, cardStep, otpStep, leaveStep, asideStep } from './pay-now-steps';

/*
 * The Immediate Payment screen (spec §2, §4) as one state machine: which view shows, how the
 * payer is paying, the card's OTP and 3-D Secure steps, the payment's status (the payment-status
 * reducer, composed), what the server said of the latest attempt, and the prompt after the
 * payment. The page draws this state and sends it what happened; it keeps no view of its own.
 * Its state is pay-now-state.ts; its edges are pay-now-steps.ts (the payer's steps),
 * pay-now-card-answers.ts (the charge's answers) and pay-now-server-news.ts (what the server says).
 */

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

/** The Immediate Payment screen's reducer: every edge of it, one place. */
export function payNowReducer(state: TPayNowState, action: TPayNowAction): TPayNowState {
  switch (action.type) {
    case 'read':
      return resume(state, action.read, {
        answersCharge: action.answersCharge,
        pinCard: action.pinCard ?? null,
        backFromChallenge: action.backFromChallenge ?? false,
      });
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

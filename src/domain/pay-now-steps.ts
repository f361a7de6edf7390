// The Immediate Payment screen's steps: Pay by Transfer, Pay with Card (the charge, its PIN,
// OTP and answers, a retry), the ways back, and the chip terminal's modal and the prompt after.
import { offersTryAgainElsewhere } from './card-retry-elsewhere';
import { nextAttempt } from './embed-payment-report';
import { PAGE_ERRORS } from './page-errors';
import { otpFailureAction } from './otp-input';
import { type TPayNowState, type TPayNowAction } from './pay-now-state';
import { moveStatus, fresh, toMethods, completed, failed } from './pay-now-moves';
import { cardAnswered } from './pay-now-card-answers';

type TActionOf<TType extends TPayNowAction['type']> = Extract<TPayNowAction, { type: TType }>;

/** Pay by Transfer: its account opened, the payer's 'I have made the transfer', its details. */
export function transferStep(
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
export function cardStep(
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
export function otpStep(
  state: TPayNowState,
  action: TActionOf<'otp_verifying' | 'otp_verified' | 'otp_refused'>,
): TPayNowState {
  switch (action.type) {
    case 'otp_verifying':
      return { ...state, otp: { ...state.otp, verifying: true, error: null } };
    case 'otp_verified': {
      const verified = { ...state, otp: { ...state.otp, verifying: false } };
      // Its bank did not answer the OTP: the charge is followed until its end comes.
      if (action.answer.status === 'charging') {
        const { status, transactionReference } = action.answer;
        return cardAnswered(verified, { success: true, status, transactionReference });
      }
      return completed(verified);
    }
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
export function leaveStep(
  state: TPayNowState,
  action: TActionOf<'back' | 'three_ds_opened' | 'three_ds_cancelled' | 'cancel'>,
): TPayNowState {
  switch (action.type) {
    case 'back':
      // From the PIN the issuer asked for, back to the card's details (a new card may follow).
      return { ...state, view: state.view === 'card_pin' ? 'card' : 'methods' };
    case 'three_ds_opened':
      return { ...moveStatus(state, { type: 'three_ds_started' }), view: 'processing' };
    case 'three_ds_cancelled': {
      const withAttempt = { ...state, attempt: action.attempt };
      if (action.attempt.state === 'completed') return completed(withAttempt);
      // Its bank did not say whether the check was answered: followed until its end comes.
      if (action.attempt.state === 'charging') {
        const transactionReference = action.attempt.attemptId;
        return cardAnswered(withAttempt, {
          success: true,
          status: 'charging',
          transactionReference,
        });
      }
      return toMethods(withAttempt);
    }
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
export function asideStep(
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

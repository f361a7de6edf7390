// Pay with Card's answers on the Immediate Payment screen: the charge call's answer (the PIN, OTP
// or 3-D Secure step it asks for, or where it ended), and the step a charge this page awaits
// asks for once its attempt waits on the payer, however the news came.
import { PAYMENT_STATUS_INITIAL } from './payment-status';
import type { TCardChargeResponse } from './schemas/card';
import { type TPayNowState } from './pay-now-state';
import { moveStatus, completed, failed } from './pay-now-moves';

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
export function followAwaitedCharge(
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

/** The charge call's answer: the PIN, OTP or 3-D Secure step it asks for, or where it ended. */
export function cardAnswered(state: TPayNowState, answer: TCardChargeResponse): TPayNowState {
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

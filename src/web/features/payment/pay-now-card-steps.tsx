import type { Dispatch } from 'react';
import { STEP_TEXT_BANK_ANSWERING, STEP_TEXT_RETRYING } from '../../../domain/constants';
import type { TPayNowAction, TPayNowState } from '../../../domain/pay-now-state';
import { PartBoundary } from '../../ui/part-boundary';
import { Spinner } from '../../ui/spinner';
import { OtpEndedView } from './otp-ended-view';
import { CardStepLoading } from './pay-now-loading';
import { AskedPinView, CardFormView, OtpView, ThreeDsView } from './pay-now-views';
import type { TCardCharge } from './use-card-charge';

type TCardStepsProps = {
  state: TPayNowState;
  card: TCardCharge;
  dispatch: Dispatch<TPayNowAction>;
};

/**
 * Pay with Card's steps, whichever the screen is at: the card's details, the PIN its issuer asked
 * for, the OTP (or its end), the 3-D Secure check, and the lines said while the bank answers.
 */
export function CardSteps({ state, card, dispatch }: TCardStepsProps) {
  const { view } = state;
  return (
    <>
      {view === 'card' ? (
        <PartBoundary loading={<CardStepLoading />}>
          <CardFormView
            onSubmit={card.submitCard}
            error={state.card.error}
            onBack={() => dispatch({ type: 'back' })}
          />
        </PartBoundary>
      ) : null}
      {view === 'card_pin' ? (
        <PartBoundary loading={<CardStepLoading />}>
          <AskedPinView
            working={state.card.charging}
            error={state.card.error}
            onSubmit={card.submitPin}
            onBack={() => dispatch({ type: 'back' })}
          />
        </PartBoundary>
      ) : null}
      {/* Under the card's details or its PIN: the charge is out, and the bank slow to answer. */}
      {(view === 'card' || view === 'card_pin') && state.card.slow ? (
        <p className="loading-line" role="status">
          <Spinner small /> {STEP_TEXT_BANK_ANSWERING} Please keep this page open.
        </p>
      ) : null}

      {view === 'otp' && state.otp.ended ? (
        <OtpEndedView error={state.otp.error} onRetry={card.retryCard} />
      ) : null}
      {view === 'otp' && !state.otp.ended ? (
        <PartBoundary loading={<CardStepLoading />}>
          <OtpView
            // A new charge's OTP screen, or one whose OTP was refused, starts afresh: empty boxes.
            key={state.otp.round}
            displayMessage={state.otp.displayMessage}
            verifying={state.otp.verifying}
            error={state.otp.error}
            onVerify={(otp) => void card.verifyOtp(otp)}
            onRetry={card.retryCard}
          />
        </PartBoundary>
      ) : null}
      {state.card.resending && view !== 'processing' ? (
        <p className="loading-line" role="status">
          <Spinner small /> {STEP_TEXT_RETRYING}
        </p>
      ) : null}

      {view === 'three_ds' && state.threeDs.challengeUrl ? (
        <PartBoundary loading={<CardStepLoading />}>
          <ThreeDsView
            challengeUrl={state.threeDs.challengeUrl}
            // The payment's read picks the attempt up when the payer comes back.
            returnsHere
            onOpened={() => dispatch({ type: 'three_ds_opened' })}
          />
        </PartBoundary>
      ) : null}
    </>
  );
}

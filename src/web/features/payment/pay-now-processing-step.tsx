import type { Dispatch } from 'react';
import type { TAfterPaymentPrompt } from '../../../domain/after-payment';
import { offersTryAgainElsewhere } from '../../../domain/card-retry-elsewhere';
import { paymentSourceText } from '../../../domain/pay-now';
import { processingControls } from '../../../domain/pay-now-screen';
import { type TPayNowAction, type TPayNowState } from '../../../domain/pay-now-state';
import type { TPayment } from '../../../domain/schemas/consent';
import type { TPayNowPrompts } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { PartBoundary } from '../../ui/part-boundary';
import { Spinner } from '../../ui/spinner';
import { messageOf } from './pay-now-errors';
import { CardStepLoading } from './pay-now-loading';
import { AfterPaymentPrompt } from './pay-now-views';
import { ProcessingView } from './processing-view';
import type { TPaymentCalls } from './use-payment-calls';

type TProcessingStepProps = {
  state: TPayNowState;
  payment: TPayment;
  prompts: TPayNowPrompts;
  /** The prompt after the payment, once it is completed (src/domain/after-payment.ts). */
  prompt: TAfterPaymentPrompt | null;
  calls: TPaymentCalls;
  /** The grant is on its way, or why it failed. */
  granting: boolean;
  grantError: string | null;
  onGrantAgain(): void;
  onViewTransferDetails(): void;
  onRetry(): void;
  dispatch: Dispatch<TPayNowAction>;
};

/** The payment on its way (the processing view), the prompt after it, then the consent's grant. */
export function ProcessingStep({
  state,
  payment,
  prompts,
  prompt,
  calls,
  granting,
  grantError,
  onGrantAgain,
  onViewTransferDetails,
  onRetry,
  dispatch,
}: TProcessingStepProps) {
  const controls = processingControls(state);
  const { cancelThreeDs } = calls;
  return (
    <>
      <ProcessingView
        state={state.status}
        source={paymentSourceText({
          method: state.method,
          payerBank: state.payerBank,
          payerCard: state.payerCard,
        })}
        showTransferDetails={controls.viewTransferDetails}
        reconnectUrl={controls.reconnect}
        canCancel={controls.cancel !== null}
        cancelling={cancelThreeDs.isPending}
        cancelError={cancelThreeDs.error ? messageOf(cancelThreeDs.error) : null}
        onCancel={() =>
          controls.cancel === 'three_ds' ? cancelThreeDs.mutate() : dispatch({ type: 'cancel' })
        }
        onViewTransferDetails={onViewTransferDetails}
        tryAgainElsewhere={offersTryAgainElsewhere(state.attempt)}
        onRetry={onRetry}
        onTryAnotherMethod={() => dispatch({ type: 'cancel' })}
      />
      {prompt ? (
        <PartBoundary loading={<CardStepLoading />}>
          <AfterPaymentPrompt
            prompt={prompt}
            amount={payment.amount}
            paymentId={payment.paymentId}
            prompts={prompts}
            step={state.prompt.step}
            onStep={(step) => dispatch({ type: 'prompt_step', step })}
            onSettled={() => dispatch({ type: 'prompt_settled' })}
          />
        </PartBoundary>
      ) : null}
      {granting ? (
        <p className="loading-line" role="status">
          <Spinner small /> Completing consent...
        </p>
      ) : null}
      {grantError ? (
        <div className="failure" role="alert">
          <p>{grantError}</p>
          <Button onClick={onGrantAgain}>Try Again</Button>
        </div>
      ) : null}
    </>
  );
}

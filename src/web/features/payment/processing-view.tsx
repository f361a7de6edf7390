import {
  failedPaymentMainAction,
  paymentProgressSteps,
  ringFigure,
  type TPaymentStatusState,
} from '../../../domain/payment-status';
import { Button } from '../../ui/button';
import { PartBoundary } from '../../ui/part-boundary';
import { preloadable } from '../../ui/preloadable';

// The wait for a 3-D Secure check, which says where it opens (an app's browser, or one that
// opened no tab: this window): loaded with the wait, off the first screen.
const ThreeDsWaiting = preloadable(() =>
  import('../../ui/card/three-ds-waiting').then((module) => module.ThreeDsWaiting),
);

type TProcessingViewProps = {
  state: TPaymentStatusState;
  /** What paid: 'Bank transfer' until the bank names the sender's account. */
  source: string;
  /** A transfer's details can be shown again while it is awaited. */
  showTransferDetails: boolean;
  /** While a 3-D Secure challenge is awaited: its address, for Reconnect (spec §2). */
  reconnectUrl: string | null;
  /** While the payer, not the bank, is awaited: the attempt can be ended. */
  canCancel: boolean;
  cancelling: boolean;
  cancelError: string | null;
  onCancel(): void;
  onViewTransferDetails(): void;
  /**
   * The failed card charge's processor did not answer and took nothing: 'Try Again' leads, and
   * goes through another processor (src/domain/card-retry-elsewhere.ts).
   */
  tryAgainElsewhere?: boolean;
  onRetry(): void;
  onTryAnotherMethod(): void;
};

const RING_RADIUS = 52;
const RING_LENGTH = 2 * Math.PI * RING_RADIUS;

/**
 * The payment processing view (spec §2, §4): the progress ring with its step text, the steps
 * 'Payment Received' and 'Payment Processed', the payment source, and what the payer can do in
 * each state. It renders the domain's payment-status state; it decides nothing itself.
 */
export function ProcessingView({
  state,
  source,
  showTransferDetails,
  reconnectUrl,
  canCancel,
  cancelling,
  cancelError,
  onCancel,
  onViewTransferDetails,
  tryAgainElsewhere = false,
  onRetry,
  onTryAnotherMethod,
}: TProcessingViewProps) {
  const failed = state.phase === 'failed';
  const completed = state.phase === 'completed';
  const figure = ringFigure(state);
  return (
    <div className="processing">
      {/* Failed, the ring is a whole red circle with no figure; the text below says it failed. */}
      <div
        className="progress-ring"
        {...(figure === null
          ? { 'aria-hidden': true }
          : {
              role: 'progressbar',
              'aria-valuemin': 0,
              'aria-valuemax': 100,
              'aria-valuenow': figure,
              'aria-label': 'Payment progress',
            })}
      >
        <svg viewBox="0 0 120 120" aria-hidden="true">
          <circle className="ring-track" cx="60" cy="60" r={RING_RADIUS} />
          <circle
            className={failed ? 'ring-value failed' : 'ring-value'}
            cx="60"
            cy="60"
            r={RING_RADIUS}
            strokeDasharray={RING_LENGTH}
            strokeDashoffset={RING_LENGTH * (1 - state.progress / 100)}
          />
        </svg>
        {figure === null ? null : <span className="ring-label">{figure}%</span>}
      </div>
      <p className="step-text" role="status">
        {completed ? '✓ Payment Successful' : failed ? '✗ Payment Failed' : state.stepText}
      </p>
      <ol className="progress-steps">
        {paymentProgressSteps(state).map((step) => (
          <li key={step.label} className={step.done ? 'done' : undefined}>
            <span aria-hidden="true">{step.done ? '✓' : '○'}</span> {step.label}
            <span className="visually-hidden">{step.done ? ', done' : ', not yet'}</span>
          </li>
        ))}
      </ol>
      <div className="payment-source">
        <span className="secondary-text">Payment Source</span>
        <span>{source}</span>
      </div>
      {failed ? (
        <div className="failure" role="alert">
          <h2 className="section-title">Payment Failed</h2>
          <p>{state.error}</p>
          <FailedPaymentActions
            anotherMethodLeads={
              !tryAgainElsewhere && failedPaymentMainAction(state) === 'another_method'
            }
            retryLabel={tryAgainElsewhere ? 'Try Again' : 'Retry Payment'}
            onRetry={onRetry}
            onTryAnotherMethod={onTryAnotherMethod}
          />
        </div>
      ) : null}
      {reconnectUrl ? (
        <PartBoundary loading={null}>
          <ThreeDsWaiting challengeUrl={reconnectUrl} />
        </PartBoundary>
      ) : null}
      {canCancel && !failed ? (
        <div className="actions">
          {showTransferDetails ? (
            <Button variant="secondary" onClick={onViewTransferDetails}>
              View Transfer Details
            </Button>
          ) : null}
          <Button variant="link" onClick={onCancel} disabled={cancelling} aria-busy={cancelling}>
            cancel
          </Button>
        </div>
      ) : null}
      {cancelError ? (
        <p className="form-error" role="alert">
          {cancelError}
        </p>
      ) : null}
    </div>
  );
}

/**
 * 'Retry Payment' (or 'Try Again', through another processor) and 'Try Another Method' (spec
 * §2), the main one first: another way to pay where the same card would be refused again
 * (failedPaymentMainAction), else the retry.
 */
function FailedPaymentActions({
  anotherMethodLeads,
  retryLabel,
  onRetry,
  onTryAnotherMethod,
}: {
  anotherMethodLeads: boolean;
  retryLabel: 'Retry Payment' | 'Try Again';
  onRetry(): void;
  onTryAnotherMethod(): void;
}) {
  const retry = (
    <Button variant={anotherMethodLeads ? 'secondary' : 'primary'} onClick={onRetry}>
      {retryLabel}
    </Button>
  );
  const another = (
    <Button variant={anotherMethodLeads ? 'primary' : 'secondary'} onClick={onTryAnotherMethod}>
      Try Another Method
    </Button>
  );
  return (
    <div className="actions">
      {anotherMethodLeads ? another : retry}
      {anotherMethodLeads ? retry : another}
    </div>
  );
}

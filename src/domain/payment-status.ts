import {
  MOCK_PROGRESS_STEP_MS,
  PAYMENT_COMPLETION_DELAY_MS,
  PROGRESS_AWAITING_3DS,
  PROGRESS_COMPLETE,
  PROGRESS_PAYMENT_PROCESSED,
  PROGRESS_PAYMENT_RECEIVED,
  PROGRESS_PULSE_STEP,
  STEP_TEXT_AWAITING_3DS,
  STEP_TEXT_RETRYING,
  STEP_TEXT_AWAITING_TRANSFER,
  STEP_TEXT_BANK_ANSWERING,
} from './constants';
import { cardRefusalIn, type TCardRefusal } from './card-refusal-text';
import { PAGE_ERRORS } from './page-errors';

/** The four payment statuses of spec §4. */
export type TPaymentStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

/** Where a payment stands in the processing view; each phase has one status. */
export type TPaymentPhase =
  /** Nothing under way: not started yet, or cancelled (progress 0). */
  | 'pending'
  /** The payer says they transferred: in progress, 'Payment Received' at 33 (spec §2, §4), the
   * bank's confirmation awaited ('View Transfer Details' and cancel stay reachable). */
  | 'awaiting_transfer'
  /** A card's bank has the charge and has not answered yet (the page says so, 0–32). */
  | 'charging'
  /** Waiting for the payer to finish 3-D Secure in another tab (25). */
  | 'awaiting_3ds'
  /** A failed payment is being tried again (from 0). */
  | 'retrying'
  /** The server reported the payment in progress: 'Payment Received' (33). */
  | 'received'
  /** The server reported it completed: 'Payment Processed' (66); success shows after the delay. */
  | 'processed'
  /** Terminal: the payment succeeded (100). Nothing leaves it. */
  | 'completed'
  /**
   * Terminal: the payment failed with a message. Left only by retry or cancel. Its ring is whole,
   * in the failure colour, with no figure: the payment ended, it was not partly done (ringFigure).
   */
  | 'failed';

export type TPaymentStatusState = {
  phase: TPaymentPhase;
  status: TPaymentStatus;
  /** 0–100, shown by the progress ring. */
  progress: number;
  /** The step text under the ring; empty while pending. */
  stepText: string;
  /** Why the payment failed; null unless failed. */
  error: string | null;
};

export type TPaymentStatusAction =
  /** 'I have made the transfer' (spec §2). */
  | { type: 'transfer_confirmation_requested' }
  /** The payer opened the 3-D Secure challenge. */
  | { type: 'three_ds_started' }
  /** The card's bank has the charge and has not answered yet. */
  | { type: 'charging' }
  /** Payment-status stream: status in_progress. */
  | { type: 'in_progress' }
  /** Payment-status stream: status completed. */
  | { type: 'completed' }
  /** PAYMENT_COMPLETION_DELAY_MS after 'completed'; the page's timer sends it. */
  | { type: 'completion_delay_elapsed' }
  | { type: 'failed'; message?: string | null | undefined }
  /** 'Retry Payment'. */
  | { type: 'retry' }
  /** 'cancel' or 'Try Another Method'. */
  | { type: 'cancel' }
  /** One beat of the progress animation, every MOCK_PROGRESS_STEP_MS. */
  | { type: 'pulse' };

/** The timings the page schedules around this reducer (spec §4, §9). */
export const PAYMENT_STATUS_TIMINGS = {
  completionDelayMs: PAYMENT_COMPLETION_DELAY_MS,
  pulseIntervalMs: MOCK_PROGRESS_STEP_MS,
} as const;

const STATUS_OF: Readonly<Record<TPaymentPhase, TPaymentStatus>> = {
  pending: 'pending',
  awaiting_transfer: 'in_progress',
  charging: 'in_progress',
  awaiting_3ds: 'in_progress',
  retrying: 'in_progress',
  received: 'in_progress',
  processed: 'in_progress',
  completed: 'completed',
  failed: 'failed',
};

/**
 * How far a pulse may carry the bar in each phase: just short of the next milestone, so the step
 * ticks ('Payment Received' at 33, 'Payment Processed' at 66) never claim what has not happened.
 * Zero means the phase does not pulse.
 */
const PULSE_CEILING: Readonly<Record<TPaymentPhase, number>> = {
  pending: 0,
  awaiting_transfer: 0,
  charging: PROGRESS_PAYMENT_RECEIVED - 1,
  awaiting_3ds: PROGRESS_PAYMENT_RECEIVED - 1,
  retrying: PROGRESS_PAYMENT_RECEIVED - 1,
  received: PROGRESS_PAYMENT_PROCESSED - 1,
  processed: PROGRESS_COMPLETE - 1,
  completed: 0,
  failed: 0,
};

const enter = (
  phase: TPaymentPhase,
  progress: number,
  stepText: string,
  error: string | null = null,
): TPaymentStatusState => ({ phase, status: STATUS_OF[phase], progress, stepText, error });

export const PAYMENT_STATUS_INITIAL: TPaymentStatusState = enter('pending', 0, '');

/** Phases in which the server has not yet reported the payment completed. */
const BEFORE_SERVER_RESULT: ReadonlySet<TPaymentPhase> = new Set([
  'pending',
  'awaiting_transfer',
  'charging',
  'awaiting_3ds',
  'retrying',
  'received',
]);

const can = (state: TPaymentStatusState, ...from: TPaymentPhase[]): boolean =>
  from.includes(state.phase);

/**
 * The payment-status state machine (spec §4 Payment status). Progress only moves forward except
 * on retry and cancel; an action a phase does not accept returns the same state object. Once the
 * server reports completion (processed, completed) the payment cannot be cancelled or failed:
 * money has moved.
 */
export function paymentStatusReducer(
  state: TPaymentStatusState,
  action: TPaymentStatusAction,
): TPaymentStatusState {
  switch (action.type) {
    case 'transfer_confirmation_requested':
      return can(state, 'pending', 'retrying')
        ? enter('awaiting_transfer', PROGRESS_PAYMENT_RECEIVED, STEP_TEXT_AWAITING_TRANSFER)
        : state;
    case 'charging':
      return can(state, 'pending', 'retrying')
        ? enter('charging', 0, STEP_TEXT_BANK_ANSWERING)
        : state;
    case 'three_ds_started':
      return can(state, 'pending', 'retrying', 'charging')
        ? enter(
            'awaiting_3ds',
            Math.max(state.progress, PROGRESS_AWAITING_3DS),
            STEP_TEXT_AWAITING_3DS,
          )
        : state;
    case 'in_progress':
      return can(state, 'pending', 'awaiting_transfer', 'charging', 'awaiting_3ds', 'retrying')
        ? enter('received', Math.max(state.progress, PROGRESS_PAYMENT_RECEIVED), 'Payment Received')
        : state;
    case 'completed':
      return BEFORE_SERVER_RESULT.has(state.phase)
        ? enter(
            'processed',
            Math.max(state.progress, PROGRESS_PAYMENT_PROCESSED),
            'Payment Processed',
          )
        : state;
    case 'completion_delay_elapsed':
      return can(state, 'processed')
        ? enter('completed', PROGRESS_COMPLETE, 'Payment Processed')
        : state;
    case 'failed': {
      if (!BEFORE_SERVER_RESULT.has(state.phase)) return state;
      const message = action.message?.trim() || PAGE_ERRORS.PAYMENT_FAILED.message;
      return enter('failed', PROGRESS_COMPLETE, message, message);
    }
    case 'retry':
      return can(state, 'failed') ? enter('retrying', 0, STEP_TEXT_RETRYING) : state;
    case 'cancel':
      return can(state, 'awaiting_transfer', 'awaiting_3ds', 'retrying', 'received', 'failed')
        ? PAYMENT_STATUS_INITIAL
        : state;
    case 'pulse': {
      const ceiling = PULSE_CEILING[state.phase];
      if (state.progress >= ceiling) return state;
      return { ...state, progress: Math.min(state.progress + PROGRESS_PULSE_STEP, ceiling) };
    }
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled payment-status action ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The ring's figure (spec §4 progress percentage), or null once failed: an end, not a part done. */
export const ringFigure = (
  state: Pick<TPaymentStatusState, 'progress' | 'phase'>,
): number | null => (state.phase === 'failed' ? null : state.progress);

/**
 * The processing view's step list (spec §2): 'Payment Received' is done from 33, 'Payment
 * Processed' from 66. A failed payment has neither: a failure after 33 (a transfer returned) did
 * not leave the money received.
 */
export function paymentProgressSteps(
  state: Pick<TPaymentStatusState, 'progress' | 'phase'>,
): Array<{ label: 'Payment Received' | 'Payment Processed'; done: boolean }> {
  const { progress } = state;
  const standing = state.phase !== 'failed';
  return [
    { label: 'Payment Received', done: standing && progress >= PROGRESS_PAYMENT_RECEIVED },
    { label: 'Payment Processed', done: standing && progress >= PROGRESS_PAYMENT_PROCESSED },
  ];
}

/**
 * The issuer's refusals that the same card meets again however often it is sent: the bank said
 * no to the money itself. (A wrong PIN or card detail is the card's entry, not the money's.)
 */
const REFUSALS_A_RETRY_MEETS_AGAIN: ReadonlySet<TCardRefusal> = new Set([
  'insufficient_funds',
  'declined',
]);

/**
 * The failed payment's main action (spec §2 'Payment Failed': 'Try Another Method' and 'Retry
 * Payment', both shown): 'Retry Payment', unless the failure is one another try of the same card
 * cannot fix, where the main action is another way to pay and the retry stays beside it (the
 * payer may have topped up, or called their bank).
 */
export function failedPaymentMainAction(
  state: Pick<TPaymentStatusState, 'phase' | 'error'>,
): 'retry' | 'another_method' {
  const refusal = state.phase === 'failed' ? cardRefusalIn(state.error) : null;
  return refusal !== null && REFUSALS_A_RETRY_MEETS_AGAIN.has(refusal) ? 'another_method' : 'retry';
}

import { useEffect, useEffectEvent, useMemo, useReducer, type Dispatch } from 'react';
import { CARD_SLOW_AFTER_MS } from '../../../domain/constants';
import { paymentReport, type TPaymentReport } from '../../../domain/embed-payment-report';
import { paidOriginOf } from '../../../domain/after-payment';
import { payNowInitial, payNowReducer } from '../../../domain/pay-now-screen';
import { type TPayNowAction, type TPayNowState } from '../../../domain/pay-now-state';
import { PAYMENT_STATUS_TIMINGS } from '../../../domain/payment-status';
import type { TPayment } from '../../../domain/schemas/consent';
import { paymentsApi, usePaymentQuery, type TPayer } from '../../api/payments';
import { heldPinCard } from '../../api/pin-card';
import { takeThreeDsReturn } from '../../ui/card/three-ds-return';
import { AfterPaymentPrompt } from './pay-now-views';
import { usePaymentEvents } from './use-payment-events';

/** Phases whose progress ring pulses (spec §4: by +3 up to the next step). */
const PULSING = new Set(['charging', 'awaiting_3ds', 'retrying', 'received', 'processed']);

/** The screen's state: at its end when paid before the page opened, else at the methods. */
export function usePayNowState(payment: TPayment) {
  const paid = payment.status === 'executed';
  return useReducer(
    payNowReducer,
    { paid, amountDue: payment.amount, origin: payment.origin },
    (input) =>
      payNowInitial({
        paid: input.paid,
        amountDue: input.amountDue,
        origin: input.paid ? paidOriginOf(input.origin) : null,
        method: input.origin?.paymentMethod === 'card' ? 'card' : 'transfer',
      }),
  );
}

/** Tells the embedding parent each change of where the payment stands. */
export function usePaymentReport(
  paymentId: string,
  state: TPayNowState,
  onPaymentStatus: ((report: TPaymentReport) => void) | undefined,
) {
  const report = useMemo(
    () => paymentReport(paymentId, state.status.phase, state.report),
    [paymentId, state.status.phase, state.report],
  );
  const tellPaymentStatus = useEffectEvent((told: TPaymentReport) => onPaymentStatus?.(told));
  useEffect(() => {
    if (report) tellPaymentStatus(report);
  }, [report]);
}

/**
 * Where the payment stood when the page opened: a reload mid-payment resumes there, and the
 * stream follows from that read on (without the read, from the payment's first event). Paid
 * before the page opened, the payer who paid reads where the money came from (the consent
 * read names no account: docs/payments.md "Who reads a payment"), for the prompt to link it;
 * a page that did not pay it reads nothing, and offers nothing.
 */
export function usePaymentRead(
  paymentId: string,
  payer: TPayer,
  dispatch: Dispatch<TPayNowAction>,
  following: boolean,
) {
  const read = usePaymentQuery(paymentId, payer, true);
  useEffect(() => {
    if (read.data) {
      dispatch({
        type: 'read',
        read: read.data,
        answersCharge: paymentsApi.answersCharge(paymentId, payer),
        pinCard: heldPinCard(paymentId),
        backFromChallenge: takeThreeDsReturn(),
      });
    }
    // The payer's identity is in the query's key: one read, applied once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [read.data, paymentId]);
  const streamFrom = read.data ? read.data.lastEventId : read.isError ? 0 : null;

  usePaymentEvents(paymentId, payer, following, streamFrom, (event) =>
    dispatch({ type: 'event', event }),
  );
  return read;
}

/**
 * The screen's clocks: the ring's pulse, the 3 s between 'completed' and success (spec §4), the
 * prompt's code fetched while the payment is on its way, and the bank still answering a charge.
 */
export function usePaymentClocks(state: TPayNowState, dispatch: Dispatch<TPayNowAction>) {
  const { phase } = state.status;
  useEffect(() => {
    if (!PULSING.has(phase)) return;
    const timer = setInterval(
      () => dispatch({ type: 'pulse' }),
      PAYMENT_STATUS_TIMINGS.pulseIntervalMs,
    );
    return () => clearInterval(timer);
  }, [phase, dispatch]);
  useEffect(() => {
    if (phase !== 'processed') return;
    const timer = setTimeout(
      () => dispatch({ type: 'completion_delay_elapsed' }),
      PAYMENT_STATUS_TIMINGS.completionDelayMs,
    );
    return () => clearTimeout(timer);
  }, [phase, dispatch]);
  // A payment on its way: what may follow it is fetched meanwhile, so it shows at once.
  useEffect(() => {
    if (state.view === 'processing') void AfterPaymentPrompt.preload().catch(() => undefined);
  }, [state.view]);
  // A charge out for a while: the page says the bank is still answering.
  useEffect(() => {
    if (!state.card.charging) return;
    const timer = setTimeout(() => dispatch({ type: 'card_slow' }), CARD_SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state.card.charging, dispatch]);
}

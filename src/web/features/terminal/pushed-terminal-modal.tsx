import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useReducer, useRef, type Dispatch } from 'react';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { formatNaira } from '../../../domain/money';
import {
  PUSHED_TERMINAL_INITIAL,
  PUSHED_TERMINAL_STEP_LABELS,
  pushedTerminalBadge,
  pushedTerminalBusy,
  pushedTerminalCanRetry,
  pushedTerminalOffersClose,
  pushedTerminalInstruction,
  pushedTerminalReducer,
  pushedTerminalStallMs,
  type TPushedTerminalAction,
  type TPushedTerminalState,
} from '../../../domain/pushed-terminal';
import { ApiError } from '../../api/api-error';
import { cardTerminalApi } from '../../api/card-terminal-calls';
import type { TPushedTerminalProps } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import './terminal.css';

type TDispatch = Dispatch<TPushedTerminalAction>;

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : ERROR_CATALOGUE.API_REQUEST_FAILED.message;

/** The merchant's terminals for this payment, read when the modal opens and on Try Again. */
function useTerminals({ paymentId, payer }: TPushedTerminalProps, dispatch: TDispatch) {
  const terminals = useQuery({
    queryKey: ['payment-terminals', paymentId, payer.signedIn, payer.consentId],
    queryFn: ({ signal }) => cardTerminalApi.paymentTerminals(paymentId, payer, signal),
    retry: false,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  useEffect(() => {
    if (terminals.data) dispatch({ type: 'terminals_loaded', terminals: terminals.data.terminals });
  }, [terminals.data, dispatch]);
  useEffect(() => {
    if (terminals.error)
      dispatch({ type: 'terminals_failed', message: messageOf(terminals.error) });
  }, [terminals.error, dispatch]);
  return terminals;
}

/**
 * Sends the payment to the chosen terminal each time the reducer asks for a send (`sends` grows):
 * once per send, however often the effect runs.
 */
function usePush(
  { paymentId, payer }: TPushedTerminalProps,
  state: TPushedTerminalState,
  dispatch: TDispatch,
) {
  const sent = useRef(0);
  const { step, sends, terminal } = state;
  const { signedIn, consentId } = payer;
  useEffect(() => {
    if (step !== 'sending' || !terminal || sent.current === sends) return;
    sent.current = sends;
    cardTerminalApi
      .pushToTerminal({ paymentId, terminalId: terminal.id, ...(signedIn ? {} : { consentId }) })
      .then(
        () => dispatch({ type: 'push_answered' }),
        (error: unknown) =>
          dispatch({
            type: 'push_refused',
            code: error instanceof ApiError ? error.code : null,
            message: messageOf(error),
          }),
      );
  }, [step, sends, terminal, paymentId, signedIn, consentId, dispatch]);
}

/** The stream's news, told to the reducer once each; a send or wait past its stall time, too. */
function useTerminalAnswer(
  news: TPushedTerminalProps['news'],
  state: TPushedTerminalState,
  dispatch: TDispatch,
) {
  useEffect(() => {
    if (news) dispatch({ type: 'payment_news', news: news.news });
  }, [news, dispatch]);
  const stallMs = pushedTerminalStallMs(state);
  useEffect(() => {
    if (stallMs === null) return;
    const timer = setTimeout(() => dispatch({ type: 'wait_stalled' }), stallMs);
    return () => clearTimeout(timer);
  }, [stallMs, state.step, state.sends, dispatch]);
}

type TChoiceProps = { state: TPushedTerminalState; dispatch: TDispatch };

/** The merchant's terminals, one button each: the one pressed is sent the payment. */
function TerminalChoice({ state, dispatch }: TChoiceProps) {
  return (
    <div className="terminal-choice" role="group" aria-label="Terminals">
      {(state.terminals ?? []).map((terminal) => (
        <button
          key={terminal.id}
          type="button"
          className="terminal-option"
          onClick={() => dispatch({ type: 'terminal_chosen', terminal })}
        >
          <span className="terminal-option-name">{terminal.name}</span>
          <span className="terminal-option-note">Pay at this terminal</span>
        </button>
      ))}
    </div>
  );
}

/**
 * The Chip Card Terminal modal (spec §2) where the terminal is the merchant's certified one: the
 * payment is pushed to it, and the payer inserts or taps the card and enters the PIN there. Where
 * it stands is the domain's reducer (pushed-terminal.ts), told by the push's answer and by the
 * payment's stream, which the Immediate Payment screen follows and hands down as `news`.
 */
export function PushedTerminalModal(props: TPushedTerminalProps) {
  const { amount, news, onClose } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [state, dispatch] = useReducer(pushedTerminalReducer, PUSHED_TERMINAL_INITIAL);
  const terminals = useTerminals(props, dispatch);
  usePush(props, state, dispatch);
  useTerminalAnswer(news, state, dispatch);

  useEffect(() => {
    const node = dialog.current;
    node?.showModal();
    return () => node?.close();
  }, []);

  const badge = pushedTerminalBadge(state);
  const busy = pushedTerminalBusy(state);
  const tryAgain = () => {
    if (state.terminals === null) void terminals.refetch();
    dispatch({ type: 'try_again' });
  };

  return (
    <dialog
      ref={dialog}
      className="terminal-dialog"
      aria-labelledby={titleId}
      aria-busy={busy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="terminal-top">
        <div className="terminal-head">
          <h2 id={titleId}>Chip Card Terminal</h2>
          <span className={`badge terminal-badge ${badge.tone}`}>{badge.text}</span>
          <button type="button" className="terminal-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        <dl className="terminal-facts">
          {state.terminal ? (
            <div>
              <dt>Terminal</dt>
              <dd>{state.terminal.name}</dd>
            </div>
          ) : null}
          <div>
            <dt>Transaction state</dt>
            <dd>{PUSHED_TERMINAL_STEP_LABELS[state.step]}</dd>
          </div>
          <div>
            <dt>Amount</dt>
            <dd>{formatNaira(amount)}</dd>
          </div>
        </dl>
        <p className="terminal-instruction" role="status" aria-live="polite">
          {busy ? <Spinner small /> : null} {pushedTerminalInstruction(state)}
        </p>
        {state.error ? (
          <p className="terminal-error" role="alert">
            {state.error}
          </p>
        ) : null}
      </div>
      <div className="terminal-body">
        {state.step === 'choosing' ? <TerminalChoice state={state} dispatch={dispatch} /> : null}
        <div className="terminal-actions">
          {pushedTerminalCanRetry(state) ? <Button onClick={tryAgain}>Try Again</Button> : null}
          {pushedTerminalOffersClose(state) ? (
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          ) : null}
        </div>
      </div>
    </dialog>
  );
}

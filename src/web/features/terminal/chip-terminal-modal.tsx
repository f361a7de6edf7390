import { useEffect, useId, useReducer, useRef, useState } from 'react';
import {
  CHIP_TERMINAL_INITIAL,
  TERMINAL_CONNECTION_LABELS,
  TERMINAL_TRANSACTION_LABELS,
  chipTerminalReducer,
  terminalBadge,
  terminalControls,
  terminalInstruction,
} from '../../../domain/chip-terminal';
import type { TChipReaderTransport } from '../../../domain/chip-reader-transports';
import type { TReaderOnlineRequest } from '../../../domain/chip-reader-protocol';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { formatNaira } from '../../../domain/money';
import type { TTerminalIds } from '../../../domain/schemas/card-terminal';
import { ApiError } from '../../api/api-error';
import { cardTerminalApi, useSandboxFixtures } from '../../api/card-terminal';
import type { TChipTerminalProps } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { loadReaderDriver } from './load-reader-driver';
import { ReaderConnectError, type TReaderEvent, type TReaderPort } from './reader-port';
import './terminal.css';

type TDriver = Awaited<ReturnType<typeof loadReaderDriver>>;

/** How long a reader has to come back from 'Reset Device' before it counts as failed. */
const DEVICE_RESET_WAIT_MS = 5_000;

const TRANSPORT_LABELS: Record<TChipReaderTransport, string> = {
  bluetooth: 'Bluetooth reader',
  sandbox: 'Sandbox reader',
};

/**
 * The Chip Card Terminal modal (spec §2): status badge, Connection, Transaction state and
 * amount, and the reader's buttons. Where the terminal stands is the domain's reducer; a reader
 * is reached through one port (reader-port.ts), Bluetooth or the sandbox's twin. Once the
 * acquirer approves, the payment's stream completes the payment like a card's.
 */
export function ChipTerminalModal({
  paymentId,
  amount,
  payer,
  transports,
  onClose,
}: TChipTerminalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const instructionId = useId();
  const [state, dispatch] = useReducer(chipTerminalReducer, CHIP_TERMINAL_INITIAL);
  const [driver, setDriver] = useState<TDriver | null>(null);
  const [transport, setTransport] = useState<TChipReaderTransport>(transports[0] ?? 'sandbox');
  const [port, setPort] = useState<TReaderPort | null>(null);
  const fixtures = useSandboxFixtures();
  // fetch-keys once per reader serial (docs/terminal.md): the ids are the reader's, not secret.
  const keys = useRef(new Map<string, TTerminalIds>());
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const node = dialog.current;
    node?.showModal();
    return () => node?.close();
  }, []);

  // The reader driver (the spec's "QPOS SDK") loads as the modal opens.
  useEffect(() => {
    let live = true;
    loadReaderDriver().then(
      (loaded) => {
        if (!live) return;
        setDriver(loaded);
        dispatch({ type: 'sdk_loaded' });
      },
      () => {
        if (live) dispatch({ type: 'sdk_load_failed' });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  // The reader's events drive the reducer; the online request goes to the acquirer.
  useEffect(() => {
    if (!port) return;
    const purchase = async (data: TReaderOnlineRequest) => {
      dispatch({ type: 'online_processing_started' });
      try {
        let ids = keys.current.get(data.serial);
        if (!ids) {
          ids = (await cardTerminalApi.fetchKeys(data.serial)).data.data;
          keys.current.set(data.serial, ids);
        }
        await cardTerminalApi.chipPurchase({
          ...data,
          tid: ids.tid,
          mid: ids.mid,
          amount,
          paymentId,
          ...(payer.signedIn ? {} : { consentId: payer.consentId }),
        });
        dispatch({ type: 'transaction_approved' });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'TERMINAL_DECLINED') {
          dispatch({ type: 'transaction_declined', message: error.message });
        } else {
          dispatch({
            type: 'online_failed',
            message:
              error instanceof ApiError
                ? error.message
                : ERROR_CATALOGUE.API_REQUEST_FAILED.message,
          });
        }
      }
    };
    const onEvent = (event: TReaderEvent) => {
      switch (event.type) {
        case 'card_inserted':
          dispatch({ type: 'card_inserted' });
          break;
        case 'magnetic_card':
          dispatch({ type: 'magnetic_card_swiped' });
          break;
        case 'pin_entry':
          dispatch({ type: 'pin_requested' });
          break;
        case 'online_request':
          void purchase(event.data);
          break;
        case 'error':
          if (event.code === 'DEVICE_RESET' && resetTimer.current) {
            clearTimeout(resetTimer.current);
            resetTimer.current = null;
          }
          dispatch({ type: 'device_error', code: event.code });
          break;
        case 'disconnected':
          dispatch({ type: 'disconnected' });
          break;
      }
    };
    const unsubscribe = port.subscribe(onEvent);
    return () => {
      unsubscribe();
      port.disconnect();
      if (resetTimer.current) clearTimeout(resetTimer.current);
    };
  }, [port, amount, paymentId, payer.signedIn, payer.consentId]);

  const connect = async () => {
    dispatch({ type: 'connect_requested' });
    const next = driver?.createReaderPort(transport, fixtures.data ?? null) ?? null;
    if (!next) {
      dispatch({ type: 'discovery_failed' });
      return;
    }
    try {
      await next.connect();
      setPort(next);
      dispatch({ type: 'connected', characteristicsReady: true });
    } catch (error) {
      const reason = error instanceof ReaderConnectError ? error.reason : 'connect_failed';
      if (reason === 'characteristics_missing') {
        dispatch({ type: 'connected', characteristicsReady: false });
      } else {
        dispatch({ type: reason });
      }
    }
  };

  const start = async () => {
    const again = state.transaction === 'failed';
    dispatch({ type: 'transaction_started' });
    if (!port || state.connection !== 'connected') return;
    try {
      // After a failure the reader leaves the trade it refused before it takes a new one.
      if (again) await port.cancelTrade().catch(() => undefined);
      await port.startTrade(amount);
    } catch {
      dispatch({ type: 'disconnected' });
    }
  };

  const resetDevice = async () => {
    if (!port) return;
    try {
      await port.resetDevice();
      resetTimer.current = setTimeout(() => {
        resetTimer.current = null;
        dispatch({ type: 'device_reset_failed' });
      }, DEVICE_RESET_WAIT_MS);
    } catch {
      dispatch({ type: 'device_reset_failed' });
    }
  };

  const disconnect = () => {
    setPort(null);
    dispatch({ type: 'disconnected' });
  };

  const controls = terminalControls(state);
  const badge = terminalBadge(state);
  const instruction = terminalInstruction(state);
  const Controls = state.connection === 'connected' ? port?.Controls : null;

  return (
    <dialog
      ref={dialog}
      className="terminal-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {/* Where the terminal stands stays in view; the reader's controls scroll below it. */}
      <div className="terminal-top">
        <div className="terminal-head">
          <h2 id={titleId}>Chip Card Terminal</h2>
          <span className={`badge terminal-badge ${badge.tone}`}>{badge.text}</span>
          <button type="button" className="terminal-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        <dl className="terminal-facts">
          <div>
            <dt>Connection</dt>
            <dd>{TERMINAL_CONNECTION_LABELS[state.connection]}</dd>
          </div>
          <div>
            <dt>Transaction state</dt>
            <dd>{TERMINAL_TRANSACTION_LABELS[state.transaction]}</dd>
          </div>
          <div>
            <dt>Amount</dt>
            <dd>{formatNaira(amount)}</dd>
          </div>
        </dl>
        <p id={instructionId} className="terminal-instruction" role="status" aria-live="polite">
          {instruction ?? ''}
        </p>
        {state.error ? (
          <p className="terminal-error" role="alert">
            {state.error}
          </p>
        ) : null}
      </div>
      <div className="terminal-body">
        {transports.length > 1 ? (
          <fieldset className="terminal-transport" disabled={state.connection !== 'disconnected'}>
            <legend>Reader</legend>
            {transports.map((option) => (
              <label key={option} className="check">
                <input
                  type="radio"
                  name="reader-transport"
                  value={option}
                  checked={transport === option}
                  onChange={() => setTransport(option)}
                />
                {TRANSPORT_LABELS[option]}
              </label>
            ))}
          </fieldset>
        ) : null}
        {Controls ? <Controls transaction={state.transaction} /> : null}

        <div className="terminal-actions">
          {state.connection === 'connected' ? null : (
            <Button
              onClick={() => void connect()}
              disabled={!controls.connect}
              aria-busy={state.connection === 'sdk_loading' || state.connection === 'connecting'}
            >
              {controls.connectLabel}
            </Button>
          )}
          <Button
            onClick={() => void start()}
            disabled={!controls.start}
            aria-describedby={controls.start ? undefined : instructionId}
          >
            Start Chip Card Transaction
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              void port?.cancelTrade().catch(() => undefined);
              dispatch({ type: 'transaction_reset' });
            }}
            disabled={!controls.resetTransaction}
          >
            Reset Transaction
          </Button>
          <Button
            variant="secondary"
            onClick={() => void resetDevice()}
            disabled={!controls.resetDevice}
          >
            Reset Device
          </Button>
          <Button variant="secondary" onClick={disconnect} disabled={!controls.disconnect}>
            Disconnect
          </Button>
        </div>
      </div>
    </dialog>
  );
}

import { useEffect, useId, useReducer, useRef, useState } from 'react';
import { CHIP_TERMINAL_INITIAL, chipTerminalReducer } from '../../../domain/chip-terminal';
import type { TChipReaderTransport } from '../../../domain/chip-reader-transports';
import type { TChipTerminalProps } from '../../contracts/consent-slots';
import { TerminalActions } from './terminal-actions';
import { TerminalStatus } from './terminal-status';
import { useChipReader } from './use-chip-reader';
import './terminal.css';

const TRANSPORT_LABELS: Record<TChipReaderTransport, string> = {
  bluetooth: 'Bluetooth reader',
  sandbox: 'Sandbox reader',
};

type TReaderChoiceProps = {
  transports: readonly TChipReaderTransport[];
  transport: TChipReaderTransport;
  /** Chosen before connecting; fixed once a reader is being reached. */
  disabled: boolean;
  onChoose(transport: TChipReaderTransport): void;
};

/** 'Reader': which of the readers this page can reach the terminal connects to. */
function ReaderChoice({ transports, transport, disabled, onChoose }: TReaderChoiceProps) {
  return (
    <fieldset className="terminal-transport" disabled={disabled}>
      <legend>Reader</legend>
      {transports.map((option) => (
        <label key={option} className="check">
          <input
            type="radio"
            name="reader-transport"
            value={option}
            checked={transport === option}
            onChange={() => onChoose(option)}
          />
          {TRANSPORT_LABELS[option]}
        </label>
      ))}
    </fieldset>
  );
}

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
  const [transport, setTransport] = useState<TChipReaderTransport>(transports[0] ?? 'sandbox');

  useEffect(() => {
    const node = dialog.current;
    node?.showModal();
    return () => node?.close();
  }, []);

  const reader = useChipReader({ paymentId, amount, payer, transport, state, dispatch });
  const Controls = state.connection === 'connected' ? reader.port?.Controls : null;

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
      <TerminalStatus
        state={state}
        amount={amount}
        titleId={titleId}
        instructionId={instructionId}
        onClose={onClose}
      />
      <div className="terminal-body">
        {transports.length > 1 ? (
          <ReaderChoice
            transports={transports}
            transport={transport}
            disabled={state.connection !== 'disconnected'}
            onChoose={setTransport}
          />
        ) : null}
        {Controls ? <Controls transaction={state.transaction} /> : null}

        <TerminalActions state={state} reader={reader} instructionId={instructionId} />
      </div>
    </dialog>
  );
}

import {
  TERMINAL_CONNECTION_LABELS,
  TERMINAL_TRANSACTION_LABELS,
  terminalBadge,
  terminalInstruction,
  type TChipTerminalState,
} from '../../../domain/chip-terminal';
import { formatNaira } from '../../../domain/money';

type TTerminalStatusProps = {
  state: TChipTerminalState;
  /** Kobo. */
  amount: number;
  titleId: string;
  instructionId: string;
  onClose(): void;
};

/**
 * Where the terminal stands, kept in view above the reader's controls: its title and badge,
 * Connection, Transaction state and amount, the instruction and the error.
 */
export function TerminalStatus({
  state,
  amount,
  titleId,
  instructionId,
  onClose,
}: TTerminalStatusProps) {
  const badge = terminalBadge(state);
  const instruction = terminalInstruction(state);
  return (
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
  );
}

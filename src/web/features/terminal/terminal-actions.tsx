import { terminalControls, type TChipTerminalState } from '../../../domain/chip-terminal';
import { Button } from '../../ui/button';
import type { TChipReader } from './use-chip-reader';

type TTerminalActionsProps = {
  state: TChipTerminalState;
  reader: TChipReader;
  /** The instruction that says why 'Start Chip Card Transaction' is not offered yet. */
  instructionId: string;
};

/** The terminal's buttons: connect, start, reset the transaction or the device, disconnect. */
export function TerminalActions({ state, reader, instructionId }: TTerminalActionsProps) {
  const controls = terminalControls(state);
  return (
    <div className="terminal-actions">
      {state.connection === 'connected' ? null : (
        <Button
          onClick={() => void reader.connect()}
          disabled={!controls.connect}
          aria-busy={state.connection === 'sdk_loading' || state.connection === 'connecting'}
        >
          {controls.connectLabel}
        </Button>
      )}
      <Button
        onClick={() => void reader.start()}
        disabled={!controls.start}
        aria-describedby={controls.start ? undefined : instructionId}
      >
        Start Chip Card Transaction
      </Button>
      <Button
        variant="secondary"
        onClick={reader.resetTransaction}
        disabled={!controls.resetTransaction}
      >
        Reset Transaction
      </Button>
      <Button
        variant="secondary"
        onClick={() => void reader.resetDevice()}
        disabled={!controls.resetDevice}
      >
        Reset Device
      </Button>
      <Button variant="secondary" onClick={reader.disconnect} disabled={!controls.disconnect}>
        Disconnect
      </Button>
    </div>
  );
}

import { useState } from 'react';
import { sandboxReaderOutcome, type TTerminalTransaction } from '../../../domain/chip-terminal';
import type { TSandboxFixturesResponse } from '../../../domain/schemas/sandbox';
import { ApiError } from '../../api/api-error';
import { cardTerminalApi } from '../../api/card-terminal-calls';
import { ReaderConnectError, readerEvents, type TReaderPort } from './reader-port';
import {
  SandboxCardSlot,
  SandboxKeypad,
  type TSandboxReaderFault,
} from './sandbox-reader-controls';

/** How long the sandbox reader takes to read a chip before asking for the PIN. */
const CHIP_READ_MS = 1_000;

/**
 * The sandbox reader (docs/terminal.md "The sandbox reader"): a person without hardware inserts
 * a chip test card and types the PIN on its keypad; the server's twin of the reader answers what
 * a reader would hand over. Only in sandbox mode.
 */
export function sandboxReader(fixtures: TSandboxFixturesResponse): TReaderPort {
  const events = readerEvents();
  const reader = fixtures.readers[0];
  let connected = false;
  let amount = 0;

  /** The card slot while a card is awaited, the keypad while its PIN is. */
  function Controls({ transaction }: { transaction: TTerminalTransaction }) {
    const [cardNumber, setCardNumber] = useState(fixtures.chipCards[0]?.number ?? '');
    const [faults, setFaults] = useState<TSandboxReaderFault[]>([]);
    // The PIN stays in this keypad until it is sent to the reader's twin, as on a reader.
    const [pin, setPin] = useState('');
    const [reading, setReading] = useState(false);

    const enter = async () => {
      if (!reader) return;
      setReading(true);
      try {
        const data = await cardTerminalApi.sandboxRead({
          serial: reader.serial,
          cardNumber,
          amount,
          pin,
          faults,
        });
        events.emit({ type: 'online_request', data });
      } catch (error) {
        const outcome = sandboxReaderOutcome(
          error instanceof ApiError ? error.code : 'READ_FAILED',
        );
        events.emit(
          outcome.event === 'magnetic_card'
            ? { type: 'magnetic_card' }
            : { type: 'error', code: outcome.code },
        );
      } finally {
        setPin('');
        setReading(false);
      }
    };

    if (transaction === 'waiting_for_card') {
      return (
        <SandboxCardSlot
          chipCards={fixtures.chipCards}
          cardNumber={cardNumber}
          onCardNumber={setCardNumber}
          faults={faults}
          onFaults={setFaults}
          onInsert={() => {
            events.emit({ type: 'card_inserted' });
            // A reader reads the chip before it asks for the PIN.
            setTimeout(() => events.emit({ type: 'pin_entry' }), CHIP_READ_MS);
          }}
        />
      );
    }
    if (transaction === 'pin_entry') {
      return (
        <SandboxKeypad pin={pin} onPin={setPin} reading={reading} onEnter={() => void enter()} />
      );
    }
    return null;
  }

  return {
    async connect() {
      connected = Boolean(reader);
      if (!connected) throw new ReaderConnectError('discovery_failed');
    },
    async startTrade(amountKobo) {
      if (!connected) throw new Error('Not connected to device');
      amount = amountKobo;
    },
    async cancelTrade() {},
    async resetDevice() {
      if (!connected) throw new Error('Not connected to device');
      // A reader reports DEVICE_RESET once it is back (spec §8: expected, not a failure).
      setTimeout(() => events.emit({ type: 'error', code: 'DEVICE_RESET' }), 300);
    },
    disconnect() {
      connected = false;
    },
    subscribe: events.subscribe,
    Controls,
  };
}

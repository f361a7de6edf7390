import { useId, useState } from 'react';
import { sandboxReaderOutcome, type TTerminalTransaction } from '../../../domain/chip-terminal';
import { CARD_BRAND_NAMES } from '../../../domain/card-brand';
import { PIN_LENGTH } from '../../../domain/constants';
import {
  SANDBOX_READER_FAULTS,
  type TSandboxFixturesResponse,
} from '../../../domain/schemas/sandbox';
import { ApiError } from '../../api/api-error';
import { cardTerminalApi } from '../../api/card-terminal';
import { Button } from '../../ui/button';
import { ReaderConnectError, readerEvents, type TReaderPort } from './reader-port';

type TChipCard = TSandboxFixturesResponse['chipCards'][number];

/** How long the sandbox reader takes to read a chip before asking for the PIN. */
const CHIP_READ_MS = 1_000;

const FAULT_LABELS: Record<(typeof SANDBOX_READER_FAULTS)[number], string> = {
  busy: 'Reader is busy',
  timeout: 'PIN entry times out',
};

const SCENARIO_LABELS: Record<string, string> = {
  chip_approved: 'approved',
  chip_insufficient_funds: 'insufficient funds',
  chip_declined: 'declined',
  magstripe_only: 'magnetic stripe only',
};

const cardLabel = (card: TChipCard) =>
  `${CARD_BRAND_NAMES[card.brand]} ••${card.number.slice(-4)}, ${
    SCENARIO_LABELS[card.scenario] ?? card.scenario.replaceAll('_', ' ')
  }, PIN ${card.pin}`;

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

  function Controls({ transaction }: { transaction: TTerminalTransaction }) {
    const cardId = useId();
    const [cardNumber, setCardNumber] = useState(fixtures.chipCards[0]?.number ?? '');
    const [faults, setFaults] = useState<(typeof SANDBOX_READER_FAULTS)[number][]>([]);
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
        <fieldset className="sandbox-reader">
          <legend>Sandbox reader</legend>
          <label htmlFor={cardId}>Chip test card</label>
          <select id={cardId} value={cardNumber} onChange={(e) => setCardNumber(e.target.value)}>
            {fixtures.chipCards.map((card) => (
              <option key={card.number} value={card.number}>
                {cardLabel(card)}
              </option>
            ))}
          </select>
          {SANDBOX_READER_FAULTS.map((fault) => (
            <label key={fault} className="check">
              <input
                type="checkbox"
                checked={faults.includes(fault)}
                onChange={(e) =>
                  setFaults((now) =>
                    e.target.checked ? [...now, fault] : now.filter((f) => f !== fault),
                  )
                }
              />
              {FAULT_LABELS[fault]}
            </label>
          ))}
          <Button
            variant="secondary"
            onClick={() => {
              events.emit({ type: 'card_inserted' });
              // A reader reads the chip before it asks for the PIN.
              setTimeout(() => events.emit({ type: 'pin_entry' }), CHIP_READ_MS);
            }}
          >
            Insert Card
          </Button>
        </fieldset>
      );
    }
    if (transaction === 'pin_entry') {
      const full = pin.length >= PIN_LENGTH;
      return (
        <fieldset className="sandbox-reader keypad" disabled={reading}>
          <legend>Sandbox reader keypad</legend>
          <p
            className="pin-dots"
            aria-live="polite"
            aria-label={`${pin.length} PIN digits entered`}
          >
            {pin.length ? '•'.repeat(pin.length) : 'Enter PIN'}
          </p>
          <div className="keys">
            {['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'].map((digit) => (
              <button
                key={digit}
                type="button"
                className="key"
                disabled={full}
                onClick={() => setPin((now) => (now + digit).slice(0, PIN_LENGTH))}
              >
                {digit}
              </button>
            ))}
            <button type="button" className="key" onClick={() => setPin('')}>
              Clear
            </button>
            <button
              type="button"
              className="key enter"
              disabled={!full}
              onClick={() => void enter()}
            >
              Enter
            </button>
          </div>
        </fieldset>
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

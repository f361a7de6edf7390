import { useId, type Dispatch, type SetStateAction } from 'react';
import { CARD_BRAND_NAMES } from '../../../domain/card-brand';
import { PIN_LENGTH } from '../../../domain/constants';
import {
  SANDBOX_READER_FAULTS,
  type TSandboxFixturesResponse,
} from '../../../domain/schemas/sandbox';
import { Button } from '../../ui/button';

type TChipCard = TSandboxFixturesResponse['chipCards'][number];
export type TSandboxReaderFault = (typeof SANDBOX_READER_FAULTS)[number];

const FAULT_LABELS: Record<TSandboxReaderFault, string> = {
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

type TSandboxCardSlotProps = {
  chipCards: readonly TChipCard[];
  cardNumber: string;
  onCardNumber(cardNumber: string): void;
  faults: TSandboxReaderFault[];
  onFaults: Dispatch<SetStateAction<TSandboxReaderFault[]>>;
  onInsert(): void;
};

/** The sandbox reader's card slot: which chip test card goes in, the faults to play, 'Insert Card'. */
export function SandboxCardSlot({
  chipCards,
  cardNumber,
  onCardNumber,
  faults,
  onFaults,
  onInsert,
}: TSandboxCardSlotProps) {
  const cardId = useId();
  return (
    <fieldset className="sandbox-reader">
      <legend>Sandbox reader</legend>
      <label htmlFor={cardId}>Chip test card</label>
      <select id={cardId} value={cardNumber} onChange={(e) => onCardNumber(e.target.value)}>
        {chipCards.map((card) => (
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
              onFaults((now) =>
                e.target.checked ? [...now, fault] : now.filter((f) => f !== fault),
              )
            }
          />
          {FAULT_LABELS[fault]}
        </label>
      ))}
      <Button variant="secondary" onClick={onInsert}>
        Insert Card
      </Button>
    </fieldset>
  );
}

type TSandboxKeypadProps = {
  pin: string;
  onPin: Dispatch<SetStateAction<string>>;
  /** The PIN is on its way to the reader's twin. */
  reading: boolean;
  onEnter(): void;
};

/** The sandbox reader's keypad: the PIN typed digit by digit, 'Clear' and 'Enter'. */
export function SandboxKeypad({ pin, onPin, reading, onEnter }: TSandboxKeypadProps) {
  const full = pin.length >= PIN_LENGTH;
  return (
    <fieldset className="sandbox-reader keypad" disabled={reading}>
      <legend>Sandbox reader keypad</legend>
      <p className="pin-dots" aria-live="polite" aria-label={`${pin.length} PIN digits entered`}>
        {pin.length ? '•'.repeat(pin.length) : 'Enter PIN'}
      </p>
      <div className="keys">
        {['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'].map((digit) => (
          <button
            key={digit}
            type="button"
            className="key"
            disabled={full}
            onClick={() => onPin((now) => (now + digit).slice(0, PIN_LENGTH))}
          >
            {digit}
          </button>
        ))}
        <button type="button" className="key" onClick={() => onPin('')}>
          Clear
        </button>
        <button type="button" className="key enter" disabled={!full} onClick={onEnter}>
          Enter
        </button>
      </div>
    </fieldset>
  );
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHIP_TERMINAL_INITIAL,
  chipTerminalReducer,
  sandboxReaderOutcome,
  TERMINAL_CONNECTION_LABELS,
  TERMINAL_TRANSACTION_LABELS,
  terminalBadge,
  terminalControls,
  terminalErrorMessage,
  terminalInstruction,
  type TChipTerminalAction,
  type TChipTerminalState,
} from './chip-terminal';

const ready: TChipTerminalAction[] = [
  { type: 'sdk_loaded' },
  { type: 'connect_requested' },
  { type: 'connected', characteristicsReady: true },
];
const ROUTES = {
  sdkLoading: [],
  sdkUnavailable: [{ type: 'sdk_load_failed' }],
  disconnected: [{ type: 'sdk_loaded' }],
  connecting: [{ type: 'sdk_loaded' }, { type: 'connect_requested' }],
  idle: ready,
  waiting: [...ready, { type: 'transaction_started' }],
  cardDetected: [...ready, { type: 'transaction_started' }, { type: 'card_inserted' }],
  pinEntry: [
    ...ready,
    { type: 'transaction_started' },
    { type: 'card_inserted' },
    { type: 'pin_requested' },
  ],
  online: [
    ...ready,
    { type: 'transaction_started' },
    { type: 'card_inserted' },
    { type: 'online_processing_started' },
  ],
  completed: [
    ...ready,
    { type: 'transaction_started' },
    { type: 'card_inserted' },
    { type: 'online_processing_started' },
    { type: 'transaction_approved' },
  ],
  failed: [...ready, { type: 'transaction_started' }, { type: 'device_error', code: 'TIMEOUT' }],
  declined: [
    ...ready,
    { type: 'transaction_started' },
    { type: 'card_inserted' },
    { type: 'online_processing_started' },
    { type: 'transaction_declined', message: 'Transaction declined by card or issuer' },
  ],
} satisfies Record<string, TChipTerminalAction[]>;
type TRoute = keyof typeof ROUTES;
const stateAt = (route: TRoute): TChipTerminalState =>
  (ROUTES[route] as TChipTerminalAction[]).reduce(chipTerminalReducer, CHIP_TERMINAL_INITIAL);

describe('chipTerminalReducer transitions', () => {
  it.each<[string, TRoute, TChipTerminalAction, Partial<TChipTerminalState>]>([
    [
      'loads the SDK',
      'sdkLoading',
      { type: 'sdk_loaded' },
      { connection: 'disconnected', error: null },
    ],
    [
      'reports an SDK that would not load',
      'sdkLoading',
      { type: 'sdk_load_failed' },
      { connection: 'sdk_unavailable', error: 'Failed to load QPOS SDK' },
    ],
    [
      'starts connecting',
      'disconnected',
      { type: 'connect_requested' },
      { connection: 'connecting' },
    ],
    [
      'connects a reader with both characteristics',
      'connecting',
      { type: 'connected', characteristicsReady: true },
      { connection: 'connected', error: null },
    ],
    [
      'refuses a reader without its characteristics',
      'connecting',
      { type: 'connected', characteristicsReady: false },
      { connection: 'disconnected', error: 'Bluetooth characteristics not properly set up' },
    ],
    [
      'reports a failed discovery',
      'connecting',
      { type: 'discovery_failed' },
      { connection: 'disconnected', error: 'Failed to discover Bluetooth device' },
    ],
    [
      'reports a failed connection',
      'connecting',
      { type: 'connect_failed' },
      { connection: 'disconnected', error: 'Failed to connect to device' },
    ],
    [
      'starts a transaction on a connected reader',
      'idle',
      { type: 'transaction_started' },
      { transaction: 'waiting_for_card' },
    ],
    [
      'refuses a transaction without a reader',
      'disconnected',
      { type: 'transaction_started' },
      { transaction: 'idle', error: 'Not connected to device' },
    ],
    [
      'detects an inserted chip card',
      'waiting',
      { type: 'card_inserted' },
      { transaction: 'card_detected' },
    ],
    [
      'refuses a magnetic swipe',
      'waiting',
      { type: 'magnetic_card_swiped' },
      { transaction: 'failed', error: 'Please use chip card insertion' },
    ],
    [
      'refuses a stripe-only card found once read, at the PIN',
      'pinEntry',
      { type: 'magnetic_card_swiped' },
      { transaction: 'failed', error: 'Please use chip card insertion' },
    ],
    ['asks for the PIN', 'cardDetected', { type: 'pin_requested' }, { transaction: 'pin_entry' }],
    [
      'goes online after the PIN',
      'pinEntry',
      { type: 'online_processing_started' },
      { transaction: 'online_processing' },
    ],
    [
      'goes online without a PIN',
      'cardDetected',
      { type: 'online_processing_started' },
      { transaction: 'online_processing' },
    ],
    [
      'completes an approved purchase',
      'online',
      { type: 'transaction_approved' },
      { transaction: 'completed', error: null },
    ],
    [
      'fails a declined purchase',
      'online',
      { type: 'transaction_declined' },
      { transaction: 'failed', error: 'Transaction declined by card or issuer' },
    ],
    [
      "fails a declined purchase with the acquirer's reason",
      'online',
      {
        type: 'transaction_declined',
        message: 'Transaction declined by card or issuer: Insufficient funds',
      },
      {
        transaction: 'failed',
        error: 'Transaction declined by card or issuer: Insufficient funds',
      },
    ],
    [
      'fails a purchase the server could not make',
      'online',
      { type: 'online_failed', message: 'Transaction timed out' },
      { transaction: 'failed', error: 'Transaction timed out' },
    ],
    [
      'fails a card declined before going online',
      'pinEntry',
      { type: 'transaction_declined' },
      { transaction: 'failed' },
    ],
    [
      'fails a transaction on a device error',
      'online',
      { type: 'device_error', code: 'DEVICE_BUSY' },
      { transaction: 'failed', error: 'Device is busy, please wait' },
    ],
    [
      'treats DEVICE_RESET as expected: back to idle without an error',
      'waiting',
      { type: 'device_error', code: 'DEVICE_RESET' },
      { transaction: 'idle', error: null },
    ],
    [
      'clears a failure on DEVICE_RESET',
      'failed',
      { type: 'device_error', code: 'DEVICE_RESET' },
      { transaction: 'idle', error: null },
    ],
    [
      'shows a device error while idle without inventing a transaction',
      'idle',
      { type: 'device_error', code: 'E42' },
      { transaction: 'idle', error: 'Device error: E42' },
    ],
    [
      'resets a failed transaction',
      'failed',
      { type: 'transaction_reset' },
      { transaction: 'idle', error: null },
    ],
    [
      'resets a completed transaction for the next one',
      'completed',
      { type: 'transaction_reset' },
      { transaction: 'idle' },
    ],
    [
      'reports a failed device reset',
      'idle',
      { type: 'device_reset_failed' },
      { transaction: 'failed', error: 'Failed to reset device' },
    ],
    [
      'starts again directly after a decline, the decline cleared',
      'declined',
      { type: 'transaction_started' },
      { connection: 'connected', transaction: 'waiting_for_card', error: null },
    ],
    [
      'starts again directly after a reader error',
      'failed',
      { type: 'transaction_started' },
      { transaction: 'waiting_for_card', error: null },
    ],
    [
      'refuses a start without a reader (spec §5), saying so',
      'disconnected',
      { type: 'transaction_started' },
      { transaction: 'idle', error: 'Not connected to device' },
    ],
    [
      'disconnects, dropping the transaction',
      'pinEntry',
      { type: 'disconnected' },
      { connection: 'disconnected', transaction: 'idle', error: null },
    ],
  ])('%s', (_, route, action, expected) => {
    expect(chipTerminalReducer(stateAt(route), action)).toMatchObject(expected);
  });

  it.each<[string, TRoute, TChipTerminalAction]>([
    ['a second start', 'waiting', { type: 'transaction_started' }],
    ['approval before going online', 'cardDetected', { type: 'transaction_approved' }],
    ['a device error after completion', 'completed', { type: 'device_error', code: 'TIMEOUT' }],
    ['DEVICE_RESET after completion', 'completed', { type: 'device_error', code: 'DEVICE_RESET' }],
    ['a card insert with no transaction', 'idle', { type: 'card_inserted' }],
    ['connecting while connected', 'idle', { type: 'connect_requested' }],
    ['a reset without a reader', 'disconnected', { type: 'transaction_reset' }],
    ['an SDK load after it failed', 'sdkUnavailable', { type: 'sdk_loaded' }],
    ['a server failure before going online', 'pinEntry', { type: 'online_failed', message: 'x' }],
    ['a swipe with no transaction', 'idle', { type: 'magnetic_card_swiped' }],
  ])('ignores %s', (_, route, action) => {
    const before = stateAt(route);
    expect(chipTerminalReducer(before, action)).toBe(before);
  });
});

describe('terminalErrorMessage', () => {
  it.each([
    ['TIMEOUT', 'Transaction timed out'],
    ['CMD_TIMEOUT', 'Transaction timed out'],
    ['DEVICE_BUSY', 'Device is busy, please wait'],
    [
      'INPUT_INVALID',
      'Invalid transaction parameters. Please try again with a different amount or reset the device.',
    ],
    ['INPUT_OUT_OF_RANGE', 'Transaction amount is out of range. Please use a smaller amount.'],
    ['INPUT_INVALID_FORMAT', 'Invalid transaction format. Please reset the device and try again.'],
    ['CRC_ERROR', 'Device error: CRC_ERROR'],
    ['toString', 'Device error: toString'],
    ['DEVICE_RESET', null],
  ])('%s → %j', (code, message) => {
    expect(terminalErrorMessage(code)).toBe(message);
  });
});

const ACTIONS: TChipTerminalAction[] = [
  { type: 'sdk_loaded' },
  { type: 'sdk_load_failed' },
  { type: 'connect_requested' },
  { type: 'discovery_failed' },
  { type: 'connect_failed' },
  { type: 'connected', characteristicsReady: true },
  { type: 'connected', characteristicsReady: false },
  { type: 'disconnected' },
  { type: 'transaction_started' },
  { type: 'card_inserted' },
  { type: 'magnetic_card_swiped' },
  { type: 'pin_requested' },
  { type: 'online_processing_started' },
  { type: 'transaction_approved' },
  { type: 'transaction_declined' },
  {
    type: 'transaction_declined',
    message: 'Transaction declined by card or issuer: Incorrect PIN',
  },
  { type: 'online_failed', message: 'Transaction timed out' },
  { type: 'device_error', code: 'TIMEOUT' },
  { type: 'device_error', code: 'DEVICE_RESET' },
  { type: 'transaction_reset' },
  { type: 'device_reset_failed' },
];

describe('chipTerminalReducer properties', () => {
  it('runs a transaction only on a connected reader, and leaves completed only by reset or disconnect', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ACTIONS), { maxLength: 80 }), (actions) => {
        let state = CHIP_TERMINAL_INITIAL;
        for (const action of actions) {
          const next = chipTerminalReducer(state, action);
          if (next.transaction !== 'idle') expect(next.connection).toBe('connected');
          if (state.transaction === 'completed' && next.transaction !== 'completed') {
            expect(['transaction_reset', 'disconnected']).toContain(action.type);
          }
          if (next.transaction === 'failed') expect(next.error).not.toBeNull();
          state = next;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('sandboxReaderOutcome', () => {
  it.each([
    ['TERMINAL_CHIP_REQUIRED', 'Please use chip card insertion'],
    ['TERMINAL_BUSY', 'Device is busy, please wait'],
    ['TERMINAL_TIMEOUT', 'Transaction timed out'],
    [
      'TERMINAL_INVALID_PARAMETERS',
      'Invalid transaction parameters. Please try again with a different amount or reset the device.',
    ],
    [
      'TERMINAL_AMOUNT_OUT_OF_RANGE',
      'Transaction amount is out of range. Please use a smaller amount.',
    ],
    [
      'TERMINAL_INVALID_FORMAT',
      'Invalid transaction format. Please reset the device and try again.',
    ],
    ['TERMINAL_READER_UNKNOWN', 'Device error: TERMINAL_READER_UNKNOWN'],
  ])('%s reads as the reader would say it: %s', (code, message) => {
    const outcome = sandboxReaderOutcome(code);
    const state = chipTerminalReducer(
      stateAt('pinEntry'),
      outcome.event === 'magnetic_card'
        ? { type: 'magnetic_card_swiped' }
        : { type: 'device_error', code: outcome.code },
    );
    expect(state).toMatchObject({ transaction: 'failed', error: message });
  });
});

describe('the modal read from the state', () => {
  it.each<[TRoute, string, string]>([
    ['sdkLoading', 'Starting', 'busy'],
    ['sdkUnavailable', 'Failed', 'failed'],
    ['disconnected', 'Not connected', 'neutral'],
    ['idle', 'Ready', 'ready'],
    ['pinEntry', 'In progress', 'busy'],
    ['completed', 'Approved', 'done'],
    ['failed', 'Failed', 'failed'],
  ])('%s shows the badge %s', (route, text, tone) => {
    expect(terminalBadge(stateAt(route))).toEqual({ text, tone });
  });

  it('says Loading SDK... on the connect button until the reader driver is there', () => {
    expect(terminalControls(stateAt('sdkLoading'))).toMatchObject({
      connectLabel: 'Loading SDK...',
      connect: false,
      start: false,
    });
    expect(terminalControls(stateAt('disconnected'))).toMatchObject({
      connectLabel: 'Connect Card Reader',
      connect: true,
      start: false,
      resetDevice: false,
      disconnect: false,
    });
  });

  it('offers the resets and Disconnect on a connected reader, none while it is online', () => {
    expect(terminalControls(stateAt('idle'))).toMatchObject({
      connect: false,
      start: true,
      resetTransaction: false,
      resetDevice: true,
      disconnect: true,
    });
    expect(terminalControls(stateAt('online'))).toMatchObject({
      start: false,
      resetTransaction: false,
      resetDevice: false,
      disconnect: false,
    });
    expect(terminalControls(stateAt('failed'))).toMatchObject({
      start: true,
      resetTransaction: true,
    });
    expect(terminalControls(stateAt('completed'))).toMatchObject({
      start: false,
      resetTransaction: false,
      resetDevice: false,
      disconnect: true,
    });
  });

  it.each<TRoute>(['sdkLoading', 'disconnected', 'connecting', 'sdkUnavailable'])(
    'keeps Start Chip Card Transaction disabled without a connected reader (%s)',
    (route) => {
      expect(terminalControls(stateAt(route)).start).toBe(false);
    },
  );

  it.each<TRoute>(['idle', 'failed', 'declined'])(
    'offers Start Chip Card Transaction on a connected reader that is %s',
    (route) => {
      expect(terminalControls(stateAt(route)).start).toBe(true);
    },
  );

  it.each<[TRoute, string | null]>([
    ['sdkLoading', 'Not connected to device. Connect Card Reader to start a transaction.'],
    ['disconnected', 'Not connected to device. Connect Card Reader to start a transaction.'],
    ['connecting', 'Connecting to the card reader...'],
    ['sdkUnavailable', null],
    ['idle', 'Reader ready. Start the transaction when the payer has the card.'],
    ['waiting', 'Insert the chip card into the reader.'],
    ['pinEntry', 'Enter the card PIN on the reader.'],
    ['declined', 'Start Chip Card Transaction to try again.'],
    ['completed', 'Payment approved. You can remove the card.'],
  ])('%s: the line under the state reads %j', (route, line) => {
    expect(terminalInstruction(stateAt(route))).toBe(line);
  });

  it('labels every connection and transaction state', () => {
    expect(TERMINAL_CONNECTION_LABELS[stateAt('idle').connection]).toBe('Connected');
    expect(TERMINAL_TRANSACTION_LABELS[stateAt('pinEntry').transaction]).toBe('PIN entry');
  });
});

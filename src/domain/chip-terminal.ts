import { ERROR_CATALOGUE, formatErrorMessage, type TErrorCode } from './errors';

/** The reader's connection, shown as 'Connection' in the terminal modal (spec §2). */
export type TTerminalConnection =
  /** The reader SDK is loading ('Loading SDK...'); it is retried up to 5 times (spec §9). */
  | 'sdk_loading'
  /** The SDK could not be loaded: the terminal cannot be used on this page. */
  | 'sdk_unavailable'
  /** SDK ready, no reader connected ('Connect Card Reader'). */
  | 'disconnected'
  /** Discovering and connecting the Bluetooth reader. */
  | 'connecting'
  /** Reader connected with both Bluetooth characteristics set up (spec §5). */
  | 'connected';

/** The transaction on the reader (spec §4 Chip terminal states, plus waiting and failure). */
export type TTerminalTransaction =
  /** No transaction; 'Start Chip Card Transaction' is offered. */
  | 'idle'
  /** A transaction started; the reader waits for a chip card. */
  | 'waiting_for_card'
  /** A chip card was inserted and is being read. */
  | 'card_detected'
  /** The payer is entering their PIN on the reader. */
  | 'pin_entry'
  /** The chip purchase is with the processor. */
  | 'online_processing'
  /** Terminal: approved. Left only by a reset or a disconnect. */
  | 'completed'
  /** Declined or errored, with a message. Left by starting again, a reset or a disconnect. */
  | 'failed';

export type TChipTerminalState = {
  connection: TTerminalConnection;
  transaction: TTerminalTransaction;
  /** What the payer reads about the last failure; null when all is well. */
  error: string | null;
};

export type TChipTerminalAction =
  | { type: 'sdk_loaded' }
  /** Every SDK load attempt failed (TERMINAL_SDK_MAX_LOAD_RETRIES in constants). */
  | { type: 'sdk_load_failed' }
  | { type: 'connect_requested' }
  | { type: 'discovery_failed' }
  | { type: 'connect_failed' }
  | { type: 'connected'; characteristicsReady: boolean }
  | { type: 'disconnected' }
  | { type: 'transaction_started' }
  | { type: 'card_inserted' }
  | { type: 'magnetic_card_swiped' }
  | { type: 'pin_requested' }
  | { type: 'online_processing_started' }
  | { type: 'transaction_approved' }
  /** The card or issuer said no; `message` is the acquirer's reason when it gave one. */
  | { type: 'transaction_declined'; message?: string }
  /** The purchase could not be made (the server's terminal message, or the network's). */
  | { type: 'online_failed'; message: string }
  /** An error code reported by the reader SDK, e.g. 'TIMEOUT' or 'DEVICE_RESET'. */
  | { type: 'device_error'; code: string }
  /** 'Reset Transaction', or 'Reset Device' once the reader accepted the reset. */
  | { type: 'transaction_reset' }
  | { type: 'device_reset_failed' };

export const CHIP_TERMINAL_INITIAL: TChipTerminalState = {
  connection: 'sdk_loading',
  transaction: 'idle',
  error: null,
};

// Reader SDK (QPOS) error names, mapped to the spec §8 messages.
const DEVICE_ERRORS: Readonly<Record<string, TErrorCode>> = {
  TIMEOUT: 'TERMINAL_TIMEOUT',
  CMD_TIMEOUT: 'TERMINAL_TIMEOUT',
  ICC_ONLINE_TIMEOUT: 'TERMINAL_TIMEOUT',
  DEVICE_BUSY: 'TERMINAL_BUSY',
  INPUT_INVALID: 'TERMINAL_INVALID_PARAMETERS',
  INPUT_ZERO_VALUES: 'TERMINAL_INVALID_PARAMETERS',
  INPUT_OUT_OF_RANGE: 'TERMINAL_AMOUNT_OUT_OF_RANGE',
  AMOUNT_OUT_OF_LIMIT: 'TERMINAL_AMOUNT_OUT_OF_RANGE',
  INPUT_INVALID_FORMAT: 'TERMINAL_INVALID_FORMAT',
};

/**
 * The payer's message for a reader error code (spec §8 Chip terminal), or null for DEVICE_RESET,
 * which the reader reports after every reset and is expected. Unknown codes read
 * 'Device error: {code}'.
 */
export function terminalErrorMessage(code: string): string | null {
  if (code === 'DEVICE_RESET') return null;
  const known = Object.hasOwn(DEVICE_ERRORS, code) ? DEVICE_ERRORS[code] : undefined;
  return known
    ? ERROR_CATALOGUE[known].message
    : formatErrorMessage('TERMINAL_DEVICE_ERROR', { code });
}

/** Transactions that are under way on the reader. */
const ACTIVE: ReadonlySet<TTerminalTransaction> = new Set([
  'waiting_for_card',
  'card_detected',
  'pin_entry',
  'online_processing',
]);

const withError = (state: TChipTerminalState, code: TErrorCode): TChipTerminalState => ({
  ...state,
  error: ERROR_CATALOGUE[code].message,
});

const failTransaction = (state: TChipTerminalState, message: string): TChipTerminalState => ({
  ...state,
  transaction: 'failed',
  error: message,
});

const move = (
  state: TChipTerminalState,
  from: readonly TTerminalTransaction[],
  to: TTerminalTransaction,
): TChipTerminalState =>
  from.includes(state.transaction) ? { ...state, transaction: to, error: null } : state;

/**
 * The chip-card terminal's state machine (spec §4 Chip terminal states, §5, §8). An action the
 * current state does not accept returns the same state object.
 */
export function chipTerminalReducer(
  state: TChipTerminalState,
  action: TChipTerminalAction,
): TChipTerminalState {
  switch (action.type) {
    case 'sdk_loaded':
      return state.connection === 'sdk_loading' ? { ...state, connection: 'disconnected' } : state;
    case 'sdk_load_failed':
      return state.connection === 'sdk_loading'
        ? withError({ ...state, connection: 'sdk_unavailable' }, 'TERMINAL_SDK_LOAD_FAILED')
        : state;
    case 'connect_requested':
      return state.connection === 'disconnected'
        ? { ...state, connection: 'connecting', error: null }
        : state;
    case 'discovery_failed':
      return state.connection === 'connecting'
        ? withError({ ...state, connection: 'disconnected' }, 'TERMINAL_DISCOVERY_FAILED')
        : state;
    case 'connect_failed':
      return state.connection === 'connecting'
        ? withError({ ...state, connection: 'disconnected' }, 'TERMINAL_CONNECT_FAILED')
        : state;
    case 'connected':
      if (state.connection !== 'connecting') return state;
      // spec §5: the terminal needs both characteristics set up to be usable.
      return action.characteristicsReady
        ? { ...state, connection: 'connected', error: null }
        : withError({ ...state, connection: 'disconnected' }, 'TERMINAL_CHARACTERISTICS_MISSING');
    case 'disconnected':
      return state.connection === 'connected' || state.connection === 'connecting'
        ? { connection: 'disconnected', transaction: 'idle', error: null }
        : state;
    case 'transaction_started':
      // After a failure the payer starts again at once: the start abandons the reader's trade.
      if (state.transaction !== 'idle' && state.transaction !== 'failed') return state;
      // spec §5: no transaction without a connected reader.
      return state.connection === 'connected'
        ? { ...state, transaction: 'waiting_for_card', error: null }
        : withError(state, 'TERMINAL_NOT_CONNECTED');
    case 'card_inserted':
      return move(state, ['waiting_for_card'], 'card_detected');
    case 'magnetic_card_swiped':
      // A reader may tell a stripe-only card from its service code only once it read it.
      return ['waiting_for_card', 'card_detected', 'pin_entry'].includes(state.transaction)
        ? failTransaction(state, ERROR_CATALOGUE.TERMINAL_CHIP_REQUIRED.message)
        : state;
    case 'pin_requested':
      return move(state, ['card_detected'], 'pin_entry');
    case 'online_processing_started':
      return move(state, ['card_detected', 'pin_entry'], 'online_processing');
    case 'transaction_approved':
      return move(state, ['online_processing'], 'completed');
    case 'transaction_declined':
      return ['card_detected', 'pin_entry', 'online_processing'].includes(state.transaction)
        ? failTransaction(state, action.message ?? ERROR_CATALOGUE.TERMINAL_DECLINED.message)
        : state;
    case 'online_failed':
      return state.transaction === 'online_processing'
        ? failTransaction(state, action.message)
        : state;
    case 'device_error': {
      const message = terminalErrorMessage(action.code);
      // spec §8: DEVICE_RESET is expected, so it only confirms the reader is back to idle.
      if (message === null) {
        return state.transaction === 'completed'
          ? state
          : { ...state, transaction: 'idle', error: null };
      }
      if (ACTIVE.has(state.transaction)) return failTransaction(state, message);
      return state.transaction === 'idle' ? { ...state, error: message } : state;
    }
    case 'transaction_reset':
      return state.connection === 'connected'
        ? { ...state, transaction: 'idle', error: null }
        : state;
    case 'device_reset_failed':
      return state.connection === 'connected'
        ? failTransaction(state, ERROR_CATALOGUE.TERMINAL_RESET_FAILED.message)
        : state;
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled chip-terminal action ${JSON.stringify(unhandled)}`);
    }
  }
}

/** What a reader reports for the sandbox reader's refusals (docs/terminal.md "The sandbox reader"). */
export type TSandboxReaderOutcome = { event: 'magnetic_card' } | { event: 'error'; code: string };

/**
 * The sandbox reader answers the catalogue's codes; a real reader reports SDK error names and a
 * swiped card. This maps one to the other, so both transports tell the modal the same things.
 */
export function sandboxReaderOutcome(code: string): TSandboxReaderOutcome {
  switch (code) {
    case 'TERMINAL_CHIP_REQUIRED':
      return { event: 'magnetic_card' };
    case 'TERMINAL_BUSY':
      return { event: 'error', code: 'DEVICE_BUSY' };
    case 'TERMINAL_TIMEOUT':
      return { event: 'error', code: 'TIMEOUT' };
    case 'TERMINAL_INVALID_PARAMETERS':
      return { event: 'error', code: 'INPUT_INVALID' };
    case 'TERMINAL_AMOUNT_OUT_OF_RANGE':
      return { event: 'error', code: 'AMOUNT_OUT_OF_LIMIT' };
    case 'TERMINAL_INVALID_FORMAT':
      return { event: 'error', code: 'INPUT_INVALID_FORMAT' };
    default:
      return { event: 'error', code };
  }
}

/** 'Connection' in the terminal modal (spec §2). */
export const TERMINAL_CONNECTION_LABELS: Readonly<Record<TTerminalConnection, string>> = {
  sdk_loading: 'Loading SDK',
  sdk_unavailable: 'SDK unavailable',
  disconnected: 'Disconnected',
  connecting: 'Connecting',
  connected: 'Connected',
};

/** 'Transaction state' in the terminal modal (spec §2, §4 chip terminal states). */
export const TERMINAL_TRANSACTION_LABELS: Readonly<Record<TTerminalTransaction, string>> = {
  idle: 'Idle',
  waiting_for_card: 'Waiting for card',
  card_detected: 'Card detected',
  pin_entry: 'PIN entry',
  online_processing: 'Online processing',
  completed: 'Completed',
  failed: 'Failed',
};

/** What the payer does next during a transaction, in a line under the state. */
const TERMINAL_INSTRUCTIONS: Readonly<Record<TTerminalTransaction, string | null>> = {
  idle: 'Reader ready. Start the transaction when the payer has the card.',
  waiting_for_card: 'Insert the chip card into the reader.',
  card_detected: 'Reading the card...',
  pin_entry: 'Enter the card PIN on the reader.',
  online_processing: 'Processing payment...',
  completed: 'Payment approved. You can remove the card.',
  failed: 'Start Chip Card Transaction to try again.',
};

/** Why 'Start Chip Card Transaction' cannot be pressed without a reader (spec §5, §8). */
export const TERMINAL_START_NEEDS_READER = `${ERROR_CATALOGUE.TERMINAL_NOT_CONNECTED.message}. Connect Card Reader to start a transaction.`;

/**
 * The line under the terminal's state, read aloud as it changes: what the payer does next, and
 * while no reader is connected, why the transaction cannot start. Null when there is nothing to
 * say (the SDK could not load: its error says all).
 */
export function terminalInstruction(state: TChipTerminalState): string | null {
  switch (state.connection) {
    case 'sdk_unavailable':
      return null;
    case 'connecting':
      return 'Connecting to the card reader...';
    case 'sdk_loading':
    case 'disconnected':
      return TERMINAL_START_NEEDS_READER;
    case 'connected':
      return TERMINAL_INSTRUCTIONS[state.transaction];
  }
}

/** The modal's status badge: one word for where the terminal stands. */
export function terminalBadge(state: TChipTerminalState): {
  text: string;
  tone: 'neutral' | 'ready' | 'busy' | 'done' | 'failed';
} {
  if (state.transaction === 'completed') return { text: 'Approved', tone: 'done' };
  if (state.transaction === 'failed' || state.connection === 'sdk_unavailable') {
    return { text: 'Failed', tone: 'failed' };
  }
  if (ACTIVE.has(state.transaction)) return { text: 'In progress', tone: 'busy' };
  if (state.connection === 'connected') return { text: 'Ready', tone: 'ready' };
  if (state.connection === 'connecting' || state.connection === 'sdk_loading') {
    return { text: 'Starting', tone: 'busy' };
  }
  return { text: 'Not connected', tone: 'neutral' };
}

/**
 * Which of the modal's buttons (spec §2) can be pressed. 'Start Chip Card Transaction' needs a
 * connected reader (spec §5); the line under the state says why while it has none
 * (terminalInstruction). After a failure it starts the next transaction directly.
 */
export function terminalControls(state: TChipTerminalState) {
  const connected = state.connection === 'connected';
  return {
    connectLabel: state.connection === 'sdk_loading' ? 'Loading SDK...' : 'Connect Card Reader',
    connect: state.connection === 'disconnected',
    start: connected && (state.transaction === 'idle' || state.transaction === 'failed'),
    // Not while the acquirer has the purchase (its answer would land on a reset terminal), and
    // once approved the payment is paid: nothing is left to reset on this page.
    resetTransaction:
      connected && !['idle', 'online_processing', 'completed'].includes(state.transaction),
    resetDevice: connected && !['online_processing', 'completed'].includes(state.transaction),
    disconnect: connected && state.transaction !== 'online_processing',
  };
}

import type { ComponentType } from 'react';
import type { TReaderOnlineRequest } from '../../../domain/chip-reader-protocol';
import type { TTerminalTransaction } from '../../../domain/chip-terminal';

/** What a reader tells the page, whichever way it is reached. */
export type TReaderEvent =
  | { type: 'card_inserted' }
  /** A swiped card: the terminal takes chip cards only. */
  | { type: 'magnetic_card' }
  | { type: 'pin_entry' }
  /** The card asks to go online: the page sends this to the acquirer. Never stored or logged. */
  | { type: 'online_request'; data: TReaderOnlineRequest }
  /** The reader's error name (chip-terminal.ts terminalErrorMessage); DEVICE_RESET after a reset. */
  | { type: 'error'; code: string }
  /** The reader went away (out of range, switched off). */
  | { type: 'disconnected' };

/** Why a reader could not be connected (spec §8). */
export type TReaderConnectFailure =
  'discovery_failed' | 'connect_failed' | 'characteristics_missing';

export class ReaderConnectError extends Error {
  constructor(readonly reason: TReaderConnectFailure) {
    super(reason);
    this.name = 'ReaderConnectError';
  }
}

/**
 * One card reader, however it is reached (Bluetooth, or the sandbox's twin): the terminal modal
 * speaks only this, so it never knows which transport it drives.
 */
export type TReaderPort = {
  /** Finds and connects the reader; rejects with a ReaderConnectError. */
  connect(): Promise<void>;
  /** doTrade for the amount in kobo (spec §9); the reader answers with events. */
  startTrade(amountKobo: number): Promise<void>;
  /** 'Reset Transaction': the reader abandons the trade. */
  cancelTrade(): Promise<void>;
  /** 'Reset Device': the reader restarts and reports DEVICE_RESET once it is back. */
  resetDevice(): Promise<void>;
  disconnect(): void;
  subscribe(listener: (event: TReaderEvent) => void): () => void;
  /**
   * A reader a person plays by hand (the sandbox reader: its card slot and keypad), shown in the
   * modal beside the transaction; none for a real reader, whose slot and keypad are in the hand.
   */
  Controls: ComponentType<{ transaction: TTerminalTransaction }> | null;
};

/** A tiny event hub for the transports. */
export function readerEvents() {
  const listeners = new Set<(event: TReaderEvent) => void>();
  return {
    emit(event: TReaderEvent) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener: (event: TReaderEvent) => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

import type { TDatabase } from '../db/database';
import { readEventsAfter, type TLoggedEvent } from './event-log';

/*
 * The event hub (docs/payments.md "Events"): what the page's event streams listen to. Events are
 * rows of the event log, written in the transaction of the change they report; the database
 * notifies every process at commit (migration 0003, events_notify) and the hub of each process
 * reads the new rows of the streams someone there is watching, once per stream, and hands them
 * to every watcher. The same code serves PGlite (one process) and PostgreSQL (any number of
 * processes behind a load balancer: each has one LISTEN connection).
 */

export type TEventWatcher = (event: TLoggedEvent) => void;

export type TEventHub = {
  /**
   * Calls `watcher` with every event of `stream` whose id is above `afterId`: first those already
   * logged (a reconnecting stream's Last-Event-ID replay), then each new one, in id order, each
   * once. Resolves once the replay is handed over, with a function that stops watching.
   */
  watch(stream: string, afterId: number, watcher: TEventWatcher): Promise<() => void>;
  /** How many watchers are open (the bench and the health of a process read it). */
  readonly watchers: number;
  close(): Promise<void>;
};

type TStreamState = {
  /** The highest id handed to this stream's watchers. */
  lastId: number;
  watchers: Set<{ fn: TEventWatcher; lastId: number }>;
  /** A read in flight, and whether another notification came while it ran. */
  reading: boolean;
  again: boolean;
};

export function eventHub(database: Pick<TDatabase, 'db' | 'listen'>): TEventHub {
  const streams = new Map<string, TStreamState>();
  let stopListening: Promise<() => Promise<void>> | null = null;
  let closed = false;
  let count = 0;

  const deliver = (state: TStreamState, event: TLoggedEvent) => {
    for (const watcher of state.watchers) {
      if (event.id <= watcher.lastId) continue;
      watcher.lastId = event.id;
      watcher.fn(event);
    }
  };

  /** Reads what is new on a stream; a notification during the read leads to one more read. */
  const readNew = async (stream: string, state: TStreamState) => {
    if (state.reading) {
      state.again = true;
      return;
    }
    state.reading = true;
    try {
      do {
        state.again = false;
        const rows = await readEventsAfter(database.db, stream, state.lastId);
        for (const row of rows) {
          state.lastId = Math.max(state.lastId, row.id);
          deliver(state, row);
        }
        if (rows.length === 200) state.again = true;
      } while (state.again && streams.get(stream) === state);
    } catch (error) {
      console.error(`Event stream ${stream} could not be read: ${(error as Error).message}`);
    } finally {
      state.reading = false;
    }
  };

  const onNotification = (payload: string) => {
    let stream: unknown;
    try {
      stream = (JSON.parse(payload) as { stream?: unknown }).stream;
    } catch {
      return;
    }
    const state = typeof stream === 'string' ? streams.get(stream) : undefined;
    if (state && typeof stream === 'string') void readNew(stream, state);
  };

  return {
    get watchers() {
      return count;
    },

    async watch(stream, afterId, fn) {
      if (closed) throw new Error('The event hub is closed');
      stopListening ??= database.listen('events', onNotification);
      await stopListening;
      let state = streams.get(stream);
      if (!state) {
        state = { lastId: afterId, watchers: new Set(), reading: false, again: false };
        streams.set(stream, state);
      }
      // Listening first, then the replay: an event committed in between is in one or the other,
      // and the ids keep it from being handed over twice.
      const watcher = { fn, lastId: afterId };
      state.watchers.add(watcher);
      count += 1;
      const replay = await readEventsAfter(database.db, stream, afterId, 1_000);
      for (const row of replay) {
        if (row.id <= watcher.lastId) continue;
        watcher.lastId = row.id;
        fn(row);
      }
      state.lastId = Math.max(state.lastId, watcher.lastId);
      const mine = state;
      return () => {
        if (!mine.watchers.delete(watcher)) return;
        count -= 1;
        if (mine.watchers.size === 0 && streams.get(stream) === mine) streams.delete(stream);
      };
    },

    async close() {
      closed = true;
      streams.clear();
      count = 0;
      if (stopListening) await (await stopListening.catch(() => null))?.();
    },
  };
}

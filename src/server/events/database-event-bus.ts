import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TDatabase } from '../db/database';
import type { TEvent, TEventBus, TEventErrorHandler, TEventInput, TEventType } from './event-bus';
import { eventSubscribers } from './event-subscribers';

/** The channel every process of the app listens on for the bus's events. */
export const EVENT_BUS_CHANNEL = 'event_bus';

/**
 * The database adapter of the EventBus port: an event is a NOTIFY on EVENT_BUS_CHANNEL, and every
 * process of the app LISTENs there (on PostgreSQL over the process's one LISTEN connection that
 * the event hub shares, db/database.ts), so a subscriber in any process hears an event published
 * in any process, its own included. On PGlite the same code runs in the one process.
 *
 * Publishing waits until this process listens, so an event it publishes reaches its own
 * subscribers; a NOTIFY that fails is told to onError, not to the publisher, whose change has
 * committed. Events published one after another (each awaited) arrive in that order: each
 * NOTIFY commits before the next is sent, and notifications are delivered in commit order.
 */
export function databaseEventBus(options: {
  database: Pick<TDatabase, 'db' | 'listen'>;
  onError: TEventErrorHandler;
}): TEventBus {
  const { database, onError } = options;
  const subscribers = eventSubscribers(onError);

  const heard = (payload: string) => {
    try {
      subscribers.dispatch(JSON.parse(payload) as TEvent);
    } catch {
      // Not an event of ours: nothing to deliver.
    }
  };

  const listening = database.listen(EVENT_BUS_CHANNEL, heard);
  // A failure to listen is the publisher's to hear (publish awaits this), not an unhandled one.
  listening.catch(() => {});

  return {
    async publish<K extends TEventType>(input: TEventInput<K>): Promise<TEvent<K>> {
      if (subscribers.closed) throw new Error('The event bus is closed');
      const event = eventOf(input);
      try {
        await listening;
        await database.db.execute(notifyOf(event));
      } catch (error) {
        // The change it reports has committed: a bus that cannot send is the subscribers' loss,
        // told to onError, never the publisher's failure (its caller's answer stays the same).
        onError(error, event as TEvent);
      }
      return event;
    },

    async notifyChannel() {
      if (subscribers.closed) throw new Error('The event bus is closed');
      await listening;
      return EVENT_BUS_CHANNEL;
    },

    subscribe: (type, handler) => subscribers.subscribe(type, handler),

    async close() {
      subscribers.close();
      const stop = await listening.catch(() => null);
      await stop?.();
    },
  };
}

/** The event as the bus sends it: JSON data, its id given or made. */
export function eventOf<K extends TEventType>(input: TEventInput<K>): TEvent<K> {
  return {
    type: input.type,
    data: JSON.parse(JSON.stringify(input.data)) as TEvent<K>['data'],
    id: input.id ?? randomUUID(),
  };
}

const notifyOf = (event: { type: TEventType; data: unknown; id: string }) =>
  sql`SELECT pg_notify(${EVENT_BUS_CHANNEL}, ${JSON.stringify(event)})`;

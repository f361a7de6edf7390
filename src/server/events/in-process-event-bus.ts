import { randomUUID } from 'node:crypto';
import type { TEvent, TEventBus, TEventErrorHandler, TEventInput, TEventType } from './event-bus';
import { eventSubscribers } from './event-subscribers';

/**
 * The in-process adapter of the EventBus port: subscribers in this process only. The app uses
 * the database's adapter (database-event-bus.ts); a test hands this one in to watch what the app
 * publishes. Each subscriber gets its own copy of the data, as JSON, the way it would arrive from
 * another process.
 */
export function inProcessEventBus(options: { onError: TEventErrorHandler }): TEventBus {
  const subscribers = eventSubscribers(options.onError);
  return {
    publish<K extends TEventType>(input: TEventInput<K>): Promise<TEvent<K>> {
      if (subscribers.closed) return Promise.reject(new Error('The event bus is closed'));
      const event = {
        type: input.type,
        data: JSON.parse(JSON.stringify(input.data)) as TEvent<K>['data'],
        id: input.id ?? randomUUID(),
      } as TEvent<K>;
      // A TEvent<K> is one of the TEvent union; TypeScript cannot see that for a generic K.
      subscribers.dispatch(event as TEvent);
      return Promise.resolve(event);
    },
    subscribe: (type, handler) => subscribers.subscribe(type, handler),
    close() {
      subscribers.close();
      return Promise.resolve();
    },
  };
}

import { randomUUID } from 'node:crypto';
import type {
  TEvent,
  TEventBus,
  TEventErrorHandler,
  TEventHandler,
  TEventInput,
  TEventType,
} from './event-bus';

type TSubscriber = { handler: TEventHandler<TEventType>; active: boolean };

/**
 * The in-process adapter of the EventBus port: subscribers in this process only, which is all
 * there is with PGlite (one process's database) and with one server on PostgreSQL. Each
 * subscriber gets its own copy of the data, as JSON, the way it would arrive from another
 * process.
 */
export function inProcessEventBus(options: { onError: TEventErrorHandler }): TEventBus {
  const subscribers = new Map<TEventType, Set<TSubscriber>>();
  let closed = false;

  const deliver = (subscriber: TSubscriber, event: TEvent, json: string) => {
    // Unsubscribed or closed since the event was published: it is not delivered any more.
    if (closed || !subscriber.active) return;
    const copy = { ...event, data: JSON.parse(json) as TEvent['data'] };
    try {
      Promise.resolve(subscriber.handler(copy)).catch((error: unknown) =>
        options.onError(error, event),
      );
    } catch (error) {
      options.onError(error, event);
    }
  };

  return {
    publish<K extends TEventType>(input: TEventInput<K>): Promise<TEvent<K>> {
      if (closed) return Promise.reject(new Error('The event bus is closed'));
      const json = JSON.stringify(input.data);
      const event = {
        type: input.type,
        data: JSON.parse(json) as TEvent<K>['data'],
        id: input.id ?? randomUUID(),
      } as TEvent<K>;
      // Each subscriber on a turn of its own, after the publisher's: setImmediate runs them in
      // the order they were queued, so events arrive in the order they were published.
      for (const subscriber of subscribers.get(input.type) ?? []) {
        // A TEvent<K> is one of the TEvent union; TypeScript cannot see that for a generic K.
        setImmediate(deliver, subscriber, event as TEvent, json);
      }
      return Promise.resolve(event);
    },

    subscribe<K extends TEventType>(type: K, handler: TEventHandler<K>) {
      if (closed) return () => {};
      const ofType = subscribers.get(type) ?? new Set<TSubscriber>();
      subscribers.set(type, ofType);
      // One entry per subscription: the same function subscribed twice is two subscribers.
      const subscriber: TSubscriber = {
        handler: (event) => handler(event as TEvent<K>),
        active: true,
      };
      ofType.add(subscriber);
      return () => {
        subscriber.active = false;
        ofType.delete(subscriber);
      };
    },

    close() {
      closed = true;
      subscribers.clear();
      return Promise.resolve();
    },
  };
}

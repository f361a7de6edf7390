import type { TEvent, TEventErrorHandler, TEventHandler, TEventType } from './event-bus';

type TSubscriber = { handler: TEventHandler<TEventType>; active: boolean };

/**
 * The subscriber side every EventBus adapter shares: who listens to which type, and delivery of
 * an event to them, each subscriber on a turn of its own after the caller's (setImmediate keeps
 * the order events were dispatched in), each with its own copy of the data as JSON, a
 * subscriber's failure told to `onError` and never to anyone else.
 */
export function eventSubscribers(onError: TEventErrorHandler) {
  const subscribers = new Map<TEventType, Set<TSubscriber>>();
  let closed = false;

  const deliver = (subscriber: TSubscriber, event: TEvent, json: string) => {
    // Unsubscribed or closed since the event was dispatched: it is not delivered any more.
    if (closed || !subscriber.active) return;
    const copy = { ...event, data: JSON.parse(json) as TEvent['data'] };
    try {
      Promise.resolve(subscriber.handler(copy)).catch((error: unknown) => onError(error, event));
    } catch (error) {
      onError(error, event);
    }
  };

  return {
    get closed() {
      return closed;
    },

    /** Queues `event` for every subscriber of its type. */
    dispatch(event: TEvent): void {
      if (closed) return;
      const json = JSON.stringify(event.data);
      for (const subscriber of subscribers.get(event.type) ?? []) {
        setImmediate(deliver, subscriber, event, json);
      }
    },

    subscribe<K extends TEventType>(type: K, handler: TEventHandler<K>): () => void {
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

    close(): void {
      closed = true;
      subscribers.clear();
    },
  };
}

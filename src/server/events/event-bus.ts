/*
 * The EventBus port (ARCHITECTURE.md "Events"): typed events published after a state change
 * commits, delivered to every subscriber of their type. One bus per app, built with its context
 * (context.ts). The app's adapter is the database's (database-event-bus.ts): NOTIFY and LISTEN,
 * so on PostgreSQL every process behind a load balancer hears every event, and on PGlite the one
 * process does. The in-process adapter (in-process-event-bus.ts) is what a test hands in to
 * watch what the app publishes. Both pass the same contract suite (event-bus.contract.ts).
 */

/**
 * Every event the server publishes, by type, with the data it carries. Data is JSON (no Date,
 * no undefined), because an event crosses a process boundary once the bus is LISTEN/NOTIFY.
 */
export type TEventMap = {
  /** A merchant created a consent; its transaction has committed. */
  'consent.created': { consentId: string; clientId: string; merchantId: string };
  /** A payer granted a consent; its transaction has committed. */
  'consent.granted': { consentId: string; clientId: string; merchantId: string };
};

export type TEventType = keyof TEventMap;

/** An event as subscribers receive it. */
export type TEvent<K extends TEventType = TEventType> = {
  [T in K]: { type: T; data: TEventMap[T]; id: string };
}[K];

/** An event as it is published: the id is the publisher's (e.g. its event row's) or the bus's. */
export type TEventInput<K extends TEventType = TEventType> = {
  [T in K]: { type: T; data: TEventMap[T]; id?: string };
}[K];

export type TEventHandler<K extends TEventType> = (event: TEvent<K>) => void | Promise<void>;

/** What the bus does with a subscriber's failure: it never reaches the publisher. */
export type TEventErrorHandler = (error: unknown, event: TEvent) => void;

export type TEventBus = {
  /**
   * Delivers the event to every subscriber of its type, later: never inside this call, so a
   * subscriber's work or failure never becomes the publisher's. Resolves with the event as sent
   * (its id given or made) once the bus has accepted it; rejects once the bus is closed.
   */
  publish<K extends TEventType>(event: TEventInput<K>): Promise<TEvent<K>>;
  /**
   * The database's bus only: the NOTIFY channel its events go on, once this process listens
   * there. A change may then send its event with pg_notify (of `eventOf`) in its own statement,
   * where publish would cost a statement after the commit: PostgreSQL delivers a notification
   * only when its transaction commits, so a change that rolls back publishes nothing. Rejects
   * when the bus is closed or cannot listen: publish after the commit then.
   */
  notifyChannel?(): Promise<string>;
  /** Calls `handler` with each event of `type`, in the order published; returns unsubscribe. */
  subscribe<K extends TEventType>(type: K, handler: TEventHandler<K>): () => void;
  /** Stops delivery and releases what the bus holds (a LISTEN connection). */
  close(): Promise<void>;
};

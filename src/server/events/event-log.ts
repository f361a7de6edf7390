import { and, asc, eq, gt, max, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../db/database';
import { preparedQuery } from '../db/prepared-queries';
import { events } from '../db/schema';

/*
 * The event log (docs/payments.md "Events"): every event a payer's page listens to is a row,
 * written in the same transaction as the state change it reports, so an event exists exactly
 * when its change committed. The row's id is the server-sent-event id; the database notifies
 * every process's listeners at commit (migration 0003, events_notify).
 *
 * A watcher resumes after the highest id it was handed, so within a stream ids must become
 * visible in id order: an id drawn first but committed last would fall behind a watcher that had
 * already passed it, and never reach it. A stream's id is therefore drawn under a lock on the
 * stream held until the drawing transaction ends: the next event of the stream draws its id only
 * once the one before has committed or rolled back. Ids stay one sequence across streams, so the
 * ids clients already hold (Last-Event-ID) keep their place.
 */

/** The streams events are written to, and who may read each (routes/event-streams.ts). */
export const eventStreams = {
  payment: (paymentId: string) => `payment:${paymentId}`,
  cardLinking: (payerId: string) => `card-linking:${payerId}`,
  bankValidation: (validationId: string) => `bank-validation:${validationId}`,
  accountLink: (accountLinkId: string) => `account-link:${accountLinkId}`,
} as const;

export type TLoggedEvent = {
  id: number;
  stream: string;
  type: string;
  data: Record<string, unknown>;
};

/**
 * A new event's id on `stream`, drawn under the stream's lock (above), held until the drawing
 * transaction ends (or the statement, outside one).
 */
export const nextEventId = (stream: SQL | string) =>
  sql<number>`(select nextval('events_id_seq') from pg_advisory_xact_lock(hashtext('events'), hashtext(${stream})))`;

/**
 * An event's row, as one prepared query (every state change a page follows writes one). Its id is
 * drawn after the stream's lock is taken, in the same statement, so it holds outside a
 * transaction too (the lock then lasts until the statement commits).
 */
const prepareAppend = (db: TDb) =>
  db
    .insert(events)
    .values({
      id: nextEventId(sql`${sql.placeholder('stream')}`),
      stream: sql.placeholder('stream'),
      type: sql.placeholder('type'),
      data: sql.placeholder('data'),
    })
    .returning({ id: events.id })
    .prepare('event_append');

/** Appends an event inside `tx`, the transaction of the change it reports; answers its id. */
export async function appendEvent(
  tx: TDb,
  event: { stream: string; type: string; data: Record<string, unknown> },
): Promise<number> {
  const [row] = await preparedQuery(tx, 'event_append', prepareAppend).execute(event);
  if (!row) throw new Error('An event could not be appended');
  return row.id;
}

/**
 * The id of the stream's latest event (0 when it has none): read before a state, it is where a
 * stream opened to follow that state resumes, so nothing the state already shows is sent again.
 */
export async function latestEventId(db: TDb, stream: string): Promise<number> {
  const [row] = await db
    .select({ id: max(events.id) })
    .from(events)
    .where(eq(events.stream, stream));
  return row?.id ?? 0;
}

/** The events of a stream after `afterId` (0: from the start), oldest first, at most `limit`. */
export async function readEventsAfter(
  db: TDb,
  stream: string,
  afterId: number,
  limit = 200,
): Promise<TLoggedEvent[]> {
  return db
    .select({ id: events.id, stream: events.stream, type: events.type, data: events.data })
    .from(events)
    .where(and(eq(events.stream, stream), gt(events.id, afterId)))
    .orderBy(asc(events.id))
    .limit(limit);
}

import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  EVENT_LIST_DAYS,
  type TMerchantEventsQuery,
  type TMerchantEventsResponse,
  type TWebhookEventType,
} from '../../../domain/schemas/webhooks';
import type { TDb } from '../../db/database';
import { apiClients, merchantEvents } from '../../db/schema';
import { decodeListCursor, encodeListCursor } from '../list-cursor';

const DAY_MS = 24 * 60 * 60 * 1_000;

/**
 * GET /api/v1/events (docs/webhooks.md "Catching up"): the client's events of the last
 * EVENT_LIST_DAYS days, newest first, each as its webhook's body carried it, so a merchant whose
 * endpoint was down can find what it missed. The cursor is the event's time and public id.
 */
export const listMerchantEvents = (
  db: TDb,
  clientId: string,
  query: TMerchantEventsQuery,
  now: Date,
) => listEvents(db, eq(merchantEvents.clientId, clientId), query, now);

/**
 * The same list of every client of a merchant's (the dashboard's Events, docs/dashboard.md):
 * the merchant is named in the query itself, so another merchant's events are never read.
 */
export const listEventsOfMerchant = (
  db: TDb,
  merchantId: string,
  query: TMerchantEventsQuery,
  now: Date,
) =>
  listEvents(
    db,
    inArray(
      merchantEvents.clientId,
      db
        .select({ clientId: apiClients.clientId })
        .from(apiClients)
        .where(eq(apiClients.merchantId, merchantId)),
    ),
    query,
    now,
  );

async function listEvents(
  db: TDb,
  owner: SQL,
  query: TMerchantEventsQuery,
  now: Date,
): Promise<Omit<TMerchantEventsResponse, 'success'>> {
  const after = query.cursor ? decodeListCursor(query.cursor) : null;
  const created = sql<Date>`date_trunc('milliseconds', ${merchantEvents.createdAt})`;
  const rows = await db
    .select({
      id: merchantEvents.publicId,
      type: merchantEvents.type,
      data: merchantEvents.data,
      createdAt: created.mapWith(merchantEvents.createdAt),
    })
    .from(merchantEvents)
    .where(
      and(
        owner,
        gte(merchantEvents.createdAt, new Date(now.getTime() - EVENT_LIST_DAYS * DAY_MS)),
        query.type ? eq(merchantEvents.type, query.type) : undefined,
        // As instants: PostgreSQL refuses a timestamp's text with an offset past ±15:59.
        query.createdFrom ? gte(merchantEvents.createdAt, new Date(query.createdFrom)) : undefined,
        query.createdTo ? lt(merchantEvents.createdAt, new Date(query.createdTo)) : undefined,
        after
          ? sql`(${created}, ${merchantEvents.publicId}) < (${after.at}, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(created), desc(merchantEvents.publicId))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    events: page.map((row) => ({
      id: row.id,
      type: row.type as TWebhookEventType,
      createdAt: row.createdAt.toISOString(),
      data: row.data,
    })),
    nextCursor:
      rows.length > query.limit && last ? encodeListCursor(last.createdAt, last.id) : null,
  };
}

/** How often events past the list's days are deleted (jobs/kinds.ts 'webhooks.prune-events'). */
export const EVENT_PRUNE_MS = 6 * 60 * 60 * 1_000;

/** The most events one prune deletes: a backlog goes in several runs, none holding locks long. */
const PRUNE_BATCH = 5_000;

/**
 * Deletes events older than EVENT_LIST_DAYS days (and, with them, their deliveries, long ended:
 * a delivery is retried for three days); answers how many. The list never shows them anyway.
 */
export async function pruneMerchantEvents(db: TDb, now: Date): Promise<number> {
  const before = new Date(now.getTime() - EVENT_LIST_DAYS * DAY_MS);
  const old = db
    .select({ id: merchantEvents.id })
    .from(merchantEvents)
    .where(lt(merchantEvents.createdAt, before))
    .orderBy(merchantEvents.id)
    .limit(PRUNE_BATCH);
  const deleted = await db
    .delete(merchantEvents)
    .where(sql`${merchantEvents.id} IN (${old})`)
    .returning({ id: merchantEvents.id });
  return deleted.length;
}

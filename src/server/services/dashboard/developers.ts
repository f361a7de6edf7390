import { and, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { REQUEST_LOG_DAYS } from '../../../domain/dashboard-roles';
import type {
  TDashboardDeadLetter,
  TDashboardDelivery,
  TDashboardWebhook,
  TDashboardWebhookChangeRequest,
  TDashboardWebhookCreateRequest,
} from '../../../domain/schemas/dashboard';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import {
  apiClients,
  apiRequestLog,
  merchantEvents,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema';
import { deadLetterOf, JOBS_SCHEMA } from '../../jobs/engine';
import { AppError } from '../../app-error';
import { changeClientOrigins, readClient, rotateClientSecret } from '../merchants/merchant-clients';
import {
  changeWebhookEndpoint,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  rotateWebhookSecret,
  type TWebhookContext,
} from '../merchants/webhook-endpoints';
import { resendDelivery } from '../merchants/webhook-deliveries';
import { WEBHOOK_DELIVER_JOB } from '../merchants/webhooks';
import { recordAudit, type TActor } from './audit';

/*
 * The developers' screens (docs/dashboard.md "Developers"): the merchant's API keys (its clients:
 * rotation with a grace period, embedding origins), webhook endpoints (added, changed, turned off
 * and on, deleted, their secret rotated) with their deliveries (request, answer, time) and resend,
 * and the API request log. Each change is the merchant API's own (services/merchants), asked for
 * a client of this merchant only, and written to the audit log.
 */

const DELIVERIES_SHOWN = 100;
const DEAD_LETTERS_SHOWN = 50;
const REQUESTS_SHOWN = 200;

async function clientIdsOf(db: TDb, merchantId: string): Promise<string[]> {
  const rows = await db
    .select({ clientId: apiClients.clientId })
    .from(apiClients)
    .where(eq(apiClients.merchantId, merchantId))
    .orderBy(apiClients.createdAt);
  return rows.map((row) => row.clientId);
}

/** A client of the merchant's, or NOT_FOUND as if it did not exist. */
async function ownClient(db: TDb, merchantId: string, clientId: string): Promise<string> {
  if (!(await clientIdsOf(db, merchantId)).includes(clientId)) {
    throw new AppError('NOT_FOUND', 'No API key of yours has this client id');
  }
  return clientId;
}

/** A live webhook endpoint of the merchant's: the client it belongs to and its URL. */
async function ownWebhook(
  db: TDb,
  merchantId: string,
  webhookId: string,
): Promise<{ clientId: string; url: string }> {
  const [row] = await db
    .select({ clientId: webhookEndpoints.clientId, url: webhookEndpoints.url })
    .from(webhookEndpoints)
    .innerJoin(apiClients, eq(apiClients.clientId, webhookEndpoints.clientId))
    .where(
      and(
        eq(webhookEndpoints.id, webhookId),
        eq(apiClients.merchantId, merchantId),
        isNull(webhookEndpoints.deletedAt),
      ),
    );
  if (!row) throw new AppError('NOT_FOUND', 'No webhook of yours has this id');
  return row;
}

export async function listKeys(db: TDb, merchantId: string, now: Date) {
  const ids = await clientIdsOf(db, merchantId);
  return Promise.all(
    ids.map(async (id) => {
      const { clientId, allowedOrigins, previousSecretValidUntil } = await readClient(db, id, now);
      return { clientId, allowedOrigins, previousSecretValidUntil };
    }),
  );
}

/** A new secret, shown once; the old one keeps working for `graceHours`. */
export async function rotateKey(
  db: TDb,
  who: TActor,
  clientId: string,
  graceHours: number,
  now: Date,
) {
  await ownClient(db, who.merchantId, clientId);
  const rotated = await rotateClientSecret(db, {
    clientId,
    presented: 'operator',
    graceHours,
    now,
  });
  await recordAudit(
    db,
    who,
    { action: 'key.rotated', target: clientId, data: { graceHours } },
    now,
  );
  return rotated;
}

export async function changeOrigins(
  db: TDb,
  who: TActor,
  clientId: string,
  change: { add?: string[] | undefined; remove?: string[] | undefined },
  now: Date,
) {
  await ownClient(db, who.merchantId, clientId);
  const allowedOrigins = await changeClientOrigins(db, clientId, {
    add: change.add ?? [],
    remove: change.remove ?? [],
  });
  await recordAudit(
    db,
    who,
    { action: 'key.origins_changed', target: clientId, data: change },
    now,
  );
  return allowedOrigins;
}

/** The merchant's live webhook endpoints, oldest first; `webhookId`: that one alone. */
export async function listWebhooks(
  db: TDb,
  merchantId: string,
  webhookId?: string,
): Promise<TDashboardWebhook[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .innerJoin(apiClients, eq(apiClients.clientId, webhookEndpoints.clientId))
    .where(
      and(
        eq(apiClients.merchantId, merchantId),
        isNull(webhookEndpoints.deletedAt),
        webhookId === undefined ? undefined : eq(webhookEndpoints.id, webhookId),
      ),
    )
    .orderBy(webhookEndpoints.createdAt);
  return rows.map(({ webhook_endpoints: w }) => ({
    webhookId: w.id,
    clientId: w.clientId,
    url: w.url,
    events: w.events,
    status: w.disabledAt ? ('disabled' as const) : ('active' as const),
    disabledBy: w.disabledAt ? w.disabledBy : null,
    createdAt: w.createdAt.toISOString(),
  }));
}

async function readWebhook(db: TDb, merchantId: string, webhookId: string) {
  const [webhook] = await listWebhooks(db, merchantId, webhookId);
  if (!webhook) throw new AppError('NOT_FOUND', 'No webhook of yours has this id');
  return webhook;
}

/**
 * The audit log names a webhook's URL by its origin alone: a receiver's path or query may carry
 * a token of its own, and an audit row is never changed or removed.
 */
const originOf = (url: string) => new URL(url).origin;

/**
 * A webhook endpoint for one of the merchant's API keys (its URL checked as the merchant API
 * checks it), and its signing secret, shown this once. Once per Idempotency-Key: a retry is
 * answered the same endpoint and secret, and adds nothing.
 */
export async function addWebhook(
  ctx: TWebhookContext,
  who: TActor,
  input: TDashboardWebhookCreateRequest & { idempotencyKey: string | undefined },
): Promise<{ webhook: TDashboardWebhook; secret: string }> {
  const { clientId, url, events } = input;
  await ownClient(ctx.db, who.merchantId, clientId);
  const now = ctx.clock.now();
  const created = await createWebhookEndpoint(ctx, clientId, url, {
    events,
    idempotencyKey: input.idempotencyKey,
    also: (tx, webhookId) =>
      recordAudit(
        tx,
        who,
        {
          action: 'webhook.added',
          target: webhookId,
          data: { clientId, url: originOf(url), events },
        },
        now,
      ),
  });
  const webhook: TDashboardWebhook = {
    webhookId: created.id,
    clientId,
    url: created.url,
    events,
    status: 'active',
    disabledBy: null,
    createdAt: created.createdAt,
  };
  return { webhook, secret: created.secret };
}

/** Another URL or other events for a webhook of the merchant's; its secret stays. */
export async function changeWebhook(
  ctx: TWebhookContext,
  who: TActor,
  webhookId: string,
  change: TDashboardWebhookChangeRequest,
): Promise<TDashboardWebhook> {
  const { clientId } = await ownWebhook(ctx.db, who.merchantId, webhookId);
  const now = ctx.clock.now();
  await changeWebhookEndpoint(ctx, {
    clientId,
    webhookId,
    url: change.url,
    events: change.events,
    also: (tx) =>
      recordAudit(
        tx,
        who,
        {
          action: 'webhook.changed',
          target: webhookId,
          data: {
            ...(change.url === undefined ? {} : { url: originOf(change.url) }),
            ...(change.events === undefined ? {} : { events: change.events }),
          },
        },
        now,
      ),
  });
  return readWebhook(ctx.db, who.merchantId, webhookId);
}

/** Turns a webhook of the merchant's off; one already off is left as it is, and logged once. */
export async function disableWebhook(db: TDb, who: TActor, webhookId: string, now: Date) {
  const { clientId } = await ownWebhook(db, who.merchantId, webhookId);
  await disableWebhookEndpoint(db, {
    clientId,
    webhookId,
    now,
    also: (tx) => recordAudit(tx, who, { action: 'webhook.disabled', target: webhookId }, now),
  });
}

/** Deletes a webhook of the merchant's: what it was still owed is given up. */
export async function deleteWebhook(db: TDb, who: TActor, webhookId: string, now: Date) {
  const { clientId, url } = await ownWebhook(db, who.merchantId, webhookId);
  await deleteWebhookEndpoint(db, clientId, webhookId, now, (tx) =>
    recordAudit(
      tx,
      who,
      { action: 'webhook.deleted', target: webhookId, data: { url: originOf(url) } },
      now,
    ),
  );
}

/** The body every try of a delivery sends (services/merchants/webhooks.ts deliver). */
const requestBody = (event: typeof merchantEvents.$inferSelect) =>
  JSON.stringify({
    id: event.publicId,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    data: event.data,
  });

/** The merchant's deliveries, newest first, with the request each sends and its last answer. */
export async function listDeliveries(
  db: TDb,
  merchantId: string,
  webhookId: string | undefined,
): Promise<TDashboardDelivery[]> {
  if (webhookId) await ownWebhook(db, merchantId, webhookId);
  const clientIds = await clientIdsOf(db, merchantId);
  if (clientIds.length === 0) return [];
  const rows = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: merchantEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(merchantEvents, eq(merchantEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        inArray(webhookEndpoints.clientId, clientIds),
        webhookId ? eq(webhookEndpoints.id, webhookId) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(DELIVERIES_SHOWN);
  return rows.map(({ delivery, endpoint, event }) => ({
    id: delivery.id,
    endpointId: endpoint.id,
    clientId: endpoint.clientId,
    url: endpoint.url,
    eventId: event.publicId,
    eventType: event.type,
    consentId: delivery.consentId,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    lastBody: delivery.lastBody,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    request: requestBody(event),
  }));
}

/**
 * The merchant's deliveries whose job failed every retry (its dead letter, docs/jobs.md), newest
 * first. A dead letter names its delivery by id in its data (a number, or its digits as PostgreSQL's
 * driver reads a bigint); one that names none is no one's.
 */
export async function listDeadLetters(
  db: TDb,
  merchantId: string,
): Promise<TDashboardDeadLetter[]> {
  const result = await db.execute(sql`
    WITH dead AS MATERIALIZED (
      SELECT (data->>'deliveryId')::bigint AS delivery_id, source_retry_count, created_on
      FROM ${sql.raw(JOBS_SCHEMA)}.job
      WHERE name = ${deadLetterOf(WEBHOOK_DELIVER_JOB)}
        AND data->>'deliveryId' ~ '^[0-9]{1,18}$')
    SELECT d.id, m.public_id, m.type, e.url, d.status,
           coalesce(dead.source_retry_count, 0) + 1 AS tries, dead.created_on
    FROM dead
    JOIN webhook_deliveries d ON d.id = dead.delivery_id
    JOIN webhook_endpoints e ON e.id = d.endpoint_id
    JOIN api_clients c ON c.client_id = e.client_id
    JOIN merchant_events m ON m.id = d.event_id
    WHERE c.merchant_id = ${merchantId}
    ORDER BY dead.created_on DESC, d.id DESC
    LIMIT ${DEAD_LETTERS_SHOWN}`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    id: number | string;
    public_id: string;
    type: string;
    url: string;
    status: TDashboardDeadLetter['status'];
    tries: number | string;
    created_on: Date | string;
  }[];
  return rows.map((row) => ({
    deliveryId: Number(row.id),
    eventId: row.public_id,
    eventType: row.type,
    url: row.url,
    tries: Number(row.tries),
    deadSince: new Date(row.created_on).toISOString(),
    status: row.status,
  }));
}

/** Sends a delivery again now (the merchant API's resend), for a client of this merchant. */
export async function resendFromDashboard(
  ctx: Pick<TAppContext, 'db' | 'jobs'>,
  who: TActor,
  deliveryId: number,
  now: Date,
) {
  const [row] = await ctx.db
    .select({ clientId: webhookEndpoints.clientId })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(apiClients, eq(apiClients.clientId, webhookEndpoints.clientId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(apiClients.merchantId, who.merchantId)));
  if (!row) throw new AppError('NOT_FOUND', 'No delivery of yours has this id');
  await resendDelivery(ctx, row.clientId, deliveryId, now);
  await recordAudit(ctx.db, who, { action: 'webhook.resent', target: String(deliveryId) }, now);
  await ctx.jobs.nudge(WEBHOOK_DELIVER_JOB);
}

export async function enableWebhook(db: TDb, who: TActor, webhookId: string, now: Date) {
  const { clientId } = await ownWebhook(db, who.merchantId, webhookId);
  await enableWebhookEndpoint(db, clientId, webhookId);
  await recordAudit(db, who, { action: 'webhook.enabled', target: webhookId }, now);
}

/** A new signing secret, shown once; the previous one signs too for a day. */
export async function rotateWebhook(
  db: TDb,
  who: TActor,
  webhookId: string,
  { idempotencyKey, now }: { idempotencyKey: string | undefined; now: Date },
) {
  const { clientId } = await ownWebhook(db, who.merchantId, webhookId);
  const { rotated, replayed } = await rotateWebhookSecret(db, {
    clientId,
    webhookId,
    idempotencyKey,
    now,
  });
  // A retry answered with the first rotation is no rotation of its own.
  if (!replayed) {
    await recordAudit(db, who, { action: 'webhook.secret_rotated', target: webhookId }, now);
  }
  return { secret: rotated.secret, previousSecretValidUntil: rotated.previousSecretValidUntil };
}

type TRequestLogEntry = typeof apiRequestLog.$inferInsert;
/** The most entries one INSERT of the request log writes. */
const REQUEST_LOG_BATCH = 500;

/** The request log this process keeps on each database (openRequestLog), for listings to flush. */
const requestLogs = new WeakMap<TDb, { flush(): Promise<void> }>();

/** How long an entry of the request log waits for others to go in its INSERT. */
const REQUEST_LOG_WINDOW_MS = 100;

/**
 * The merchant API's request log, written a batch at a time: an entry waits at most
 * REQUEST_LOG_WINDOW_MS, and the entries that came meanwhile go in one INSERT, one write after
 * the other. One statement and commit a batch, not one a request: consent creation on PostgreSQL
 * went from 950–1,050 a second to 1,080–1,140 (bench/README.md); batches of a turn of the event
 * loop still held one entry each at 50 payments a second, a window of 100 ms holds several. A
 * listing writes what waits first, so this process reads its own requests; a crash loses the last
 * 100 ms of a log that nothing else depends on.
 */
export function openRequestLog(db: TDb, onFailed: (err: unknown) => void) {
  const pending: TRequestLogEntry[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    while (pending.length > 0) {
      const batch = pending.splice(0, REQUEST_LOG_BATCH);
      writing = writing.then(() =>
        db
          .insert(apiRequestLog)
          .values(batch)
          .then(() => undefined, onFailed),
      );
    }
    return writing;
  };
  const log = {
    keep(entry: TRequestLogEntry) {
      pending.push(entry);
      if (timer) return;
      timer = setTimeout(() => void write(), REQUEST_LOG_WINDOW_MS);
      // The app's close writes what waits (flush): the timer keeps no process alive.
      timer.unref();
    },
    /** Resolves once every entry kept so far is written (or its failure told). */
    flush: write,
  };
  requestLogs.set(db, log);
  return log;
}

/** The merchant API's requests of the last 7 days, newest first (older ones go now). */
export async function listRequests(db: TDb, merchantId: string, now: Date) {
  const clientIds = await clientIdsOf(db, merchantId);
  if (clientIds.length === 0) return [];
  await requestLogs.get(db)?.flush();
  const since = new Date(now.getTime() - REQUEST_LOG_DAYS * 86_400_000);
  await db
    .delete(apiRequestLog)
    .where(and(inArray(apiRequestLog.clientId, clientIds), lt(apiRequestLog.createdAt, since)));
  const rows = await db
    .select()
    .from(apiRequestLog)
    .where(and(inArray(apiRequestLog.clientId, clientIds), gte(apiRequestLog.createdAt, since)))
    .orderBy(desc(apiRequestLog.id))
    .limit(REQUESTS_SHOWN);
  return rows.map((row) => ({
    clientId: row.clientId,
    method: row.method,
    path: row.path,
    status: row.status,
    idempotencyKey: row.idempotencyKey,
    requestId: row.requestId,
    at: row.createdAt.toISOString(),
  }));
}

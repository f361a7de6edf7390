import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { TWebhookDelivery, TWebhookEventType } from '../../../domain/schemas/webhooks';
import type { TClock } from '../../clock';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import type { THostResolver } from '../../providers/host-resolver';
import { apiClients, merchantEvents, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { AppError } from '../app-error';
import { storedSecret } from '../server-secrets';
import { postToTarget, webhookTarget, type TPostOutcome } from './webhook-targets';

/*
 * Webhooks (docs/webhooks.md). What happens to a merchant's consents is written to an outbox in
 * the transaction of the change, with one delivery per endpoint of the merchant; a deliverer
 * sends each, signed, and retries with exponential backoff for three days. A consent's events
 * reach an endpoint in the order they committed: one waits while an earlier one is undelivered.
 */

const MINUTE_MS = 60_000;
/** A delivery is tried for this long after its event, then given up (status failed). */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * MINUTE_MS;
/** The first retry after a failure; each next one waits twice as long, at most 6 hours. */
export const WEBHOOK_FIRST_RETRY_MS = 30_000;
const WEBHOOK_MAX_RETRY_MS = 6 * 60 * MINUTE_MS;
/** How long a claimed delivery is another process's to leave alone. */
const CLAIM_LEASE_MS = 2 * MINUTE_MS;
/** A signature older than this is refused by receivers that follow docs/webhooks.md. */
export const WEBHOOK_SIGNATURE_TOLERANCE_S = 300;

export const retryDelayMs = (attempts: number) =>
  Math.min(WEBHOOK_FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), WEBHOOK_MAX_RETRY_MS);

/** The header value: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

// The signing secrets are kept sealed under a key of the server's own (server_secrets).
async function sealKey(db: TDb): Promise<Buffer> {
  return createHash('sha256')
    .update(await storedSecret(db, 'webhook-secrets'))
    .digest();
}

async function seal(db: TDb, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await sealKey(db), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url')).join('.');
}

async function unseal(db: TDb, sealed: string): Promise<string> {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !data) throw new Error('A webhook secret is not sealed as expected');
  const decipher = createDecipheriv('aes-256-gcm', await sealKey(db), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

const MAX_ENDPOINTS_PER_CLIENT = 10;

/** What registering and delivering a webhook need: the checks of webhook-targets.ts ask `dns`. */
type TWebhookContext = {
  db: TDb;
  config: Pick<TConfig, 'webhooksAllowPrivate'>;
  clock: TClock;
  providers: { dns: THostResolver };
};

export async function createWebhookEndpoint(ctx: TWebhookContext, clientId: string, url: string) {
  if (!(await webhookTarget(ctx.providers.dns, ctx.config.webhooksAllowPrivate, url))) {
    throw new AppError('WEBHOOK_URL_REFUSED');
  }
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const id = `whk_${randomBytes(12).toString('base64url')}`;
  const createdAt = ctx.clock.now();
  const secretSealed = await seal(ctx.db, secret);
  // The limit is counted and kept under the client's row lock: registrations at once queue
  // behind it, so the eleventh is refused however they interleave.
  await ctx.db.transaction(async (tx) => {
    await tx
      .select({ clientId: apiClients.clientId })
      .from(apiClients)
      .where(eq(apiClients.clientId, clientId))
      .for('update');
    const [live] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.clientId, clientId), isNull(webhookEndpoints.deletedAt)));
    if ((live?.count ?? 0) >= MAX_ENDPOINTS_PER_CLIENT) {
      throw new AppError('VALIDATION_FAILED', `url: at most ${MAX_ENDPOINTS_PER_CLIENT} webhooks`);
    }
    await tx.insert(webhookEndpoints).values({ id, clientId, url, secretSealed, createdAt });
  });
  return { id, url, createdAt: createdAt.toISOString(), secret };
}

export async function listWebhookEndpoints(db: TDb, clientId: string) {
  const rows = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      createdAt: webhookEndpoints.createdAt,
    })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.clientId, clientId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(webhookEndpoints.createdAt);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Stops sending to an endpoint; what it was owed is given up with it. */
export async function deleteWebhookEndpoint(db: TDb, clientId: string, id: string, now: Date) {
  const [gone] = await db
    .update(webhookEndpoints)
    .set({ deletedAt: now })
    .where(
      and(
        eq(webhookEndpoints.id, id),
        eq(webhookEndpoints.clientId, clientId),
        isNull(webhookEndpoints.deletedAt),
      ),
    )
    .returning({ id: webhookEndpoints.id });
  if (!gone) throw new AppError('NOT_FOUND', 'No webhook of yours has this id');
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: 'endpoint deleted' })
    .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending')));
}

/**
 * Writes an event to the outbox inside `tx`, the transaction of the change it reports, with a
 * pending delivery for each of the client's endpoints: it exists exactly when the change does.
 */
export async function recordMerchantEvent(
  tx: TDb,
  event: {
    clientId: string;
    consentId: string | null;
    type: TWebhookEventType;
    data: Record<string, unknown>;
    now: Date;
  },
): Promise<void> {
  const [row] = await tx
    .insert(merchantEvents)
    .values({
      clientId: event.clientId,
      consentId: event.consentId,
      type: event.type,
      data: event.data,
      createdAt: event.now,
    })
    .returning({ id: merchantEvents.id });
  if (!row) throw new Error('A merchant event could not be written');
  await tx.execute(sql`
    INSERT INTO webhook_deliveries (endpoint_id, event_id, consent_id, next_attempt_at, created_at)
    SELECT id, ${row.id}, ${event.consentId}, ${event.now.toISOString()}::timestamptz,
           ${event.now.toISOString()}::timestamptz
    FROM webhook_endpoints
    WHERE client_id = ${event.clientId} AND deleted_at IS NULL`);
}

type TClaimed = {
  id: number;
  attempts: number;
  url: string;
  secret_sealed: string;
  event_id: number;
  type: string;
  data: Record<string, unknown>;
  event_created_at: string | Date;
};

const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

/**
 * What the delivery list says of a try: null when delivered, else a short outcome of our own.
 * Never the receiver's words nor an error's (an answer's body, a resolver's or socket's message
 * would tell a merchant about networks it has no business seeing).
 */
function failureOf(outcome: TPostOutcome | null, timeoutMs: number): string | null {
  if (outcome === null)
    return 'not sent: the host does not resolve to addresses webhooks may reach';
  if ('failure' in outcome) {
    return outcome.failure === 'timeout' ? `no answer in ${timeoutMs} ms` : 'could not connect';
  }
  if (outcome.status >= 300 && outcome.status < 400) {
    return `answered ${outcome.status}; redirects are not followed`;
  }
  return outcome.status >= 200 && outcome.status < 300 ? null : `answered ${outcome.status}`;
}

export type TWebhookDeliverer = {
  /** Sends every delivery that is due now; answers how many were tried. */
  runDue(): Promise<number>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
};

export function webhookDeliverer(
  ctx: TWebhookContext,
  options: { timeoutMs?: number; batch?: number } = {},
): TWebhookDeliverer {
  const { db, clock } = ctx;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const batch = options.batch ?? 20;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<number> | null = null;

  /**
   * Claims due deliveries in one statement: pending, due, with no earlier undelivered event of
   * the same consent for the same endpoint, and not claimed by another process (SKIP LOCKED).
   */
  async function claim(now: Date): Promise<TClaimed[]> {
    const lease = new Date(now.getTime() + CLAIM_LEASE_MS).toISOString();
    const result = await db.execute(sql`
      WITH due AS (
        SELECT d.id FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= ${now.toISOString()}::timestamptz
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries e
            WHERE e.endpoint_id = d.endpoint_id AND e.status = 'pending'
              AND e.consent_id IS NOT DISTINCT FROM d.consent_id AND e.event_id < d.event_id)
        ORDER BY d.id LIMIT ${batch}
        FOR UPDATE OF d SKIP LOCKED)
      UPDATE webhook_deliveries w SET next_attempt_at = ${lease}::timestamptz
      FROM due, webhook_endpoints p, merchant_events m
      WHERE w.id = due.id AND p.id = w.endpoint_id AND m.id = w.event_id
      RETURNING w.id, w.attempts, p.url, p.secret_sealed, m.id AS event_id, m.type, m.data,
                m.created_at AS event_created_at`);
    return rowsOf<TClaimed>(result);
  }

  async function deliver(row: TClaimed): Promise<void> {
    const body = JSON.stringify({
      id: `evt_${row.event_id}`,
      type: row.type,
      createdAt: new Date(row.event_created_at).toISOString(),
      data: row.data,
    });
    const startedAt = clock.now();
    const timestamp = Math.floor(startedAt.getTime() / 1_000);
    // Checked again now: the name's answer may have changed since registration (or since the
    // last try). A refused target is not connected to at all.
    const target = await webhookTarget(ctx.providers.dns, ctx.config.webhooksAllowPrivate, row.url);
    const outcome = target
      ? await postToTarget(target, {
          headers: {
            'content-type': 'application/json',
            'user-agent': 'OyaMoney-Webhooks/1',
            'oya-event-id': `evt_${row.event_id}`,
            'oya-event-type': row.type,
            'oya-signature': webhookSignature(await unseal(db, row.secret_sealed), timestamp, body),
          },
          body,
          timeoutMs,
        })
      : null;
    const status = outcome && 'status' in outcome ? outcome.status : null;
    const error = failureOf(outcome, timeoutMs);
    const now = clock.now();
    const attempts = row.attempts + 1;
    if (error === null) {
      await db
        .update(webhookDeliveries)
        .set({
          status: 'delivered',
          attempts,
          lastStatus: status,
          lastError: null,
          deliveredAt: now,
        })
        .where(eq(webhookDeliveries.id, row.id));
      return;
    }
    const eventAge = now.getTime() - new Date(row.event_created_at).getTime();
    const next = new Date(now.getTime() + retryDelayMs(attempts));
    const givenUp = eventAge + retryDelayMs(attempts) > WEBHOOK_RETRY_WINDOW_MS;
    await db
      .update(webhookDeliveries)
      .set({
        status: givenUp ? 'failed' : 'pending',
        attempts,
        lastStatus: status,
        lastError: error,
        nextAttemptAt: next,
      })
      .where(eq(webhookDeliveries.id, row.id));
  }

  async function runDue(): Promise<number> {
    let tried = 0;
    for (;;) {
      const claimed = await claim(clock.now());
      if (claimed.length === 0) return tried;
      // One consent's deliveries are never both claimed (the earlier one blocks the later), so
      // the batch may go out at once.
      await Promise.all(claimed.map((row) => deliver(row)));
      tried += claimed.length;
    }
  }

  return {
    runDue() {
      // One run at a time in this process; a tick during a run waits for it.
      running ??= runDue().finally(() => {
        running = null;
      });
      return running;
    },
    start(intervalMs) {
      if (timer) return;
      timer = setInterval(() => {
        if (!running) void this.runDue().catch(() => undefined);
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}

/** The deliveries of a client's webhooks, newest first (GET /api/v1/webhooks/deliveries). */
export async function listDeliveries(
  db: TDb,
  clientId: string,
  query: { status?: 'pending' | 'delivered' | 'failed' | undefined; limit: number },
): Promise<TWebhookDelivery[]> {
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      eventId: webhookDeliveries.eventId,
      eventType: merchantEvents.type,
      consentId: webhookDeliveries.consentId,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatus: webhookDeliveries.lastStatus,
      lastError: webhookDeliveries.lastError,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(merchantEvents, eq(merchantEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookEndpoints.clientId, clientId),
        query.status ? eq(webhookDeliveries.status, query.status) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(query.limit);
  return rows.map((row) => ({
    ...row,
    eventId: `evt_${row.eventId}`,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  }));
}

/** Sends a delivery again now (after the merchant fixed their receiver), whatever its status. */
export async function resendDelivery(db: TDb, clientId: string, deliveryId: number, now: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: now })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        sql`${webhookDeliveries.endpointId} IN (SELECT id FROM webhook_endpoints WHERE client_id = ${clientId} AND deleted_at IS NULL)`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  if (!row) throw new AppError('NOT_FOUND', 'No delivery of yours has this id');
}

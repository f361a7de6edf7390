import { and, eq, isNull, sql } from 'drizzle-orm';
import { rowsOf, type TDb } from '../../db/database';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { postToTarget, webhookTarget, type TPostOutcome } from './webhook-targets';
import type { TJobQueue } from '../../jobs/engine';
import { idAttributes, inSpan } from '../../observability/tracing';
import { webhookSignatures, unseal } from './webhook-signing';
import { type TWebhookContext, failOwed, NOT_SENT_DISABLED } from './webhook-endpoints';

/** The job kind that sends one delivery. */
export const WEBHOOK_DELIVER_JOB = 'webhooks.deliver';

/*
 * Webhooks (docs/webhooks.md). What happens to a merchant's consents is written to an outbox in
 * the transaction of the change, with one delivery per endpoint of the merchant; a deliverer
 * sends each, signed as Standard Webhooks (https://www.standardwebhooks.com) sign, and retries
 * with exponential backoff for three days. A consent's events reach an endpoint in the order they
 * committed: one waits while an earlier one is undelivered.
 *
 * Every try is a 'webhooks.deliver' job, and there is one retry policy, the delivery's own
 * schedule: a failed try writes its next time and queues the job that makes it, in one
 * transaction; a delivery that ends (sent, given up) queues the one of its consent waiting behind
 * it. The engine's own retries of the job are for a try that threw or whose process died.
 */

const MINUTE_MS = 60_000;
/** A delivery is tried for this long after its event, then given up (status failed). */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * MINUTE_MS;
/** The first retry after a failure; each next one waits twice as long, at most 6 hours. */
export const WEBHOOK_FIRST_RETRY_MS = 30_000;
const WEBHOOK_MAX_RETRY_MS = 6 * 60 * MINUTE_MS;
/**
 * How long a claimed delivery is another process's to leave alone: longer than a try (its
 * answer is awaited DELIVERY_TIMEOUT_MS), short enough that the delivery of a process that died
 * mid-try goes again from another within 30 s (docs/jobs.md "A process that dies").
 */
const CLAIM_LEASE_MS = 20_000;
/** How long a try waits for the endpoint's answer. */
const DELIVERY_TIMEOUT_MS = 10_000;

export const retryDelayMs = (attempts: number) =>
  Math.min(WEBHOOK_FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), WEBHOOK_MAX_RETRY_MS);

/**
 * How long a receiver's Retry-After asks us to wait (seconds, or an HTTP date), or null when it
 * says nothing we can read.
 */
export function retryAfterMs(value: string | undefined, now: Date): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/**
 * The job that tries one delivery (jobs/kinds.ts), queued on `tx`; at `at` when given. One job
 * of a delivery waits at a time: queued again while one waits, it is that one.
 */
export const queueDelivery = (jobs: TJobQueue, tx: TDb, deliveryId: number, at?: Date) =>
  jobs.enqueue(
    tx,
    WEBHOOK_DELIVER_JOB,
    { deliveryId },
    { singletonKey: `delivery:${deliveryId}`, ...(at ? { startAfter: at } : {}) },
  );

/**
 * Queues the try of the delivery that waits behind `ended` (the next event of the same consent
 * for the same endpoint, still pending), on `tx`, the transaction that ended it: its own job found
 * it waiting and left it.
 */
async function queueNextInLine(jobs: TJobQueue, tx: TDb, ended: TClaimed): Promise<void> {
  const waiting = await tx.execute(sql`
    SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
    WHERE d.endpoint_id = ${ended.endpoint_id} AND d.status = 'pending'
      AND d.consent_id IS NOT DISTINCT FROM ${ended.consent_id} AND d.id <> ${ended.id}
    ORDER BY d.event_id LIMIT 1`);
  const [next] = rowsOf<{ id: number; next_attempt_at: string | Date }>(waiting);
  if (next) await queueDelivery(jobs, tx, Number(next.id), new Date(next.next_attempt_at));
}

/** What delivering needs besides: where each try's job is queued. */
type TDeliveryContext = TWebhookContext & { jobs: TJobQueue };

type TClaimed = {
  id: number;
  consent_id: string | null;
  attempts: number;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  retiring_secrets: { sealed: string; until: string }[];
  public_id: string;
  type: string;
  data: Record<string, unknown>;
  event_created_at: string | Date;
};

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
  if (outcome.status === 410) return 'answered 410 Gone; the webhook is disabled';
  return outcome.status >= 200 && outcome.status < 300 ? null : `answered ${outcome.status}`;
}

/**
 * What came of one try: delivered (2xx), retrying (to be tried again), given_up (its three days
 * are over) or disabled (410 Gone: the endpoint is disabled).
 */
export type TDeliveryOutcome = 'delivered' | 'retrying' | 'given_up' | 'disabled';

/** One try of a delivery (the metrics' rate, errors and duration). */
export type TDeliveryTry = { eventType: string; outcome: TDeliveryOutcome; seconds: number };

export type TWebhookDeliverer = {
  /** Sends every delivery that is due now, batch after batch; answers how many were tried. */
  runDue(): Promise<number>;
  /** Sends one delivery if it is due and nothing earlier of its consent waits; answers if tried. */
  deliverOne(deliveryId: number): Promise<boolean>;
};

/** What a deliverer's steps share: the context, a try's time limit, the batch, the metrics. */
type TDeliveryRun = {
  ctx: TDeliveryContext;
  timeoutMs: number;
  batch: number;
  onTried: ((tried: TDeliveryTry) => void) | undefined;
};

/**
 * The sender of webhook deliveries, run by the job engine (jobs/kinds.ts): 'webhooks.deliver' tries
 * the delivery its job names (queued in the transaction that wrote the event, or that failed its
 * last try). runDue tries every delivery due now at once: the operator's and the tests' way to
 * send without waiting for the jobs.
 */
export function webhookDeliverer(
  ctx: TDeliveryContext,
  options: { timeoutMs?: number; batch?: number; onTried?: (tried: TDeliveryTry) => void } = {},
): TWebhookDeliverer {
  const run: TDeliveryRun = {
    ctx,
    timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    batch: options.batch ?? 20,
    onTried: options.onTried,
  };
  return {
    async runDue() {
      let tried = 0;
      for (;;) {
        const claimed = await claimDue(run, ctx.clock.now());
        if (claimed.length === 0) return tried;
        // One consent's deliveries are never both claimed (the earlier one blocks the later), so
        // the batch may go out at once.
        await Promise.all(claimed.map((row) => deliver(run, row)));
        tried += claimed.length;
      }
    },
    async deliverOne(deliveryId) {
      const now = ctx.clock.now();
      const [row] = await claimDue(run, now, deliveryId);
      if (row) {
        await deliver(run, row);
        return true;
      }
      await queueWhenDue(ctx, deliveryId, now);
      return false;
    },
  };
}

/**
 * A delivery whose job came before its time (another process's clock, or a claim still held by
 * a try under way) is queued again for its time; one waiting behind an earlier event of its
 * consent is left to that one's end (queueNextInLine), and one no longer pending to nobody.
 */
async function queueWhenDue(ctx: TDeliveryContext, deliveryId: number, now: Date): Promise<void> {
  const early = await ctx.db.execute(sql`
    SELECT d.next_attempt_at FROM webhook_deliveries d
    WHERE d.id = ${deliveryId} AND d.status = 'pending'
      AND d.next_attempt_at > ${now.toISOString()}::timestamptz
      AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries e
        WHERE e.endpoint_id = d.endpoint_id AND e.status = 'pending'
          AND e.consent_id IS NOT DISTINCT FROM d.consent_id AND e.event_id < d.event_id)`);
  const [row] = rowsOf<{ next_attempt_at: string | Date }>(early);
  if (row) await queueDelivery(ctx.jobs, ctx.db, deliveryId, new Date(row.next_attempt_at));
}

/**
 * Claims due deliveries in one statement: pending, due, with no earlier undelivered event of
 * the same consent for the same endpoint, and not claimed by another process (SKIP LOCKED).
 * One delivery (`only`) is its own statement text, not an optional filter: a statement prepared
 * once a connection may be planned once for any values (a generic plan), which for
 * `$1 IS NULL OR id = $1` would read every pending delivery to find one.
 */
async function claimDue({ ctx, batch }: TDeliveryRun, now: Date, only?: number) {
  const lease = new Date(now.getTime() + CLAIM_LEASE_MS).toISOString();
  const result = await ctx.db.execute(sql`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now.toISOString()}::timestamptz
        ${only === undefined ? sql`` : sql`AND d.id = ${only}::int`}
        AND EXISTS (
          SELECT 1 FROM webhook_endpoints q WHERE q.id = d.endpoint_id AND q.disabled_at IS NULL)
        AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries e
          WHERE e.endpoint_id = d.endpoint_id AND e.status = 'pending'
            AND e.consent_id IS NOT DISTINCT FROM d.consent_id AND e.event_id < d.event_id)
      ORDER BY d.id LIMIT ${batch}
      FOR UPDATE OF d SKIP LOCKED)
    UPDATE webhook_deliveries w SET next_attempt_at = ${lease}::timestamptz
    FROM due, webhook_endpoints p, merchant_events m
    WHERE w.id = due.id AND p.id = w.endpoint_id AND m.id = w.event_id
    RETURNING w.id, w.consent_id, w.attempts, w.endpoint_id, p.url, p.secret_sealed, p.retiring_secrets,
              m.public_id, m.type, m.data, m.created_at AS event_created_at`);
  return rowsOf<TClaimed>(result);
}

/**
 * Sends one claimed delivery in a span with its event's ids (the payment's or consent's): in the
 * trace of the request that made the event when its job carried one, else a trace of its own.
 * The span holds no URL (a merchant's may carry a token) and nothing of the body.
 */
async function deliver(run: TDeliveryRun, row: TClaimed): Promise<TDeliveryOutcome> {
  const attributes = {
    ...idAttributes({ ...row.data, consentId: row.consent_id ?? row.data.consentId }),
    'oya.webhook_event_id': row.public_id,
    'oya.webhook_event_type': row.type,
    'oya.webhook_delivery_id': row.id,
    'oya.webhook_attempt': row.attempts + 1,
  };
  const startedAt = performance.now();
  return inSpan('webhook deliver', attributes, async (span) => {
    const outcome = await sendAndRecord(run, row);
    span.setAttribute('oya.webhook_outcome', outcome);
    const seconds = (performance.now() - startedAt) / 1000;
    run.onTried?.({ eventType: row.type, outcome, seconds });
    return outcome;
  });
}

/** Sends one claimed delivery and records what came of it. */
async function sendAndRecord(run: TDeliveryRun, row: TClaimed): Promise<TDeliveryOutcome> {
  const outcome = await post(run, row);
  const tried: TTried = {
    status: outcome && 'status' in outcome ? outcome.status : null,
    lastBody: outcome && 'status' in outcome ? outcome.body : null,
    error: failureOf(outcome, run.timeoutMs),
    now: run.ctx.clock.now(),
    attempts: row.attempts + 1,
  };
  if (tried.error === null) return recordDelivered(run.ctx, row, tried);
  if (tried.status === 410) return recordGone(run.ctx.db, row, tried);
  // A 429 or 503 with Retry-After: not again before it says (the backoff if that is longer).
  const asked =
    outcome && 'status' in outcome && (tried.status === 429 || tried.status === 503)
      ? retryAfterMs(outcome.retryAfter, tried.now)
      : null;
  return recordRetry(run.ctx, row, tried, asked);
}

/** What came of one try, as the delivery's row keeps it. */
type TTried = {
  status: number | null;
  lastBody: string | null;
  error: string | null;
  now: Date;
  attempts: number;
};

/**
 * Posts a claimed delivery's event, signed with each secret that signs now; null when its URL
 * does not resolve to addresses webhooks may reach (checked again now: the name's answer may have
 * changed since registration, or since the last try; a refused target is not connected to).
 */
async function post({ ctx, timeoutMs }: TDeliveryRun, row: TClaimed): Promise<TPostOutcome | null> {
  const body = JSON.stringify({
    id: row.public_id,
    type: row.type,
    createdAt: new Date(row.event_created_at).toISOString(),
    data: row.data,
  });
  const startedAt = ctx.clock.now();
  const timestamp = Math.floor(startedAt.getTime() / 1_000);
  const target = await webhookTarget(ctx.providers.dns, ctx.config.webhooksAllowPrivate, row.url);
  if (!target) return null;
  // The current secret first, then each rotated-away one still in its overlap.
  const sealed = [
    row.secret_sealed,
    ...row.retiring_secrets
      .filter((retiring) => new Date(retiring.until) > startedAt)
      .map((retiring) => retiring.sealed)
      .reverse(),
  ];
  const secrets = await Promise.all(sealed.map((s) => unseal(ctx.db, s)));
  return postToTarget(target, {
    headers: {
      'content-type': 'application/json',
      'user-agent': 'OyaMoney-Webhooks/1',
      'webhook-id': row.public_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': webhookSignatures(secrets, row.public_id, timestamp, body),
      'oya-event-type': row.type,
    },
    body,
    timeoutMs,
  });
}

/** A 2xx: the delivery is delivered. */
async function recordDelivered(
  { db, jobs }: TDeliveryContext,
  row: TClaimed,
  tried: TTried,
): Promise<'delivered'> {
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        status: 'delivered',
        attempts: tried.attempts,
        lastStatus: tried.status,
        lastError: null,
        lastBody: tried.lastBody,
        deliveredAt: tried.now,
      })
      .where(eq(webhookDeliveries.id, row.id));
    await queueNextInLine(jobs, tx, row);
  });
  return 'delivered';
}

/**
 * A 410 Gone: the endpoint is disabled, and what it is still owed is failed (resendable once the
 * merchant enables it again).
 */
async function recordGone(db: TDb, row: TClaimed, tried: TTried): Promise<'disabled'> {
  const { attempts, status: lastStatus, error: lastError, lastBody } = tried;
  await db.transaction(async (tx) => {
    await tx
      .update(webhookEndpoints)
      .set({ disabledAt: tried.now, disabledBy: 'receiver' })
      .where(and(eq(webhookEndpoints.id, row.endpoint_id), isNull(webhookEndpoints.disabledAt)));
    await tx
      .update(webhookDeliveries)
      .set({ status: 'failed', attempts, lastStatus, lastError, lastBody })
      .where(eq(webhookDeliveries.id, row.id));
    await failOwed(tx, row.endpoint_id, NOT_SENT_DISABLED);
  });
  return 'disabled';
}

/**
 * Any other failure: tried again after the backoff (or the receiver's Retry-After, `askedMs`, if
 * longer) by a job queued for then with the new time, or given up once that would fall past the
 * event's three days (and the next in line queued).
 */
async function recordRetry(
  { db, jobs }: TDeliveryContext,
  row: TClaimed,
  tried: TTried,
  askedMs: number | null,
): Promise<'retrying' | 'given_up'> {
  const { now, attempts } = tried;
  const delay = Math.max(retryDelayMs(attempts), askedMs ?? 0);
  const eventAge = now.getTime() - new Date(row.event_created_at).getTime();
  const givenUp = eventAge + delay > WEBHOOK_RETRY_WINDOW_MS;
  const nextAttemptAt = new Date(now.getTime() + delay);
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        status: givenUp ? 'failed' : 'pending',
        attempts,
        lastStatus: tried.status,
        lastError: tried.error,
        lastBody: tried.lastBody,
        nextAttemptAt,
      })
      .where(eq(webhookDeliveries.id, row.id));
    if (givenUp) await queueNextInLine(jobs, tx, row);
    else await queueDelivery(jobs, tx, row.id, nextAttemptAt);
  });
  return givenUp ? 'given_up' : 'retrying';
}

// A merchant's webhook endpoints: registered, changed, listed, their secret rotated, enabled,
// disabled and deleted; what a disabled or deleted endpoint was owed is given up with it.
import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TWebhookEventType } from '../../../domain/schemas/webhooks';
import type { TClock } from '../../clock';
import type { TConfig } from '../../config';
import { type TDb } from '../../db/database';
import type { THostResolver } from '../../providers/host-resolver';
import { apiClients, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { AppError } from '../../app-error';
import { runIdempotent } from '../idempotency';
import { webhookTarget } from './webhook-targets';
import {
  WEBHOOK_SECRET_OVERLAP_MS,
  MAX_RETIRING_SECRETS,
  newSecret,
  seal,
  unseal,
} from './webhook-signing';

const MAX_ENDPOINTS_PER_CLIENT = 10;

/** The client's own endpoint `id`, unless deleted. */
const liveEndpointOf = (clientId: string, id: string) =>
  and(
    eq(webhookEndpoints.id, id),
    eq(webhookEndpoints.clientId, clientId),
    isNull(webhookEndpoints.deletedAt),
  );

/** What registering and delivering a webhook need: the checks of webhook-targets.ts ask `dns`. */
export type TWebhookContext = {
  db: TDb;
  config: Pick<TConfig, 'webhooksAllowPrivate'>;
  clock: TClock;
  providers: { dns: THostResolver };
};

/** Refuses a URL a webhook may not post to (docs/webhooks.md, "Where a webhook may go"). */
async function refuseUnreachable(ctx: TWebhookContext, url: string): Promise<void> {
  if (!(await webhookTarget(ctx.providers.dns, ctx.config.webhooksAllowPrivate, url))) {
    throw new AppError('WEBHOOK_URL_REFUSED');
  }
}

/**
 * What a caller may add to a change of an endpoint: work of its own in the change's transaction
 * (the dashboard's audit entry), so both are written or neither.
 */
type TAlso = (tx: TDb, webhookId: string) => Promise<void>;

/**
 * Registers an endpoint; its signing secret is answered this once. Once per Idempotency-Key: the
 * stored answer holds the secret sealed, as the endpoint does, and a retry gets the same one.
 */
export async function createWebhookEndpoint(
  ctx: TWebhookContext,
  clientId: string,
  url: string,
  options: {
    /** The events it is sent; null or none: every event, those added later too. */
    events?: TWebhookEventType[] | null;
    idempotencyKey?: string | undefined;
    also?: TAlso;
  } = {},
) {
  await refuseUnreachable(ctx, url);
  const events = options.events ?? null;
  const id = `whk_${randomBytes(12).toString('base64url')}`;
  const createdAt = ctx.clock.now();
  const secretSealed = await seal(ctx.db, newSecret());
  const { result } = await runIdempotent(
    ctx.db,
    options.idempotencyKey
      ? {
          scope: `webhooks.create:${clientId}`,
          key: options.idempotencyKey,
          request: { url, events },
        }
      : undefined,
    async (tx) => {
      // The limit is counted and kept under the client's row lock: registrations at once queue
      // behind it, so the eleventh is refused however they interleave.
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
        throw new AppError(
          'VALIDATION_FAILED',
          `url: at most ${MAX_ENDPOINTS_PER_CLIENT} webhooks`,
        );
      }
      await tx
        .insert(webhookEndpoints)
        .values({ id, clientId, url, events, secretSealed, createdAt });
      await options.also?.(tx, id);
      return { id, url, createdAt: createdAt.toISOString(), secretSealed };
    },
  );
  return {
    id: result.id,
    url: result.url,
    createdAt: result.createdAt,
    secret: await unseal(ctx.db, result.secretSealed),
  };
}

/**
 * Points an endpoint at another URL (checked as at registration) or changes the events it is
 * sent; what is left out stays. Its secret stays, and deliveries still owed go to the new URL.
 */
export async function changeWebhookEndpoint(
  ctx: TWebhookContext,
  input: {
    clientId: string;
    webhookId: string;
    url?: string | undefined;
    /** null: every event, those added later too. */
    events?: TWebhookEventType[] | null | undefined;
    also?: TAlso;
  },
): Promise<void> {
  const { clientId, webhookId, url, events } = input;
  if (url !== undefined) await refuseUnreachable(ctx, url);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        url: url ?? sql`${webhookEndpoints.url}`,
        events: events === undefined ? sql`${webhookEndpoints.events}` : events,
      })
      .where(liveEndpointOf(clientId, webhookId))
      .returning({ id: webhookEndpoints.id });
    if (!row) throw new AppError('NOT_FOUND', 'No webhook of yours has this id');
    await input.also?.(tx, webhookId);
  });
}

export async function listWebhookEndpoints(db: TDb, clientId: string) {
  const rows = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      createdAt: webhookEndpoints.createdAt,
      disabledAt: webhookEndpoints.disabledAt,
    })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.clientId, clientId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(webhookEndpoints.createdAt);
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    status: row.disabledAt ? ('disabled' as const) : ('active' as const),
    disabledAt: row.disabledAt?.toISOString() ?? null,
  }));
}

/**
 * A new signing secret for an endpoint, shown this once; the one it replaces (and any earlier
 * one still in its overlap) keeps signing until `previousSecretValidUntil`, so deliveries owed
 * meanwhile verify with whichever the receiver holds. Once per Idempotency-Key: the stored answer
 * holds the new secret sealed, as the endpoint does.
 */
export async function rotateWebhookSecret(
  db: TDb,
  input: { clientId: string; webhookId: string; idempotencyKey: string | undefined; now: Date },
): Promise<{
  rotated: { id: string; secret: string; previousSecretValidUntil: string };
  replayed: boolean;
}> {
  const { clientId, webhookId, now } = input;
  const secretSealed = await seal(db, newSecret());
  const until = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_MS).toISOString();
  const { result, replayed } = await runIdempotent(
    db,
    input.idempotencyKey
      ? { scope: `webhooks.rotate:${clientId}`, key: input.idempotencyKey, request: { webhookId } }
      : undefined,
    async (tx) => {
      // Replaced and checked in one statement: the secrets still in their overlap, and the one
      // replaced now, stay to sign; at most MAX_RETIRING_SECRETS of them.
      const live = sql`(SELECT coalesce(jsonb_agg(s), '[]'::jsonb) FROM jsonb_array_elements(${webhookEndpoints.retiringSecrets}) s
                        WHERE (s->>'until')::timestamptz > ${now.toISOString()}::timestamptz)`;
      const [row] = await tx
        .update(webhookEndpoints)
        .set({
          secretSealed,
          retiringSecrets: sql`${live} || jsonb_build_array(jsonb_build_object('sealed', ${webhookEndpoints.secretSealed}, 'until', ${until}::text))`,
        })
        .where(
          and(
            liveEndpointOf(clientId, webhookId),
            sql`jsonb_array_length(${live}) < ${MAX_RETIRING_SECRETS}`,
          ),
        )
        .returning({ id: webhookEndpoints.id });
      if (!row) {
        const [exists] = await tx
          .select({ id: webhookEndpoints.id })
          .from(webhookEndpoints)
          .where(liveEndpointOf(clientId, webhookId));
        throw exists
          ? new AppError('WEBHOOK_SECRETS_OVERLAPPING')
          : new AppError('NOT_FOUND', 'No webhook of yours has this id');
      }
      return { id: row.id, secretSealed, previousSecretValidUntil: until };
    },
  );
  return {
    rotated: {
      id: result.id,
      secret: await unseal(db, result.secretSealed),
      previousSecretValidUntil: result.previousSecretValidUntil,
    },
    replayed,
  };
}

/**
 * Sends to an endpoint again after a 410 or staff disabled it; its failed deliveries can then be
 * resent.
 */
export async function enableWebhookEndpoint(db: TDb, clientId: string, id: string) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ disabledAt: null, disabledBy: null })
    .where(liveEndpointOf(clientId, id))
    .returning({ id: webhookEndpoints.id });
  if (!row) throw new AppError('NOT_FOUND', 'No webhook of yours has this id');
}

/**
 * Stops sending to an endpoint until it is enabled again, as a 410 Gone does: what it is still
 * owed fails (to resend once it is enabled), and events meanwhile get their delivery already
 * failed. Answers whether it was on (an endpoint already off is left as it is).
 */
export async function disableWebhookEndpoint(
  db: TDb,
  input: { clientId: string; webhookId: string; now: Date; also?: TAlso },
): Promise<boolean> {
  const { clientId, webhookId, now } = input;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ disabledAt: now, disabledBy: 'staff' })
      .where(and(liveEndpointOf(clientId, webhookId), isNull(webhookEndpoints.disabledAt)))
      .returning({ id: webhookEndpoints.id });
    if (!row) {
      const [off] = await tx
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(liveEndpointOf(clientId, webhookId));
      if (!off) throw new AppError('NOT_FOUND', 'No webhook of yours has this id');
      return false;
    }
    await failOwed(tx, webhookId, NOT_SENT_TURNED_OFF);
    await input.also?.(tx, webhookId);
    return true;
  });
}

/** Stops sending to an endpoint; what it was owed is given up with it. */
export async function deleteWebhookEndpoint(
  db: TDb,
  clientId: string,
  id: string,
  now: Date,
  also?: TAlso,
) {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .update(webhookEndpoints)
      .set({ deletedAt: now })
      .where(liveEndpointOf(clientId, id))
      .returning({ id: webhookEndpoints.id });
    if (!gone) throw new AppError('NOT_FOUND', 'No webhook of yours has this id');
    await failOwed(tx, id, 'endpoint deleted');
    await also?.(tx, id);
  });
}

/** Fails what an endpoint is still owed, saying why it was not sent. */
export const failOwed = (tx: TDb, endpointId: string, lastError: string) =>
  tx
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError })
    .where(
      and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')),
    );
export const NOT_SENT_DISABLED = 'not sent: the webhook is disabled (it answered 410 Gone)';
export const NOT_SENT_TURNED_OFF = 'not sent: the webhook was disabled on the dashboard';

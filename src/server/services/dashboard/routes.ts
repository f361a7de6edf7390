import { and, eq, gte, inArray, or, sql, type SQL } from 'drizzle-orm';
import { takesNewWorkInOrder, type TCapability } from '../../../domain/capabilities';
import {
  recoveredTotals,
  recoveringAttempt,
  lagosMonthStart,
  TECHNICAL_FAILURE_CODES,
  TECHNICAL_FAILURE_REASONS,
} from '../../../domain/failover-recovery';
import type {
  TDashboardRouteChange,
  TDashboardRoutesResponse,
  TDashboardRouteSettingsResponse,
  TRouteCapability,
} from '../../../domain/schemas/dashboard-routes';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { consents, paymentAttempts, payments, routeSettings } from '../../db/schema';
import type { THealthLine, TRouteSettings } from '../../providers/routing/provider-health';
import { AppError } from '../../app-error';
import { recordAudit, type TActor } from './audit';

/*
 * The dashboard's Routes screen (docs/dashboard.md "Routes", docs/routing.md). The read joins
 * what the server's lists say (each capability whose new work goes down a list of providers),
 * what health says now (`ctx.providers.health.snapshot()`, the last hour), the merchant's pin and
 * pauses, and where the merchant's next new work goes (`route()` itself, so the screen says what
 * routing does, not a guess at it), with the payments failover recovered this month.
 *
 * Owners change the pin and pauses, each change one conditional UPDATE of the merchant's row for
 * the capability, with its audit row in the same transaction:
 * - pin: the provider goes first (and is no longer paused);
 * - pause: left out of new work, refused (ROUTE_LAST_PROVIDER) where no other provider of the
 *   list would be left unpaused, checked in the statement that pauses, so two owners pausing the
 *   last two at once cannot both succeed (the row's lock orders them and the second's condition
 *   is read again);
 * - clear: neither pinned nor paused.
 * A change that changes nothing (pinning the pinned one again) writes nothing and is answered as
 * the settings stand.
 */

type TRoutesContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'capabilities'>;

/** Each capability whose new work goes down a list, with the list. */
function routedLists(ctx: Pick<TAppContext, 'capabilities'>) {
  return ctx.capabilities.flatMap((line) =>
    line.state === 'on' && takesNewWorkInOrder(line.capability)
      ? [{ capability: line.capability, providers: line.providers }]
      : [],
  );
}

/** The merchant's settings rows, by capability. */
async function settingsOf(db: TDb, merchantId: string) {
  const rows = await db
    .select()
    .from(routeSettings)
    .where(eq(routeSettings.merchantId, merchantId));
  return new Map(rows.map((row) => [row.capability, row]));
}

const NO_CALLS = { calls: 0, failures: 0, timeouts: 0, p95LatencyMs: null, eliminated: null };

/** One capability as the screen shows it. */
async function capabilityView(
  ctx: TRoutesContext,
  merchantId: string,
  list: { capability: TCapability; providers: readonly string[] },
  health: readonly THealthLine[],
  settings: TRouteSettings | undefined,
): Promise<TRouteCapability> {
  const { capability } = list;
  const route = await ctx.providers.health.route({ capability, merchantId }, list.providers);
  return {
    capability,
    next: route.order[0] ?? null,
    providers: list.providers.map((provider) => {
      const line =
        health.find((h) => h.capability === capability && h.provider === provider) ?? NO_CALLS;
      return {
        provider,
        health: {
          calls: line.calls,
          failures: line.failures,
          timeouts: line.timeouts,
          p95LatencyMs: line.p95LatencyMs,
        },
        eliminated: line.eliminated
          ? { since: line.eliminated.since.toISOString(), reason: line.eliminated.reason }
          : null,
        pinned: settings?.pinned === provider,
        pausedSince: settings?.paused[provider] ?? null,
      };
    }),
  };
}

/** GET /api/dashboard/routes. */
export async function readRoutes(
  ctx: TRoutesContext,
  merchantId: string,
): Promise<TDashboardRoutesResponse> {
  const [health, settings, recovered] = await Promise.all([
    ctx.providers.health.snapshot(),
    settingsOf(ctx.db, merchantId),
    recoveredThisMonth(ctx.db, merchantId, ctx.clock.now()),
  ]);
  const capabilities = await Promise.all(
    routedLists(ctx).map((list) =>
      capabilityView(ctx, merchantId, list, health, settings.get(list.capability)),
    ),
  );
  return {
    success: true,
    capabilities,
    recovered: recoveredTotals(recovered, ctx.clock.now()),
  };
}

/** An attempt's technical failure, as the rows keep it (domain/failover-recovery.ts). */
const failedTechnically = (): SQL =>
  and(
    eq(paymentAttempts.status, 'failed'),
    or(
      inArray(paymentAttempts.failureCode, [...TECHNICAL_FAILURE_CODES]),
      inArray(paymentAttempts.failureReason, [...TECHNICAL_FAILURE_REASONS]),
    ),
  ) ?? sql`false`;

/**
 * The merchant's payments executed this Lagos month that failover recovered: those with a
 * technically failed attempt are read with their attempts, and the domain's rule decides.
 */
async function recoveredThisMonth(db: TDb, merchantId: string, now: Date) {
  const candidates = await db
    .select({ id: payments.id, amount: payments.amount, executedAt: payments.executedAt })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(
      and(
        eq(consents.merchantId, merchantId),
        eq(payments.status, 'executed'),
        gte(payments.executedAt, lagosMonthStart(now)),
        sql`EXISTS (SELECT 1 FROM ${paymentAttempts} WHERE ${paymentAttempts.paymentId} = ${payments.id} AND ${failedTechnically()})`,
      ),
    );
  if (candidates.length === 0) return [];
  const attempts = await db
    .select({
      paymentId: paymentAttempts.paymentId,
      provider: paymentAttempts.provider,
      status: paymentAttempts.status,
      failureCode: paymentAttempts.failureCode,
      failureReason: paymentAttempts.failureReason,
      createdAt: paymentAttempts.createdAt,
    })
    .from(paymentAttempts)
    .where(
      inArray(
        paymentAttempts.paymentId,
        candidates.map((payment) => payment.id),
      ),
    );
  return candidates.flatMap((payment) =>
    payment.executedAt &&
    recoveringAttempt(attempts.filter((attempt) => attempt.paymentId === payment.id))
      ? [{ amount: payment.amount, executedAt: payment.executedAt }]
      : [],
  );
}

/** The capability's list, refusing a provider that is not on it (or a capability not routed). */
function listOf(ctx: Pick<TAppContext, 'capabilities'>, change: TDashboardRouteChange) {
  const list = routedLists(ctx).find((line) => line.capability === change.capability);
  if (!list?.providers.includes(change.provider)) throw new AppError('ROUTE_PROVIDER_UNKNOWN');
  return list.providers;
}

type TSettingsRow = typeof routeSettings.$inferSelect;

const settingsView = (
  capability: TCapability,
  row: Pick<TSettingsRow, 'pinned' | 'paused'> | undefined,
): TDashboardRouteSettingsResponse => ({
  success: true,
  capability,
  pinned: row?.pinned ?? null,
  paused: Object.entries(row?.paused ?? {}).map(([provider, since]) => ({ provider, since })),
});

/** The one row of the merchant's capability, made empty first where there is none. */
async function ensureRow(tx: TDb, merchantId: string, capability: TCapability, now: Date) {
  await tx
    .insert(routeSettings)
    .values({ merchantId, capability, paused: {}, updatedAt: now })
    .onConflictDoNothing();
}

const rowKey = (merchantId: string, capability: TCapability) =>
  and(eq(routeSettings.merchantId, merchantId), eq(routeSettings.capability, capability));

/** The provider as a JSON text key of `paused`. */
const pausedHas = (provider: string) => sql`jsonb_exists(${routeSettings.paused}, ${provider})`;

/** The pin, let go where it is `provider`. */
const unpinned = (provider: string) => ({
  pinned: sql`CASE WHEN ${routeSettings.pinned} = ${provider} THEN NULL ELSE ${routeSettings.pinned} END`,
  pinnedAt: sql`CASE WHEN ${routeSettings.pinned} = ${provider} THEN NULL ELSE ${routeSettings.pinnedAt} END`,
});

type TChange = {
  action: 'route.pinned' | 'route.paused' | 'route.cleared';
  set: { [K in keyof TSettingsRow]?: TSettingsRow[K] | SQL };
  /** The condition under which the statement changes anything. */
  when: SQL;
};

/**
 * One change of a capability's settings, with its audit row; what `when` refuses is answered
 * as the settings stand (`refused` tells the caller to look at why).
 */
async function changeSettings(
  ctx: Pick<TAppContext, 'db' | 'clock'>,
  who: TActor,
  change: TDashboardRouteChange,
  build: (now: Date) => TChange,
): Promise<{ row: TSettingsRow | undefined; changed: boolean }> {
  const now = ctx.clock.now();
  const { action, set, when } = build(now);
  return ctx.db.transaction(async (tx) => {
    await ensureRow(tx, who.merchantId, change.capability, now);
    const [moved] = await tx
      .update(routeSettings)
      .set({ ...set, updatedAt: now })
      .where(and(rowKey(who.merchantId, change.capability), when))
      .returning();
    if (moved) {
      await recordAudit(tx, who, { action, target: change.provider, data: { ...change } }, now);
      return { row: moved, changed: true };
    }
    const [row] = await tx
      .select()
      .from(routeSettings)
      .where(rowKey(who.merchantId, change.capability));
    return { row, changed: false };
  });
}

/** POST /api/dashboard/routes/pin: new work tries the provider first; it is paused no more. */
export async function pinProvider(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'capabilities'>,
  who: TActor,
  change: TDashboardRouteChange,
): Promise<TDashboardRouteSettingsResponse> {
  listOf(ctx, change);
  const { provider } = change;
  const { row } = await changeSettings(ctx, who, change, (now) => ({
    action: 'route.pinned',
    set: {
      pinned: provider,
      pinnedAt: now,
      paused: sql`${routeSettings.paused} - ${provider}::text`,
    },
    when: sql`(${routeSettings.pinned} IS DISTINCT FROM ${provider} OR ${pausedHas(provider)})`,
  }));
  return settingsView(change.capability, row);
}

/**
 * POST /api/dashboard/routes/pause: new work leaves the provider out, unless it is the last of
 * the list left unpaused (ROUTE_LAST_PROVIDER). A pinned provider paused is unpinned.
 */
export async function pauseProvider(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'capabilities'>,
  who: TActor,
  change: TDashboardRouteChange,
): Promise<TDashboardRouteSettingsResponse> {
  const list = listOf(ctx, change);
  const { provider } = change;
  const others = list.filter((listed) => listed !== provider);
  const anotherUnpaused =
    others.length === 0
      ? sql`false`
      : sql`EXISTS (SELECT 1 FROM unnest(ARRAY[${sql.join(
          others.map((other) => sql`${other}`),
          sql`, `,
        )}]::text[]) AS listed(provider) WHERE NOT jsonb_exists(${routeSettings.paused}, listed.provider))`;
  const { row, changed } = await changeSettings(ctx, who, change, (now) => ({
    action: 'route.paused',
    set: {
      paused: sql`${routeSettings.paused} || jsonb_build_object(${provider}::text, ${now.toISOString()}::text)`,
      ...unpinned(provider),
    },
    when: sql`NOT ${pausedHas(provider)} AND ${anotherUnpaused}`,
  }));
  if (!changed && !Object.hasOwn(row?.paused ?? {}, provider)) {
    throw new AppError('ROUTE_LAST_PROVIDER');
  }
  return settingsView(change.capability, row);
}

/** POST /api/dashboard/routes/clear: the provider is neither pinned nor paused. */
export async function clearProvider(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'capabilities'>,
  who: TActor,
  change: TDashboardRouteChange,
): Promise<TDashboardRouteSettingsResponse> {
  listOf(ctx, change);
  const { provider } = change;
  const { row } = await changeSettings(ctx, who, change, () => ({
    action: 'route.cleared',
    set: {
      paused: sql`${routeSettings.paused} - ${provider}::text`,
      ...unpinned(provider),
    },
    when: sql`(${routeSettings.pinned} = ${provider} OR ${pausedHas(provider)})`,
  }));
  return settingsView(change.capability, row);
}

import { and, eq } from 'drizzle-orm';
import type { TCapability } from '../../../domain/capabilities';
import type { TDb } from '../../db/database';
import { routeSettings } from '../../db/schema';
import type { TPassedOver, TProviderHealth, TRoute, TRouteSettings } from './provider-health';

/*
 * A merchant's own say in routing (docs/routing.md, the dashboard's Routes screen): per
 * capability, one provider pinned (new work tries it first) and any paused (new work leaves them
 * out). Applied on top of whatever health routes by, to new work for that merchant only; what
 * never moves (refunds, give-backs, requeries: the row's provider) never asks routing at all.
 *
 * - A paused provider leaves `order` and joins `passedOver` ('paused'). `order` is never left
 *   empty: the dashboard refuses to pause the last provider of a list, and where a change of the
 *   lists has left every listed provider paused, the pauses are not applied.
 * - A pinned provider goes first, unless its record eliminated it: a pin never sends payers to a
 *   provider that stopped answering (it is tried where health put it, after the healthy ones).
 */

/** What the Routes screen and the timeline say of a paused provider. */
export const PAUSED_REASON = 'paused by the merchant';

/** `route` as the merchant's pin and pauses change it. */
export function applyRouteSettings(route: TRoute, settings: TRouteSettings | null): TRoute {
  if (!settings) return route;
  const paused = route.order.filter((provider) => Object.hasOwn(settings.paused, provider));
  const everyOnePaused = paused.length === route.order.length;
  const kept = everyOnePaused ? [...route.order] : route.order.filter((p) => !paused.includes(p));
  const eliminated = (provider: string) =>
    route.passedOver.some((over) => over.provider === provider && over.why === 'eliminated');
  const { pinned } = settings;
  const order =
    pinned !== null && kept.includes(pinned) && !eliminated(pinned)
      ? [pinned, ...kept.filter((provider) => provider !== pinned)]
      : kept;
  const pausedOver: TPassedOver[] = everyOnePaused
    ? []
    : paused.map((provider) => ({
        provider,
        why: 'paused',
        since: new Date(settings.paused[provider] ?? 0),
        reason: PAUSED_REASON,
      }));
  return { order, passedOver: [...route.passedOver, ...pausedOver] };
}

/** The merchant's settings for a capability, or null where it has none. */
export async function routeSettingsOf(
  db: TDb,
  merchantId: string,
  capability: TCapability,
): Promise<TRouteSettings | null> {
  const [row] = await db
    .select({ pinned: routeSettings.pinned, paused: routeSettings.paused })
    .from(routeSettings)
    .where(and(eq(routeSettings.merchantId, merchantId), eq(routeSettings.capability, capability)));
  return row ?? null;
}

/**
 * `health` with each merchant's pin and pauses applied to its answer: what the context hands
 * every start of new work as `ctx.providers.health`. The settings the scope brings are applied as
 * they are; otherwise one read of one row (by its key) beside health's own, at once.
 */
export function withRouteSettings(health: TProviderHealth, db: TDb): TProviderHealth {
  return {
    record: (outcome) => health.record(outcome),
    snapshot: () => health.snapshot(),
    ...(health.watchMoves ? { watchMoves: health.watchMoves.bind(health) } : {}),
    async route(scope, candidates) {
      const { merchantId } = scope;
      if (scope.settings !== undefined) {
        return applyRouteSettings(await health.route(scope, candidates), scope.settings);
      }
      if (!merchantId) return health.route(scope, candidates);
      const [route, settings] = await Promise.all([
        health.route(scope, candidates),
        routeSettingsOf(db, merchantId, scope.capability),
      ]);
      return applyRouteSettings(route, settings);
    },
  };
}

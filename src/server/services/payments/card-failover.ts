import { and, eq, type SQL } from 'drizzle-orm';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { paymentAttempts } from '../../db/schema';
import type { TRouteSettings } from '../../providers/routing/provider-health';
import {
  attemptMove,
  emitPaymentEvent,
  moveAttempt,
  paymentIdOf,
  type TAttemptRow,
} from './attempts/moves';
import type { TOpeningStep } from './attempts/moves';
import type { TCardPayable } from './payment-records';

/*
 * Card failover (docs/payments.md "Card failover"; the states in src/domain/payment-attempts.ts).
 * A card's PIN, OTP and 3-D Secure check belong to one provider's session, so a charge is never
 * sent again elsewhere by itself:
 *
 *  1. a charge its provider did not answer (a timeout, a 5xx, a broken connection) becomes
 *     'unanswered' (loseAnswer), with an event the payer's page hears; it holds the payment as a
 *     charge does, so nothing charges the payment meanwhile;
 *  2. the reconciler asks that provider about its reference (attempts/reconcile.ts, the requery
 *     gate): taken, it is booked as its own answer would have been; took nothing, or no word within
 *     CARD_ASKING_WINDOW_MS, it becomes 'retry_elsewhere' (offerElsewhere), where another card
 *     provider can take the payer's next try, else it fails as before;
 *  3. the payer's next card (the page's 'Try Again', the card's steps entered again) goes to the
 *     first provider the health routing gives that this payment's failed-over charges did not
 *     use, in the transaction that records the new attempt and moves the old one to
 *     'tried_elsewhere' (tryElsewhere);
 *  4. money the first provider reports taken later (its notice, or the reconciler's watch of
 *     charges that failed over without its word) is booked once through completeAttempt: it pays
 *     the payment if nothing else has (the next try, still waiting on its payer, is closed; one at
 *     its provider is given back when it answers), or it is owed back and given back.
 *
 * Refunds, give-backs, notices and requeries always go to the provider the row names.
 */

type TFailoverContext = Pick<TAppContext, 'db' | 'clock' | 'providers'>;

/** The card providers that can take new work, in the health routing's order for cards. */
async function cardRoute(
  ctx: Pick<TAppContext, 'providers'>,
  /**
   * The merchant whose pin and pauses apply (the dashboard's Routes screen), where known, with
   * its settings for cards where read already.
   */
  merchant?: { merchantId: string; settings: TRouteSettings | null },
): Promise<readonly string[]> {
  const { registry, health } = ctx.providers;
  const candidates = registry.lists.cards.filter((name) =>
    registry.adapters.some((adapter) => adapter.name === name && adapter.cards),
  );
  if (candidates.length === 0) return [];
  return (await health.route({ capability: 'cards', ...merchant }, candidates)).order;
}

/**
 * The card provider another try of an unanswered charge would go to; null when none but its own
 * runs (then the charge fails as any charge that took nothing, and the payer may pay again).
 */
export async function nextCardProvider(
  ctx: Pick<TAppContext, 'providers'>,
  attempt: Pick<TAttemptRow, 'provider'>,
): Promise<string | null> {
  return (await cardRoute(ctx)).find((provider) => provider !== attempt.provider) ?? null;
}

/** Where a payment's new card charge goes, and the failed-over charge it tries again, if any. */
export type TCardRoute = {
  /** null when no card provider runs: the charge is refused as the capability off. */
  provider: string | null;
  failedOver: Pick<TAttemptRow, 'id' | 'provider'> | null;
};

/**
 * Routes a payment's new card charge, from what its payable's read saw (loadCardPayable): after
 * a charge past the requery gate ('retry_elsewhere'), to the first routed provider none of the
 * payment's failed-over charges used; otherwise to the first the health routing gives, with the
 * merchant's pin and pauses applied.
 */
export async function routeCardCharge(
  ctx: Pick<TAppContext, 'providers'>,
  payable: Pick<TCardPayable, 'merchantId' | 'routeSettings' | 'failedOver'>,
): Promise<TCardRoute> {
  const { merchantId, routeSettings: settings, failedOver } = payable;
  const order = await cardRoute(ctx, { merchantId, settings });
  const waiting = failedOver.find((attempt) => attempt.stage === 'retry_elsewhere') ?? null;
  if (!waiting) return { provider: order[0] ?? null, failedOver: null };
  const used = new Set(failedOver.map((attempt) => attempt.provider));
  const provider = order.find((name) => !used.has(name)) ?? order[0] ?? null;
  return { provider, failedOver: { id: waiting.id, provider: waiting.provider } };
}

/**
 * A part of the statement that opens the payment's new charge (openAttempt), where `condition`
 * holds: the failed-over charge it tries again becomes 'tried_elsewhere' when the new one goes to
 * another provider. Moved once: a second try at the same moment finds it moved (and the payment's
 * charge held).
 */
export function triedElsewhereSteps(
  db: TDb,
  route: TCardRoute,
  condition: SQL,
  now: Date,
): TOpeningStep[] {
  const { failedOver, provider } = route;
  if (!failedOver || provider === null || provider === failedOver.provider) return [];
  const which = and(eq(paymentAttempts.id, failedOver.id), condition);
  return [{ cte: db.$with('tried_elsewhere').as(attemptMove(db, which, 'tryElsewhere', {}, now)) }];
}

/**
 * A charge its provider did not answer: 'unanswered' (loseAnswer), told on the payment's stream,
 * so a page opened anywhere waits for the requery instead of offering the card again. A charge
 * answered meanwhile (a notice came first) is left as it is.
 */
export async function markUnanswered(ctx: TFailoverContext, attempt: TAttemptRow): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const moved = await moveAttempt(tx, attempt.id, 'loseAnswer', {}, ctx.clock.now());
    if (moved) {
      await emitPaymentEvent(tx, { paymentId: paymentIdOf(attempt), status: 'in_progress' }, moved);
    }
  });
}

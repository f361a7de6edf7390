import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import {
  healthMove,
  LATENCY_BOUNDS_MS,
  latencyBucket,
  p95OfHistogram,
  routeOrder,
  routeStanding,
  type THealthMove,
  type TRouteStanding,
  type TRoutingSettings,
} from '../../../domain/provider-routing';
import type { TClock } from '../../clock';
import type { TDb } from '../../db/database';
import { providerHealthMinutes, providerHealthStates } from '../../db/schema';
import type {
  TCallOutcome,
  THealthLine,
  THealthMoveListener,
  TPassedOver,
  TProviderHealth,
  TRouteScope,
} from './provider-health';

/*
 * Each provider's health, recorded in the database every process shares (docs/routing.md;
 * db/schema/provider-health.ts), and new work routed by it. The rules are the domain's
 * (domain/provider-routing.ts); here they are read and moved:
 *
 * 1. record: one statement adds the call to its minute (counts and a latency histogram), counts
 *    the failures in a row on the provider's state and reads the state with its window's counts.
 *    When the rules say the state moves (eliminated, re-admitted, cooled down again), a second
 *    statement moves it only from the version it was read at: of two processes deciding at once,
 *    one moves it, and the other's decision is dropped (the next outcome decides again).
 * 2. route: one read of the candidates' states. A candidate whose cool-down is over is claimed as
 *    a probe in one conditional statement: one piece of new work goes there; its outcome, when
 *    recorded, re-admits the provider or cools it down again.
 * 3. snapshot: the last hour's minutes and the states, for the Routes screen.
 * 4. pruneHealthMinutes: minutes older than anything reads (the hour, or a longer window) are
 *    deleted by a periodic job (jobs/kinds.ts 'routing.prune-health').
 *
 * The bank is '' for the provider as a whole; an outcome naming a bank is recorded for both.
 */

type TStateRow = typeof providerHealthStates.$inferSelect;

/** The raw row of the record statement: the state, and the window's counts before this call. */
type TRecordedRow = {
  failures_in_a_row: number;
  eliminated_at: Date | string | null;
  eliminated_until: Date | string | null;
  eliminated_reason: string | null;
  version: number;
  window_calls: number | string;
  window_failures: number | string;
};

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** Health recorded in `db`, routed by `settings`. */
export function recordedHealth(deps: {
  db: TDb;
  clock: TClock;
  settings: TRoutingSettings;
  /** Told of every move of a provider's state (the log, /metrics). */
  onMove?: (scope: TMoveScope, move: THealthMove) => void;
}): TProviderHealth {
  const listeners = new Set<THealthMoveListener>();
  const told: TDeps = {
    ...deps,
    onMove(scope, move) {
      deps.onMove?.(scope, move);
      if (move.move === 'none') return;
      for (const listener of listeners) listener(scope, move.move);
    },
  };
  return {
    async record(outcome) {
      try {
        for (const bank of ['', ...(outcome.bank ? [outcome.bank] : [])]) {
          await recordFor(told, outcome, bank);
        }
      } catch {
        // Health is never worth a payer's request: an outcome that cannot be written is lost.
      }
    },
    route: (scope, candidates) => routeBy(deps, scope, candidates),
    snapshot: () => snapshotOf(deps),
    watchMoves(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Which provider's state moved, for the log and /metrics. */
export type TMoveScope = { capability: string; provider: string; bank: string };

type TDeps = Parameters<typeof recordedHealth>[0];

async function recordFor(deps: TDeps, outcome: TCallOutcome, bank: string): Promise<void> {
  const { db, clock, settings } = deps;
  const now = clock.now();
  const failed = outcome.health === 'failed';
  const bucket = latencyBucket(outcome.latencyMs);
  const fresh = `{${Array.from({ length: LATENCY_BOUNDS_MS.length + 1 }, (_, index) =>
    index === bucket ? 1 : 0,
  ).join(',')}}`;
  const minute = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS).toISOString();
  const windowStart = new Date(now.getTime() - settings.windowSeconds * 1000).toISOString();
  const key = { capability: outcome.capability, provider: outcome.provider, bank };
  const at = bucket + 1;
  const result: unknown = await db.execute(sql`
    WITH minute AS (
      INSERT INTO provider_health_minutes AS m
        (capability, provider, bank, minute, calls, failures, timeouts, latency)
      VALUES (${key.capability}::text, ${key.provider}::text, ${bank}::text,
        ${minute}::timestamptz, 1, ${failed ? 1 : 0}::int, ${failed && outcome.noAnswer ? 1 : 0}::int,
        ${fresh}::int[])
      ON CONFLICT (capability, provider, bank, minute) DO UPDATE SET
        calls = m.calls + 1,
        failures = m.failures + EXCLUDED.failures,
        timeouts = m.timeouts + EXCLUDED.timeouts,
        latency = m.latency[1:${at - 1}::int] || (m.latency[${at}::int] + 1)
          || m.latency[${at + 1}::int:]
      RETURNING 1
    )
    INSERT INTO provider_health_states AS s (capability, provider, bank, failures_in_a_row)
    VALUES (${key.capability}::text, ${key.provider}::text, ${bank}::text, ${failed ? 1 : 0}::int)
    ON CONFLICT (capability, provider, bank) DO UPDATE SET
      failures_in_a_row = CASE WHEN ${failed}::boolean THEN s.failures_in_a_row + 1 ELSE 0 END
    RETURNING s.failures_in_a_row, s.eliminated_at, s.eliminated_until, s.eliminated_reason,
      s.version,
      (SELECT coalesce(sum(w.calls), 0) FROM provider_health_minutes w
        WHERE w.capability = s.capability AND w.provider = s.provider AND w.bank = s.bank
          AND w.minute >= greatest(${windowStart}::timestamptz,
            coalesce(s.counted_since, ${windowStart}::timestamptz))) AS window_calls,
      (SELECT coalesce(sum(w.failures), 0) FROM provider_health_minutes w
        WHERE w.capability = s.capability AND w.provider = s.provider AND w.bank = s.bank
          AND w.minute >= greatest(${windowStart}::timestamptz,
            coalesce(s.counted_since, ${windowStart}::timestamptz))) AS window_failures`);
  const [row] = (result as { rows: TRecordedRow[] }).rows;
  if (!row) return;
  const eliminated =
    row.eliminated_at && row.eliminated_until
      ? {
          since: new Date(row.eliminated_at),
          until: new Date(row.eliminated_until),
          reason: row.eliminated_reason ?? '',
        }
      : null;
  // The window was read before this call was added to it.
  const window = {
    calls: Number(row.window_calls) + 1,
    failures: Number(row.window_failures) + (failed ? 1 : 0),
  };
  const move = healthMove(
    { failuresInARow: row.failures_in_a_row, eliminated },
    failed,
    window,
    settings,
    now,
  );
  if (move.move === 'none') return;
  const moved = await db
    .update(providerHealthStates)
    .set({ ...movedState(move, now), version: sql`${providerHealthStates.version} + 1` })
    .where(and(stateKey(key), eq(providerHealthStates.version, row.version)))
    .returning({ version: providerHealthStates.version });
  if (moved.length > 0) deps.onMove?.(key, move);
}

/** The columns a move sets. */
function movedState(move: Exclude<THealthMove, { move: 'none' }>, now: Date) {
  switch (move.move) {
    case 'eliminate':
      return {
        eliminatedAt: now,
        eliminatedUntil: move.until,
        eliminatedReason: move.reason,
        probeClaimedAt: null,
      };
    case 'cool_down_again':
      return { eliminatedUntil: move.until, probeClaimedAt: null };
    case 'readmit':
      return {
        eliminatedAt: null,
        eliminatedUntil: null,
        eliminatedReason: null,
        probeClaimedAt: null,
        failuresInARow: 0,
        countedSince: now,
      };
  }
}

const stateKey = (key: TMoveScope) =>
  and(
    eq(providerHealthStates.capability, key.capability),
    eq(providerHealthStates.provider, key.provider),
    eq(providerHealthStates.bank, key.bank),
  );

const eliminationOf = (row: TStateRow) =>
  row.eliminatedAt && row.eliminatedUntil
    ? {
        since: row.eliminatedAt,
        until: row.eliminatedUntil,
        reason: row.eliminatedReason ?? '',
      }
    : null;

async function routeBy(
  deps: TDeps,
  scope: TRouteScope,
  candidates: readonly string[],
): Promise<{ order: string[]; passedOver: TPassedOver[] }> {
  const { db, clock, settings } = deps;
  if (candidates.length < 2) return { order: [...candidates], passedOver: [] };
  const now = clock.now();
  const banks = scope.bank ? ['', scope.bank] : [''];
  const rows = await db
    .select()
    .from(providerHealthStates)
    .where(
      and(
        eq(providerHealthStates.capability, scope.capability),
        inArray(providerHealthStates.provider, [...candidates]),
        inArray(providerHealthStates.bank, banks),
      ),
    );
  const standings = new Map<string, TRouteStanding>();
  for (const row of rows) {
    if (standings.get(row.provider)?.take === 'last') continue;
    let standing = routeStanding(eliminationOf(row), row.probeClaimedAt, settings, now);
    if (standing.take === 'probe' && !(await claimProbe(db, row, now))) {
      const eliminated = eliminationOf(row);
      standing = {
        take: 'last',
        since: eliminated?.since ?? now,
        reason: eliminated?.reason ?? '',
      };
    }
    standings.set(row.provider, standing);
  }
  const { order, passedOver } = routeOrder(candidates, standings);
  return {
    order,
    passedOver: passedOver.flatMap((provider) => {
      const standing = standings.get(provider);
      return standing?.take === 'last'
        ? [{ provider, why: 'eliminated' as const, since: standing.since, reason: standing.reason }]
        : [];
    }),
  };
}

/** Lets one piece of new work probe an eliminated provider: the one that moves the row first. */
async function claimProbe(db: TDb, row: TStateRow, now: Date): Promise<boolean> {
  const claimed = await db
    .update(providerHealthStates)
    .set({ probeClaimedAt: now, version: sql`${providerHealthStates.version} + 1` })
    .where(and(stateKey(row), eq(providerHealthStates.version, row.version)))
    .returning({ version: providerHealthStates.version });
  return claimed.length > 0;
}

async function snapshotOf({ db, clock }: TDeps): Promise<THealthLine[]> {
  const since = new Date(clock.now().getTime() - HOUR_MS);
  const minutes = await db
    .select()
    .from(providerHealthMinutes)
    .where(and(eq(providerHealthMinutes.bank, ''), gte(providerHealthMinutes.minute, since)));
  const states = await db
    .select()
    .from(providerHealthStates)
    .where(eq(providerHealthStates.bank, ''));
  const lines = new Map<string, THealthLine & { histogram: number[] }>();
  const lineOf = (capability: string, provider: string) => {
    const key = `${capability} ${provider}`;
    let line = lines.get(key);
    if (!line) {
      line = {
        capability: capability as THealthLine['capability'],
        provider,
        calls: 0,
        failures: 0,
        timeouts: 0,
        p95LatencyMs: null,
        eliminated: null,
        histogram: Array.from({ length: LATENCY_BOUNDS_MS.length + 1 }, () => 0),
      };
      lines.set(key, line);
    }
    return line;
  };
  for (const minute of minutes) {
    const line = lineOf(minute.capability, minute.provider);
    line.calls += minute.calls;
    line.failures += minute.failures;
    line.timeouts += minute.timeouts;
    minute.latency.forEach(
      (count, index) => (line.histogram[index] = (line.histogram[index] ?? 0) + count),
    );
  }
  for (const state of states) {
    const eliminated = eliminationOf(state);
    lineOf(state.capability, state.provider).eliminated = eliminated && {
      since: eliminated.since,
      reason: eliminated.reason,
    };
  }
  return [...lines.values()].map(({ histogram, ...line }) => ({
    ...line,
    p95LatencyMs: p95OfHistogram(histogram),
  }));
}

/** How often minutes no one reads any more are deleted (jobs/kinds.ts 'routing.prune-health'). */
export const HEALTH_PRUNE_MS = 10 * MINUTE_MS;

/** The most minutes one prune deletes: a backlog goes in several runs, none holding locks long. */
const PRUNE_BATCH = 5_000;

/**
 * Deletes the minutes that neither the snapshot (the last hour) nor the failure rate's window
 * reads any more, a minute's margin kept; answers how many. The states are kept: they are one
 * row per provider, capability and bank.
 */
export async function pruneHealthMinutes(
  db: TDb,
  now: Date,
  settings: Pick<TRoutingSettings, 'windowSeconds'>,
): Promise<number> {
  const readMs = Math.max(HOUR_MS, settings.windowSeconds * 1000) + MINUTE_MS;
  const before = new Date(now.getTime() - readMs);
  const old = db
    .select({
      capability: providerHealthMinutes.capability,
      provider: providerHealthMinutes.provider,
      bank: providerHealthMinutes.bank,
      minute: providerHealthMinutes.minute,
    })
    .from(providerHealthMinutes)
    .where(lt(providerHealthMinutes.minute, before))
    .limit(PRUNE_BATCH);
  const deleted = await db
    .delete(providerHealthMinutes)
    .where(
      sql`(${providerHealthMinutes.capability}, ${providerHealthMinutes.provider}, ${providerHealthMinutes.bank}, ${providerHealthMinutes.minute}) IN (${old})`,
    )
    .returning({ minute: providerHealthMinutes.minute });
  return deleted.length;
}

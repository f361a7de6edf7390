/*
 * The rules of health-routed new work (docs/routing.md): when a provider's technical failures
 * eliminate it from new work, when it is let back, and where a provider stands in the order new
 * work tries. Pure: the server reads the record, asks these, and moves the record in one
 * conditional statement.
 *
 * Only technical failures count (no answer, a timeout, a 5xx, a refused key): a payer's decline,
 * insufficient funds or a refusal of the payer's request is an answer, and a healthy one.
 *
 *   state        an outcome of...            becomes
 *   admitted     a failure, N in a row       eliminated for the cool-down ("after 5 timeouts")
 *   admitted     a failure, rate over the    eliminated for the cool-down ("6 of 10 calls
 *                threshold, enough calls       failed in 60 s")
 *   admitted     anything else               admitted
 *   eliminated   anything, in the cool-down  eliminated (calls in flight say nothing new)
 *   eliminated   an answer, after it (probe) admitted again, its window counted afresh
 *   eliminated   a failure, after it (probe) eliminated for another cool-down
 */

/** The thresholds (config.ts ROUTING_*). */
export type TRoutingSettings = {
  /** Technical failures in a row that eliminate a provider. */
  failuresInARow: number;
  /** The share of failed calls in the window that eliminates it (0..1)... */
  failureRate: number;
  /** ...once the window holds at least this many calls. */
  minCalls: number;
  windowSeconds: number;
  /** How long an eliminated provider takes no new work before one call probes it. */
  coolDownSeconds: number;
};

/** The defaults: what a deployment gets without ROUTING_* settings. */
export const DEFAULT_ROUTING_SETTINGS: TRoutingSettings = {
  failuresInARow: 5,
  failureRate: 0.5,
  minCalls: 10,
  windowSeconds: 60,
  coolDownSeconds: 30,
};

/** A provider's standing for one capability (and bank), as recorded. */
export type THealthStanding = {
  /** Technical failures in a row, this outcome included. */
  failuresInARow: number;
  /** Null while it takes new work. */
  eliminated: { since: Date; until: Date; reason: string } | null;
};

/** The calls of the window (since the later of the window's start and the last re-admission). */
export type THealthWindow = { calls: number; failures: number };

/** What one recorded outcome does to a provider's standing. */
export type THealthMove =
  | { move: 'none' }
  | { move: 'eliminate'; until: Date; reason: string }
  | { move: 'readmit' }
  | { move: 'cool_down_again'; until: Date };

/** What an outcome moves, given the standing and window that include it. */
export function healthMove(
  standing: THealthStanding,
  failed: boolean,
  recent: THealthWindow,
  settings: TRoutingSettings,
  now: Date,
): THealthMove {
  const until = new Date(now.getTime() + settings.coolDownSeconds * 1000);
  if (standing.eliminated) {
    // Calls sent before the elimination still answer during the cool-down: they say nothing new.
    if (now.getTime() < standing.eliminated.until.getTime()) return { move: 'none' };
    return failed ? { move: 'cool_down_again', until } : { move: 'readmit' };
  }
  if (!failed) return { move: 'none' };
  if (standing.failuresInARow >= settings.failuresInARow) {
    return {
      move: 'eliminate',
      until,
      reason: `after ${standing.failuresInARow} failures in a row`,
    };
  }
  if (recent.calls >= settings.minCalls && recent.failures / recent.calls >= settings.failureRate) {
    const reason = `${recent.failures} of ${recent.calls} calls failed in ${settings.windowSeconds} s`;
    return { move: 'eliminate', until, reason };
  }
  return { move: 'none' };
}

/** Where a candidate stands for the next piece of new work. */
export type TRouteStanding =
  /** Takes new work in its list position. */
  | { take: 'yes' }
  /** Its cool-down is over and no probe is out: the next piece of work may probe it. */
  | { take: 'probe' }
  /** Passed over: tried only after every provider that takes new work. */
  | { take: 'last'; since: Date; reason: string };

/**
 * A candidate's standing: a probe counts as out until a cool-down after it was claimed (a probe
 * whose outcome never came is let go again then).
 */
export function routeStanding(
  eliminated: THealthStanding['eliminated'],
  probeClaimedAt: Date | null,
  settings: Pick<TRoutingSettings, 'coolDownSeconds'>,
  now: Date,
): TRouteStanding {
  if (!eliminated) return { take: 'yes' };
  const coolDownMs = settings.coolDownSeconds * 1000;
  const probeOut = probeClaimedAt !== null && now.getTime() < probeClaimedAt.getTime() + coolDownMs;
  if (now.getTime() >= eliminated.until.getTime() && !probeOut) return { take: 'probe' };
  return { take: 'last', since: eliminated.since, reason: eliminated.reason };
}

/**
 * The order to try candidates in: those that take new work (or probe) in list order, then the
 * passed-over ones in list order, a last resort, so work is never refused while any remains.
 */
export function routeOrder<TName extends string>(
  candidates: readonly TName[],
  standings: ReadonlyMap<TName, TRouteStanding>,
): { order: TName[]; passedOver: TName[] } {
  const passedOver = candidates.filter((name) => standings.get(name)?.take === 'last');
  const taking = candidates.filter((name) => !passedOver.includes(name));
  return { order: [...taking, ...passedOver], passedOver };
}

/** The upper bounds (ms) of the latency histogram's buckets; the last bucket has none. */
export const LATENCY_BOUNDS_MS = [25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000] as const;

/** The bucket a latency falls in: an index into a histogram of LATENCY_BOUNDS_MS.length + 1. */
export function latencyBucket(latencyMs: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => latencyMs <= bound);
  return index === -1 ? LATENCY_BOUNDS_MS.length : index;
}

/**
 * The 95th percentile of a histogram's calls, as its bucket's upper bound (the last bucket: the
 * last bound, a floor); null without calls.
 */
export function p95OfHistogram(histogram: readonly number[]): number | null {
  const calls = histogram.reduce((sum, count) => sum + count, 0);
  if (calls === 0) return null;
  let seen = 0;
  for (const [index, count] of histogram.entries()) {
    seen += count;
    if (seen >= Math.ceil(calls * 0.95)) {
      return LATENCY_BOUNDS_MS[Math.min(index, LATENCY_BOUNDS_MS.length - 1)] ?? null;
    }
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1] ?? null;
}

/** What a payment's timeline says of a routing decision, e.g. "Sent to Monnify: Paystack ...". */
export function routeNoteOf(
  sentTo: string,
  passedOver: readonly { provider: string; since: Date; reason: string }[],
  failedOver: readonly { provider: string; reason: string }[] = [],
): string | null {
  const why = [
    ...passedOver.map(
      ({ provider, since, reason }) =>
        `${providerLabel(provider)} eliminated at ${clockTime(since)} ${reason}`,
    ),
    ...failedOver.map(({ provider, reason }) => `${providerLabel(provider)} ${reason}`),
  ];
  return why.length === 0 ? null : `Sent to ${providerLabel(sentTo)}: ${why.join('; ')}`;
}

/** A provider's name as people write it. */
const providerLabel = (name: string): string =>
  PROVIDER_LABELS[name] ?? name.charAt(0).toUpperCase() + name.slice(1);

const PROVIDER_LABELS: Readonly<Record<string, string>> = {
  africastalking: "Africa's Talking",
  'paystack-terminal': 'Paystack Terminal',
};

/** HH:MM in UTC, the time the operator's records use. */
const clockTime = (at: Date): string => at.toISOString().slice(11, 16);

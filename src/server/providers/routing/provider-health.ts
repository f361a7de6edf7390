import type { TCapability } from '../../../domain/capabilities';

/*
 * Health-routed new work (docs/routing.md): which provider of a capability's ordered list starts
 * the next piece of new work (a card charge, a transfer account, a payout, a new mandate, a BVN
 * look-up, an SMS), from a rolling record of each provider's technical outcomes that every
 * process sees. Later calls about money never come here: they go to the provider on the row
 * (registry.ts `portOf`).
 *
 * This file is the seam the routing work shares: the types, and `listOrder`, which routes by
 * the list alone (no record kept). The context's health is the recorded one (recorded-health.ts).
 */

/** What one call's outcome says of the provider's health. */
export type TCallHealth =
  /** It answered: a payment, a decline, insufficient funds, a refusal of the payer's request. */
  | 'answered'
  /** A technical failure: no answer, a timeout, a 5xx, a broken connection, a refused key. */
  | 'failed';

/** One call's outcome, recorded for the provider that made it. */
export type TCallOutcome = {
  capability: TCapability;
  provider: string;
  /** The destination bank (transfers in, payouts, mandates) or card issuer, where it matters. */
  bank?: string | null | undefined;
  health: TCallHealth;
  latencyMs: number;
  /** A failure that got no answer at all (ProviderNoAnswer), counted among the timeouts. */
  noAnswer?: boolean | undefined;
};

/** A provider passed over for new work, and why: what the payment's timeline says. */
export type TPassedOver = {
  provider: string;
  /** 'eliminated' by its record, or 'paused' by the merchant. */
  why: 'eliminated' | 'paused';
  /** Since when. */
  since: Date;
  /** In plain words: "after 5 timeouts", "paused by the merchant". */
  reason: string;
};

/** The providers to try for one piece of new work, in order, and who was passed over. */
export type TRoute = {
  /** The first is tried first; the next only where that work may move (docs/routing.md). */
  order: readonly string[];
  passedOver: readonly TPassedOver[];
};

/** What the routing work of a capability is scoped to. */
export type TRouteScope = {
  capability: TCapability;
  bank?: string | null | undefined;
  /**
   * The merchant the work is for: its pin and pauses (the dashboard's Routes screen,
   * route-settings.ts) apply. Work for no merchant (a payer's sign-in code) follows health alone.
   */
  merchantId?: string | null | undefined;
  /**
   * The merchant's settings for the capability, where the caller read them already (a payment's
   * card charge or one-time account reads them with the payment, payment-records.ts): null where
   * it set none. Left out, the routing reads them itself.
   */
  settings?: TRouteSettings | null | undefined;
};

/** A merchant's settings for one capability, as the route_settings row keeps them. */
export type TRouteSettings = {
  pinned: string | null;
  /** Paused providers, each with since when (an ISO time). */
  paused: Readonly<Record<string, string>>;
};

/** One provider's health for one capability over the last hour: what the Routes screen shows. */
export type THealthLine = {
  capability: TCapability;
  provider: string;
  calls: number;
  /** Technical failures among `calls` (no answer, timeouts, 5xx). */
  failures: number;
  /** Of them, timeouts and other calls that got no answer at all. */
  timeouts: number;
  /** The 95th percentile of the calls' latency, or null without calls. */
  p95LatencyMs: number | null;
  /** Since when it is eliminated, and why in plain words; null while it takes new work. */
  eliminated: { since: Date; reason: string } | null;
};

export type TProviderHealth = {
  /** Records one call's outcome; never throws (health is never worth a payer's request). */
  record(outcome: TCallOutcome): Promise<void>;
  /** The order to try `candidates` (the capability's list) in for new work. */
  route(scope: TRouteScope, candidates: readonly string[]): Promise<TRoute>;
  /** Every recorded provider's health over the last hour, by capability. */
  snapshot(): Promise<THealthLine[]>;
  /**
   * Tells `listener` of every move of a provider's state this health wins (its conditional
   * statement moved the row): of processes deciding one move at once, one is told. Answers how
   * to stop telling it. A health that keeps no record moves nothing and has none.
   */
  watchMoves?(listener: THealthMoveListener): () => void;
};

/** A move of a provider's recorded state: eliminated, re-admitted, or cooled down again. */
export type THealthMoveListener = (
  scope: { capability: string; provider: string; bank: string },
  move: 'eliminate' | 'readmit' | 'cool_down_again',
) => void;

/** Routing by the list alone: the first serves, nothing recorded, nobody passed over. */
export const listOrder: TProviderHealth = {
  async record() {},
  async route(_scope, candidates) {
    return { order: [...candidates], passedOver: [] };
  },
  async snapshot() {
    return [];
  },
};

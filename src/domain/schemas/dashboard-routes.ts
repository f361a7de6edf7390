import { z } from 'zod/mini';
import { CAPABILITIES } from '../capabilities';

/*
 * The dashboard's Routes screen (docs/dashboard.md "Routes", docs/routing.md): each capability's
 * providers in the order of its list, their health over the last hour, who is eliminated or
 * paused and since when, the merchant's pin, and the payments failover recovered. Owners pin,
 * pause and clear a provider per capability.
 */

const ok = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object({ success: z.literal(true), ...shape });

/** One provider's calls over the last hour, for one capability. */
export const ZRouteHealth = z.object({
  calls: z.number(),
  /** Technical failures among them: no answer, timeouts, 5xx. */
  failures: z.number(),
  /** Of them, the calls that got no answer at all. */
  timeouts: z.number(),
  /** The 95th percentile of their latency, or null without calls. */
  p95LatencyMs: z.nullable(z.number()),
});

/** A provider of a capability's list, as the merchant's new work meets it. */
export const ZRouteProvider = z.object({
  provider: z.string(),
  health: ZRouteHealth,
  /** Since when its record keeps it from new work, and why; null while it takes new work. */
  eliminated: z.nullable(z.object({ since: z.string(), reason: z.string() })),
  /** The merchant pinned it: new work tries it first. */
  pinned: z.boolean(),
  /** Since when the merchant paused it; null when not paused. */
  pausedSince: z.nullable(z.string()),
});
export type TRouteProvider = z.infer<typeof ZRouteProvider>;

/** One capability whose new work a list of providers serves in order. */
export const ZRouteCapability = z.object({
  capability: z.enum(CAPABILITIES),
  /** In the order of the capability's list (the server's settings). */
  providers: z.array(ZRouteProvider),
  /** Who the merchant's next new work is sent to first, pin, pauses and health applied. */
  next: z.nullable(z.string()),
});
export type TRouteCapability = z.infer<typeof ZRouteCapability>;

/** Payments and kobo recovered by failover in one period. */
export const ZRecoveredTotal = z.object({ payments: z.number(), amount: z.number() });

/** GET /api/dashboard/routes. */
export const ZDashboardRoutesResponse = ok({
  capabilities: z.array(ZRouteCapability),
  /** Completed on a second provider after the first failed (domain/failover-recovery.ts). */
  recovered: z.object({ today: ZRecoveredTotal, month: ZRecoveredTotal }),
});
export type TDashboardRoutesResponse = z.infer<typeof ZDashboardRoutesResponse>;

/** POST /api/dashboard/routes/{pin,pause,clear} body: one provider of one capability. */
export const ZDashboardRouteChange = z.object({
  capability: z.enum(CAPABILITIES),
  provider: z.string().check(z.regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be a provider name')),
});
export type TDashboardRouteChange = z.infer<typeof ZDashboardRouteChange>;

/** Their answer: the capability's settings as they now stand. */
export const ZDashboardRouteSettingsResponse = ok({
  capability: z.enum(CAPABILITIES),
  pinned: z.nullable(z.string()),
  paused: z.array(z.object({ provider: z.string(), since: z.string() })),
});
export type TDashboardRouteSettingsResponse = z.infer<typeof ZDashboardRouteSettingsResponse>;

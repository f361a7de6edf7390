import { z } from 'zod/mini';
import { CAPABILITIES } from '../capabilities';

/** Which database answers: embedded PGlite or a PostgreSQL server. */
export const ZDatabaseKind = z.enum(['pglite', 'postgres']);
export type TDatabaseKind = z.infer<typeof ZDatabaseKind>;

/** GET /api/health, 200: the server and its database answer. */
export const ZHealthResponse = z.object({ status: z.literal('ok'), database: ZDatabaseKind });
export type THealthResponse = z.infer<typeof ZHealthResponse>;

/** GET /api/health, 503: the server runs but its database does not answer. */
export const ZHealthUnavailableResponse = z.object({
  status: z.literal('unavailable'),
  database: ZDatabaseKind,
});

/** One kind of background job: its jobs by state, and how long the oldest runnable one waited. */
export const ZJobKindBacklog = z.object({
  kind: z.string(),
  /** Waiting to run (their time came, or will). */
  waiting: z.number(),
  /** Waiting to run again after a failed try (with backoff). */
  retrying: z.number(),
  active: z.number(),
  /** Used every retry: kept for a look (the kind's dead-letter queue holds a copy). */
  failed: z.number(),
  /** In the kind's dead-letter queue. */
  dead: z.number(),
  /** Seconds the oldest job whose time came has waited; null when none waits. */
  oldestWaitingSeconds: z.nullable(z.number()),
});
export type TJobKindBacklog = z.infer<typeof ZJobKindBacklog>;

/** One capability (domain/capabilities.ts): the adapter that serves it, or `off` and why. */
export const ZCapabilityLine = z.object({
  capability: z.enum(CAPABILITIES),
  state: z.enum(['on', 'off']),
  /** The name of the adapter that serves new work ('sandbox', 'paystack', …); null when off. */
  adapter: z.nullable(z.string()),
  /**
   * Every provider of the capability, in order: new work goes to the first that is healthy, the
   * rest stand by (notices, settlement and refunds: each serves its own at once; domain
   * providerRoles).
   */
  providers: z.array(z.string()),
  /** Why it is off, or what to know of its adapter (a sandbox stand-in); null when nothing. */
  note: z.nullable(z.string()),
});
export type TCapabilityLineOut = z.infer<typeof ZCapabilityLine>;

/** What GET /api/health/ready reports of each dependency. */
const ZReadiness = {
  database: ZDatabaseKind,
  /** Redis, where the rate limits are shared; 'not_configured' without REDIS_URL. */
  redis: z.enum(['ready', 'not_ready', 'not_configured']),
  jobEngine: z.enum(['ready', 'not_ready']),
  /** The kinds with jobs failed, dead or waiting to be tried again: what an operator looks at. */
  failingKinds: z.array(z.string()),
  jobs: z.array(ZJobKindBacklog),
  /** Each capability and what serves it (an `off` one does not make the server unready). */
  capabilities: z.array(ZCapabilityLine),
};

/** GET /api/health/ready, 200: the database, Redis (when configured) and the job engine answer. */
export const ZReadyResponse = z.object({ status: z.literal('ready'), ...ZReadiness });
export type TReadyResponse = z.infer<typeof ZReadyResponse>;

/** GET /api/health/ready, 503: one of them does not; `reasons` says which and why. */
export const ZNotReadyResponse = z.object({
  status: z.literal('not_ready'),
  reasons: z.array(z.string()),
  ...ZReadiness,
});
export type TNotReadyResponse = z.infer<typeof ZNotReadyResponse>;

import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { TDatabase } from '../db/database';

/** Where the metrics are read (GET, behind METRICS_TOKEN or the operator's token). */
export const METRICS_URL = '/metrics';

/*
 * The Prometheus metrics of one app (docs/operations.md): a registry per app, so that the many
 * apps a test process builds never share a count. What the process measures itself (requests,
 * provider calls, refusals) is counted as it happens; what the database or another part of the
 * app holds (payments, webhook and job backlogs, open streams, the pool) is read at each scrape.
 */

/** The job engine's backlog of one kind, as `app.jobs.backlog()` answers it (docs/jobs.md). */
export type TJobBacklogSample = {
  kind: string;
  states: Record<string, number>;
  oldestWaitingSeconds: number | null;
};

/** What the scrape reads from the rest of the app; each may be absent (null) at that moment. */
export type TScrapeSources = {
  database: Pick<TDatabase, 'db' | 'kind'>;
  /** Event streams open now in this process. */
  openStreams(): number | null;
  /** The job engine's backlog; null while no engine runs in this app. */
  jobBacklog(): Promise<TJobBacklogSample[]> | null;
  /** The app's clock: what a payer's request is overdue against. */
  now(): Date;
};

export type TMetrics = ReturnType<typeof createMetrics>;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * prom-client's defaults that are gauges named `_total`, which Prometheus's lint (promtool check
 * metrics) refuses: each is the sum of a gauge kept beside it (nodejs_active_handles by type).
 */
const GAUGES_NAMED_TOTAL = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** Seconds, from 5 ms to 2 minutes: an SMS, a webhook (10 s limit), a collection run. */
const WORK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The app's metrics registry, and the metrics the process counts as things happen. */
export function createMetrics(sources: TScrapeSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_TOTAL) registry.removeSingleMetric(name);
  const counted = countedMetrics(registry);
  const { db } = sources.database;
  registerPaymentAttempts(registry, db);
  registerOwedBack(registry, db);
  registerPayerRequests(registry, db, () => sources.now());
  registerWebhookBacklog(registry, db);
  registerJobBacklog(registry, sources);
  registerOpenStreams(registry, sources);
  registerDatabase(registry, sources.database);
  return { registry, ...counted };
}

/** What the process counts as it happens: requests, refusals, provider calls, jobs, webhooks. */
function countedMetrics(registry: Registry) {
  const httpDuration = new Histogram({
    name: 'oya_http_request_duration_seconds',
    help: 'Requests answered, by route pattern, method and status: _count is the request rate',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimitRefusals = new Counter({
    name: 'oya_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by route pattern',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const providerCalls = new Counter({
    name: 'oya_provider_calls_total',
    help: 'Calls to the payment provider port, by provider, operation and outcome (ok, error: it threw)',
    labelNames: ['provider', 'operation', 'outcome'] as const,
    registers: [registry],
  });
  const providerDuration = new Histogram({
    name: 'oya_provider_call_duration_seconds',
    help: 'How long the payment provider took to answer, by provider and operation',
    labelNames: ['provider', 'operation'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
    registers: [registry],
  });
  // Each try of a call over HTTP (providers/provider-call.ts), beneath the port's calls above.
  const providerHttpCalls = new Counter({
    name: 'oya_provider_http_calls_total',
    help: 'Tries of calls to providers over HTTP made by this process, by provider, call and outcome (answered, refused: nothing happened, no_answer: asked about by reference, key_refused: the configuration)',
    labelNames: ['provider', 'call', 'outcome'] as const,
    registers: [registry],
  });
  const providerHttpDuration = new Histogram({
    name: 'oya_provider_http_call_duration_seconds',
    help: 'How long each try of a call to a provider over HTTP took, by provider and call',
    labelNames: ['provider', 'call'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
    registers: [registry],
  });
  // Health-routed new work (docs/routing.md): where each piece went, and whether a provider
  // the list puts before it was passed over as eliminated.
  const routingDecisions = new Counter({
    name: 'oya_routing_decisions_total',
    help: 'Pieces of new work routed by provider health, by capability, the provider tried first and passed_over (yes: an eliminated provider was passed over for it)',
    labelNames: ['capability', 'provider', 'passed_over'] as const,
    registers: [registry],
  });
  const providerEliminations = new Counter({
    name: 'oya_provider_eliminations_total',
    help: 'Providers eliminated from new work by their recorded health, by capability, provider and bank (all: the provider as a whole); counted once, by the process whose statement eliminated it',
    labelNames: ['capability', 'provider', 'bank'] as const,
    registers: [registry],
  });

  // The RED of background work: _count is the rate, outcome the errors, the buckets the duration.
  const jobDuration = new Histogram({
    name: 'oya_job_duration_seconds',
    help: 'Jobs run by this process, by kind and outcome (ok; error: it threw, and waits for its retry or went to its dead letter)',
    labelNames: ['kind', 'outcome'] as const,
    buckets: WORK_BUCKETS,
    registers: [registry],
  });
  const webhookDeliveryDuration = new Histogram({
    name: 'oya_webhook_delivery_duration_seconds',
    help: 'Webhook tries made by this process, by event type and outcome (delivered, retrying, given_up, disabled)',
    labelNames: ['event_type', 'outcome'] as const,
    buckets: WORK_BUCKETS,
    registers: [registry],
  });
  return {
    httpDuration,
    rateLimitRefusals,
    providerCalls,
    providerDuration,
    providerHttpCalls,
    providerHttpDuration,
    routingDecisions,
    providerEliminations,
    jobDuration,
    webhookDeliveryDuration,
  };
}

/** The payment attempts in the database by method and status, read at each scrape. */
function registerPaymentAttempts(registry: Registry, db: TDatabase['db']): void {
  new Gauge({
    name: 'oya_payment_attempts',
    help: 'Payment attempts in the database, by method and status (completed, failed: the outcome; pending, in_progress: not yet ended); every process reports the same',
    labelNames: ['method', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = rowsOf<{ method: string; status: string; n: string | number }>(
        await db.execute(
          sql`select method, status, count(*) as n from payment_attempts where purpose = 'payment' group by method, status`,
        ),
      );
      for (const row of rows) this.set({ method: row.method, status: row.status }, Number(row.n));
    },
  });
}

/**
 * Money that reached payments paid otherwise and is owed back to payers: for the reconciler to
 * give back ('owed'), or left to an operator ('by_hand'); as attempts and as kobo, each read at
 * its scrape (a registry collects its metrics side by side), by the two refunds' partial indexes.
 */
function registerOwedBack(registry: Registry, db: TDatabase['db']): void {
  const owedBack = async () => {
    const rows = rowsOf<{ refund: string; n: string | number; kobo: string | number }>(
      await db.execute(sql`
        select refund, count(*) as n, sum(amount) as kobo from payment_attempts
        where refund in ('owed', 'by_hand') group by refund`),
    );
    return (['owed', 'by_hand'] as const).map((refund) => {
      const row = rows.find((r) => r.refund === refund);
      return { refund, attempts: Number(row?.n ?? 0), kobo: Number(row?.kobo ?? 0) };
    });
  };
  new Gauge({
    name: 'oya_owed_back_attempts',
    help: 'Payment attempts whose money is owed back to their payer, by refund: owed (the reconciler gives it back), by_hand (an operator refunds it at the provider and records it)',
    labelNames: ['refund'] as const,
    registers: [registry],
    async collect() {
      for (const { refund, attempts } of await owedBack()) this.set({ refund }, attempts);
    },
  });
  new Gauge({
    name: 'oya_owed_back_kobo',
    help: 'Kobo owed back to payers, by refund (owed, by_hand)',
    labelNames: ['refund'] as const,
    registers: [registry],
    async collect() {
      for (const { refund, kobo } of await owedBack()) this.set({ refund }, kobo);
    },
  });
}

/**
 * What payers asked of the operator and wait for (docs/payer-rights.md): complaints to acknowledge
 * and to resolve, and requests about their data still being answered, each open or past its
 * target, read at each scrape. The operator hears of a new complaint, and of one late, by the
 * alerts on it (docs/operations.md "Alerts and what they mean").
 */
function registerPayerRequests(registry: Registry, db: TDatabase['db'], now: () => Date): void {
  new Gauge({
    name: 'oya_payer_requests_open',
    help: 'What payers wait for from the operator, by request (complaint_acknowledge, complaint_resolve, or a data request: export, erasure, …) and whether it is past its target (overdue true or false)',
    labelNames: ['request', 'overdue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const at = now().toISOString();
      const rows = rowsOf<{ request: string; overdue: boolean; n: string | number }>(
        await db.execute(sql`
          select 'complaint_acknowledge' as request, acknowledge_by < ${at}::timestamptz as overdue,
                 count(*) as n
            from payment_complaints where state = 'received' group by 2
          union all
          select 'complaint_resolve', resolve_by < ${at}::timestamptz, count(*)
            from payment_complaints where state <> 'resolved' group by 2
          union all
          select kind, due_at < ${at}::timestamptz, count(*)
            from payer_rights_requests where status = 'received' group by 1, 2`),
      );
      for (const row of rows) {
        this.set({ request: row.request, overdue: String(row.overdue) }, Number(row.n));
      }
    },
  });
}

/** The webhook deliveries pending and given up, and the age of the oldest pending one. */
function registerWebhookBacklog(registry: Registry, db: TDatabase['db']): void {
  // Each scrape writes the metrics in the order they were registered: the gauge that queries
  // comes first and sets the one after it.
  const webhookOldest = new Gauge({
    name: 'oya_webhook_oldest_pending_seconds',
    help: 'Age of the oldest webhook delivery still pending; 0 when none is',
    registers: [],
  });
  new Gauge({
    name: 'oya_webhook_deliveries',
    help: 'Webhook deliveries by status: pending (the backlog), failed (given up)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const [row] = rowsOf<{ pending: string | number; failed: string | number; oldest: unknown }>(
        await db.execute(sql`
          select count(*) filter (where status = 'pending') as pending,
                 count(*) filter (where status = 'failed') as failed,
                 extract(epoch from now() - min(created_at) filter (where status = 'pending')) as oldest
          from webhook_deliveries`),
      );
      this.set({ status: 'pending' }, Number(row?.pending ?? 0));
      this.set({ status: 'failed' }, Number(row?.failed ?? 0));
      webhookOldest.set(row?.oldest == null ? 0 : Number(row.oldest));
    },
  });
  registry.registerMetric(webhookOldest);
}

/** The job engine's jobs by kind and state, and the oldest that may run now, of each kind. */
function registerJobBacklog(registry: Registry, sources: TScrapeSources): void {
  const jobOldest = new Gauge({
    name: 'oya_job_oldest_waiting_seconds',
    help: 'Age of the oldest job of each kind that may run now; 0 when none waits',
    labelNames: ['kind'] as const,
    registers: [],
  });
  new Gauge({
    name: 'oya_jobs',
    help: 'Jobs of the job engine by kind and state (created, retry, active, completed, failed, dead)',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      jobOldest.reset();
      const backlog = await sources.jobBacklog();
      for (const { kind, states, oldestWaitingSeconds } of backlog ?? []) {
        for (const [state, count] of Object.entries(states)) this.set({ kind, state }, count);
        jobOldest.set({ kind }, oldestWaitingSeconds ?? 0);
      }
    },
  });
  registry.registerMetric(jobOldest);
}

/** The event streams open now in this process. */
function registerOpenStreams(registry: Registry, sources: TScrapeSources): void {
  new Gauge({
    name: 'oya_event_streams_open',
    help: 'Server-sent event streams open now in this process',
    registers: [registry],
    collect() {
      this.set(sources.openStreams() ?? 0);
    },
  });
}

/** The process's database connections by state, and which database it runs on. */
function registerDatabase(registry: Registry, database: TScrapeSources['database']): void {
  const client: unknown = (database.db as unknown as { $client?: unknown }).$client;
  new Gauge({
    name: 'oya_db_pool_connections',
    help: 'Database connections of this process by state: on PostgreSQL the pg pool’s total, idle and waiting (requests queued for a connection); on PGlite the one in-process connection (total 1)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (client instanceof pg.Pool) {
        this.set({ state: 'total' }, client.totalCount);
        this.set({ state: 'idle' }, client.idleCount);
        this.set({ state: 'waiting' }, client.waitingCount);
      } else {
        this.set({ state: 'total' }, 1);
      }
    },
  });
  new Gauge({
    name: 'oya_database_info',
    help: 'Which database this process runs on (kind: pglite or postgres)',
    labelNames: ['kind'] as const,
    registers: [registry],
  }).set({ kind: database.kind }, 1);
}

import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { fromDrizzle, fromPglite, PgBoss, type Job } from 'pg-boss';
import type { TDatabase, TDb } from '../db/database';
import { inJobSpan, traceContextOf, withTraceContext } from './job-trace';

/*
 * The job engine (docs/jobs.md): pg-boss, behind this small port. On PostgreSQL it opens its own
 * pool on DATABASE_URL; on PGlite (the embedded default) it runs on the same in-process database
 * through pg-boss's PGlite client (fromPglite), so both run the one engine and the one set of
 * tests. Its schema (`pgboss`) is the engine's own, made and migrated by it at start.
 *
 * A job is enqueued in the transaction of the change that calls for it (`ctx.jobs.enqueue`):
 * it exists exactly when the change does. Each kind has its retry policy (exponential backoff
 * up to a ceiling) and a dead-letter queue (`<kind>.dead`) where a job that used every retry is
 * kept, visible in the backlog. A periodic kind runs at each start, then every `everyMs` (each
 * run queues the next), with a cron backstop every minute; its queue holds at most one waiting
 * run ('short' policy), so however many processes run, one run waits at a time.
 *
 * A kind of jobs queued one per change (a delivery, an SMS) is worked in two lanes, so that a
 * kind whose jobs keep failing never holds back its new ones: a job that failed is moved to the
 * retry lane (RETRY_PRIORITY) as it is failed, and waits its backoff there; new jobs have a worker
 * of their own that never takes a retry. Each worker takes JOBS_PER_FETCH jobs a fetch and fetches
 * again at once while fetches come back full, instead of one job per poll.
 */

/** pg-boss's schema: the engine's own tables. */
export const JOBS_SCHEMA = 'pgboss';

export type TJobRetry = {
  /** Retries after the first try, before the job goes to its dead-letter queue. */
  limit: number;
  /** The first retry's delay; each next one waits twice as long, at most `maxDelaySeconds`. */
  delaySeconds: number;
  maxDelaySeconds: number;
};

export type TJobKind<TData = unknown> = {
  name: string;
  retry: TJobRetry;
  /** A periodic kind: runs at start and this long after each run (0: at start only). */
  everyMs?: number;
  /** How long one run may take before the engine takes it for dead and tries it again. */
  expireSeconds?: number;
  run(data: TData): Promise<unknown>;
};

export type TEnqueueOptions = {
  /** The job's id (a UUID): fixed by the caller when one change must make one job only. */
  id?: string;
  startAfter?: Date;
  /** At most one job per key waits at a time in the kind's queue. */
  singletonKey?: string;
};

/** What the backlog says of one kind (GET /api/health/ready, /metrics). */
export type TKindBacklog = {
  kind: string;
  /** Jobs by state: created (waiting), retry (waiting after a failure), active, failed, dead. */
  states: Record<'created' | 'retry' | 'active' | 'completed' | 'failed' | 'dead', number>;
  /** Seconds the oldest job that may run now has waited; null when none waits. */
  oldestWaitingSeconds: number | null;
};

export type TJobs = {
  /** Starts the engine: its schema, one queue per kind; workers and schedules when `work`. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Whether the engine answers; the reason when it does not. */
  readiness(): Promise<{ ready: true } | { ready: false; reason: string }>;
  /** Enqueues on `tx`, the transaction of the change that calls for the job. */
  enqueue(tx: TDb, kind: string, data: object, options?: TEnqueueOptions): Promise<string | null>;
  /**
   * Runs every job of `kinds` (all when absent) that may run now, in this process, until none is
   * left: what the workers would do, at once and in order (tests; the operator's commands).
   * Answers how many jobs ran.
   */
  drain(kinds?: string[]): Promise<number>;
  /**
   * Runs the waiting jobs of `kind` here now when this process works on it (after the commit that
   * queued one: the payer's SMS leaves at once, the queued job its guarantee), and resolves once
   * each job of `ids` was tried, here or by a worker that took it first, or NUDGE_WAIT_MS passed;
   * nothing otherwise. It never throws: what failed is retried by the engine.
   */
  nudge(kind: string, ids?: string[]): Promise<void>;
  /** Queues one run of a kind and runs it here now; answers what its handler answered. */
  runNow(kind: string, data?: object): Promise<unknown>;
  backlog(): Promise<TKindBacklog[]>;
  /** The kinds registered, by name. */
  kinds(): string[];
};

/** What a change needs of the engine to queue its job: `ctx.jobs`, seen as a queue. */
export type TJobQueue = Pick<TJobs, 'enqueue'>;

export type TJobsOptions = {
  database: Pick<TDatabase, 'kind' | 'engine'>;
  /**
   * The kinds, or how to make them: made once, on the engine's first use, so that their handlers
   * may close over the app's context, which holds this engine (context.ts `jobs`).
   */
  kinds: TJobKind[] | (() => TJobKind[]);
  /**
   * Kinds the app had and has no more: their queues, jobs and schedules (a periodic kind's cron
   * would otherwise keep queuing runs nobody works) are deleted at start.
   */
  retired?: readonly string[];
  /**
   * Whether this process works on a kind (its workers and schedule); the others run only when
   * drain() or runNow() asks (tests, on their clock), or in another process.
   */
  works: (kind: string) => boolean;
  onError: (error: unknown, kind: string | null) => void;
  /** Told of each job run and settled here (the metrics' rate, errors and duration). */
  onRun?: (run: TJobRun) => void;
};

/** One job run here: its kind, whether it threw, and how long it took. */
export type TJobRun = { kind: string; outcome: 'ok' | 'error'; seconds: number };

/**
 * What a job throws when no retry can help (a provider refused what it was sent): the job goes to
 * its kind's dead-letter queue at once, where the backlog, readiness and the dashboard show it,
 * and is told to `onError` like any failure, instead of being tried again with backoff.
 */
export class JobRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobRefused';
  }
}

/** The queue where a kind's jobs that failed every retry are kept. */
export const deadLetterOf = (kind: string) => `${kind}.dead`;

/** pg-boss's default priority: a job not yet tried. */
const FRESH_PRIORITY = 0;
/** A job that failed and waits for its retry: the retry lane's, below every new job. */
const RETRY_PRIORITY = -1;
/**
 * Jobs a worker takes a fetch. They run one after another (a consent's later webhook finds its
 * earlier one sent, not in flight beside it), so a fetch's jobs must fit in the shortest kind's
 * expiry together (sms.send: 60 s for each provider of SMS_PROVIDERS, each tried once a job).
 */
const JOBS_PER_FETCH = 5;
/**
 * How often a worker looks for jobs, NOTIFY or not: with NOTIFY pg-boss otherwise polls every
 * 30 s, and jobs queued faster than one wake-up each waited that long apiece.
 */
const POLLING = { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 } as const;

/**
 * How long nudge() waits for a job a worker took before it (woken by NOTIFY, in this process or
 * another): the caller answers then, and the job is still the engine's to finish.
 */
export const NUDGE_WAIT_MS = 10_000;
/** How often nudge() reads the state of a job a worker took. */
const NUDGE_POLL_MS = 20;

/**
 * On PGlite, the start of the engines on one database, one after another. PGlite is one
 * connection: two engines on it (two apps of one process, as a test of two servers makes) that
 * made pg-boss's schema and queues at once would interleave their statements, and one's would
 * land in the other's transaction and abort it. One process on PostgreSQL has connections of its
 * own, and pg-boss's advisory lock orders the starts of many.
 */
const startsOnPglite = new WeakMap<object, Promise<unknown>>();

/**
 * A job id (a UUID) made from `key`: the one change that calls for a job names it, so the same
 * change queued twice is one job (pg-boss keeps the first of one id).
 */
export function jobIdFor(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  // Version 8 (custom) and the RFC 4122 variant, so it is a well-formed UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What the engine's steps share: pg-boss, the kinds by name, the options and its state. */
type TEngineCore = {
  boss: PgBoss;
  kinds: Map<string, TJobKind>;
  options: TJobsOptions;
  state: 'stopped' | 'starting' | 'started' | 'failed';
  failure: string;
};

/**
 * The job engine. It is the app's one way to queue a job (`ctx.jobs.enqueue`, in the transaction
 * of the change that calls for it); its kinds and pg-boss are made on first use.
 */
export function jobEngine(options: TJobsOptions): TJobs {
  let made: TEngineCore | null = null;
  const core = (): TEngineCore => (made ??= engineCore(options));
  return {
    start: () => startEngine(core()),
    stop: () => stopEngine(core()),
    readiness: () => readinessOf(core()),
    enqueue: (tx, kind, data, enqueueOptions) => enqueueOn(core(), tx, kind, data, enqueueOptions),
    drain: (names) => drainKinds(core(), names),
    nudge: (name, ids) => nudgeKind(core(), name, ids),
    runNow: (name, data) => runOneNow(core(), name, data),
    backlog: () => jobBacklog(core().boss, [...core().kinds.keys()]),
    kinds: () => [...core().kinds.keys()],
  };
}

/** The engine's kinds by name and its pg-boss, told of its errors. */
function engineCore(options: TJobsOptions): TEngineCore {
  const kinds = typeof options.kinds === 'function' ? options.kinds() : options.kinds;
  const core: TEngineCore = {
    boss: bossFor(options, kinds),
    kinds: new Map(kinds.map((kind) => [kind.name, kind])),
    options,
    state: 'stopped',
    failure: '',
  };
  core.boss.on('error', (error) => options.onError(error, null));
  return core;
}

/**
 * pg-boss on the app's database: on PGlite through its PGlite client, on PostgreSQL a pool of
 * its own. Workers, schedules and supervision only in a process that works on some kind.
 */
function bossFor(options: TJobsOptions, kinds: TJobKind[]): PgBoss {
  const working = kinds.some((kind) => options.works(kind.name));
  const connection = options.database.engine;
  return new PgBoss({
    schema: JOBS_SCHEMA,
    ...('pglite' in connection
      ? { backend: 'pglite' as const, db: fromPglite(connection.pglite) }
      : { connectionString: connection.connectionString, max: 4 }),
    // Workers are woken by NOTIFY when a job is queued; polling stays as the floor.
    useListenNotify: working,
    schedule: working,
    supervise: working,
    // A job whose process died is found by its stale heartbeat (JOB_HEARTBEAT_SECONDS) at the
    // next supervision, and retried by another process: within 30 s (docs/jobs.md "A process
    // that dies").
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    monitorIntervalSeconds: SUPERVISE_SECONDS,
    // Its spans would make a trace of every poll and periodic run of an idle server: a job is
    // traced by handle() instead, in the trace of the request that queued it.
    openTelemetry: { enabled: false },
  });
}

/** The kind named `name`; an unknown one is an error of the caller. */
function kindOf(core: TEngineCore, name: string): TJobKind {
  const kind = core.kinds.get(name);
  if (!kind) throw new Error(`No job kind '${name}'`);
  return kind;
}

/**
 * Starts the engine: its schema and queues (one start after another on one PGlite), then the
 * workers and schedules of the kinds this process works on. A failure is kept for readiness.
 */
async function startEngine(core: TEngineCore): Promise<void> {
  core.state = 'starting';
  try {
    const connection = core.options.database.engine;
    const pglite = 'pglite' in connection ? connection.pglite : null;
    const before = (pglite && startsOnPglite.get(pglite)) ?? Promise.resolve();
    const made = before.catch(() => undefined).then(() => makeSchemaAndQueues(core));
    if (pglite) startsOnPglite.set(pglite, made);
    await made;
    for (const kind of core.kinds.values()) {
      if (core.options.works(kind.name)) await workAndSchedule(core, kind);
    }
    core.state = 'started';
  } catch (error) {
    core.state = 'failed';
    core.failure = messageOf(error);
    throw error;
  }
}

/** Stops pg-boss, letting the jobs it runs finish (10 s at most); once only. */
async function stopEngine(core: TEngineCore): Promise<void> {
  if (core.state === 'stopped') return;
  core.state = 'stopped';
  await core.boss.stop({ graceful: true, close: true, timeout: 10_000 });
}

/** A worked kind's workers; a periodic one also runs at start and has its backstop schedule. */
async function workAndSchedule(core: TEngineCore, kind: TJobKind): Promise<void> {
  await workOn(core, kind);
  if (kind.everyMs === undefined) return;
  // At start: what a process that stopped (or crashed) left is taken up now.
  await core.boss.send(kind.name, {});
  // A backstop: a run every minute, should the chain of runs break.
  if (kind.everyMs > 0) await core.boss.schedule(kind.name, '* * * * *', {});
}

/** Whether the engine started and answers; the reason when it does not. */
async function readinessOf(
  core: TEngineCore,
): Promise<{ ready: true } | { ready: false; reason: string }> {
  if (core.state !== 'started') {
    return {
      ready: false,
      reason:
        core.state === 'failed'
          ? `the job engine did not start: ${core.failure}`
          : `the job engine is ${core.state}`,
    };
  }
  try {
    await core.boss.getQueue(core.kinds.keys().next().value ?? 'none');
    return { ready: true };
  } catch (error) {
    return { ready: false, reason: `the job engine does not answer: ${messageOf(error)}` };
  }
}

/**
 * Queues a job of `kind` on `tx`, the transaction of the change that calls for it, carrying the
 * trace context of the request queuing it (nothing secret): the job's span continues it.
 */
async function enqueueOn(
  core: TEngineCore,
  tx: TDb,
  kind: string,
  data: object,
  enqueueOptions: TEnqueueOptions = {},
): Promise<string | null> {
  kindOf(core, kind);
  return core.boss.send(kind, withTraceContext(data), {
    db: fromDrizzle(tx as never, sql as never),
    ...(enqueueOptions.id ? { id: enqueueOptions.id } : {}),
    ...(enqueueOptions.startAfter ? { startAfter: enqueueOptions.startAfter } : {}),
    ...(enqueueOptions.singletonKey ? { singletonKey: enqueueOptions.singletonKey } : {}),
  });
}

/** Runs every job of `names` (all kinds when absent) that may run now, until none is left. */
async function drainKinds(core: TEngineCore, names?: string[]): Promise<number> {
  const chosen = (names ?? [...core.kinds.keys()]).map((name) => kindOf(core, name));
  let total = 0;
  for (;;) {
    let ran = 0;
    for (const kind of chosen) {
      const jobs = await core.boss.fetch<object>(kind.name, { batchSize: 20 });
      await keptAlive(core, kind.name, jobs, async () => {
        for (const job of jobs) {
          ran += 1;
          await runFetched(core, kind, job).catch(() => undefined);
        }
      });
    }
    if (ran === 0) return total;
    total += ran;
  }
}

/**
 * Runs `work` on jobs fetched by hand (not through pg-boss's work(), which keeps its jobs' heartbeat
 * itself), touching their heartbeat every half JOB_HEARTBEAT_SECONDS meanwhile: else a batch that
 * runs past it is taken for a dead process's and run again elsewhere while it still runs here.
 */
async function keptAlive<T>(
  core: TEngineCore,
  name: string,
  jobs: Job<object>[],
  work: () => Promise<T>,
): Promise<T> {
  if (jobs.length === 0) return work();
  const ids = jobs.map((job) => job.id);
  // A beat that fails is tried again at the next (two a heartbeat), and told, as any failure:
  // two in a row and another process may take the jobs for a dead one's.
  const beat = setInterval(
    () =>
      void core.boss.touch(name, ids).catch((error: unknown) => core.options.onError(error, name)),
    (JOB_HEARTBEAT_SECONDS * 1000) / 2,
  );
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}

/** Runs the waiting jobs of `name` here when this process works on it, then waits for `ids`. */
async function nudgeKind(core: TEngineCore, name: string, ids: string[] = []): Promise<void> {
  if (core.state !== 'started' || !core.options.works(name)) return;
  try {
    await drainKinds(core, [name]);
    await triedOrLate(core.boss, name, ids);
  } catch (error) {
    core.options.onError(error, name);
  }
}

/** Queues one run of a kind and runs it here now; answers what its handler answered. */
async function runOneNow(core: TEngineCore, name: string, data: object = {}): Promise<unknown> {
  const kind = kindOf(core, name);
  // A periodic kind's queue holds one waiting run: this one, or the one waiting already.
  await core.boss.send(kind.name, data);
  const [job] = await core.boss.fetch<object>(kind.name, { batchSize: 1 });
  // Another process (or call) took the waiting run: this one runs here all the same, as
  // every kind's work claims its rows in one statement each, and two runs share them.
  if (!job) return kind.run(data);
  return keptAlive(core, kind.name, [job], () => runFetched(core, kind, job));
}

/** A periodic kind's next run, `everyMs` from now (one waits at a time: 'short' policy). */
async function queueNext(core: TEngineCore, kind: TJobKind): Promise<void> {
  if (!kind.everyMs || !core.options.works(kind.name)) return;
  const startAfter = Math.max(1, Math.round(kind.everyMs / 1_000));
  await core.boss.send(kind.name, {}, { startAfter });
}

/** Runs a job's kind on its data, in a span of the trace that queued it (if a request did). */
async function handle(core: TEngineCore, kind: TJobKind, job: Job<object>): Promise<unknown> {
  const { carrier, data } = traceContextOf(job.data);
  const attributes = { 'messaging.destination.name': kind.name, 'messaging.message.id': job.id };
  try {
    return await inJobSpan(carrier, `job ${kind.name}`, attributes, () => kind.run(data));
  } finally {
    if (kind.everyMs) {
      await queueNext(core, kind).catch((error: unknown) => core.options.onError(error, kind.name));
    }
  }
}

/**
 * Runs one fetched job here and settles it: completed with its output, or failed (retried) and
 * moved to the retry lane. A job failed for the last time is dead-lettered instead, and the move
 * finds it no more.
 */
async function runFetched(core: TEngineCore, kind: TJobKind, job: Job<object>): Promise<unknown> {
  const { boss, options } = core;
  const startedAt = performance.now();
  const ran = (outcome: TJobRun['outcome']) =>
    options.onRun?.({
      kind: kind.name,
      outcome,
      seconds: (performance.now() - startedAt) / 1000,
    });
  let output: unknown;
  try {
    output = await handle(core, kind, job);
  } catch (error) {
    ran('error');
    options.onError(error, kind.name);
    if (error instanceof JobRefused) {
      // Its data goes on to the dead letters as pg-boss moves a job that used every retry.
      await boss.send(deadLetterOf(kind.name), job.data);
      await boss.complete(kind.name, job.id, { refused: error.message });
    } else {
      await boss.fail(kind.name, job.id, { message: messageOf(error) });
      await boss.update(kind.name, undefined, { id: job.id, priority: RETRY_PRIORITY });
    }
    throw error;
  }
  ran('ok');
  await boss.complete(kind.name, job.id, outputOf(output));
  return output;
}

/**
 * The workers of a kind: one for a periodic kind (its queue holds one waiting run); for a kind
 * of jobs queued one per change, one for its new jobs and one for its retries. Each fetch's jobs
 * run and settle here in turn; one failing stops no other.
 */
async function workOn(core: TEngineCore, kind: TJobKind): Promise<void> {
  const runBatch = async (jobs: Job<object>[]) => {
    for (const job of jobs) await runFetched(core, kind, job).catch(() => undefined);
    return null;
  };
  const work = (lane: { minPriority?: number; maxPriority?: number }) =>
    core.boss.work<object>(
      kind.name,
      { ...POLLING, ...lane, batchSize: JOBS_PER_FETCH, burstWhenBatchFull: true },
      runBatch,
    );
  if (kind.everyMs !== undefined) {
    await work({});
    return;
  }
  await work({ minPriority: FRESH_PRIORITY });
  await work({ maxPriority: RETRY_PRIORITY });
}

/**
 * Resolves once no job of `ids` waits or runs any more (it was tried: completed, or failed and
 * waiting for its retry), or NUDGE_WAIT_MS after the call. drain() ran every waiting one here;
 * one still running was taken first by a worker, of this process or another.
 */
async function triedOrLate(boss: PgBoss, name: string, ids: string[]): Promise<void> {
  const late = performance.now() + NUDGE_WAIT_MS;
  for (const id of ids) {
    for (;;) {
      const [job] = await boss.findJobs(name, { id });
      if (!job || (job.state !== 'created' && job.state !== 'active')) break;
      if (performance.now() >= late) return;
      await new Promise((resolve) => setTimeout(resolve, NUDGE_POLL_MS));
    }
  }
}

/**
 * pg-boss's schema (made or migrated by pg-boss) and one queue per kind, with its dead letter.
 * The queues are read once: only a missing one is created, and only one whose options are not
 * the kind's any more is updated. A database that has them all (every start after the first,
 * and one opened from the PGlite template, which holds them) is asked one statement, not three
 * per kind.
 */
async function makeSchemaAndQueues({ boss, kinds, options }: TEngineCore): Promise<void> {
  await boss.start();
  const existing = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
  for (const name of options.retired ?? []) {
    if (existing.has(name)) await boss.deleteQueue(name);
    if (existing.has(deadLetterOf(name))) await boss.deleteQueue(deadLetterOf(name));
  }
  for (const kind of kinds.values()) {
    const queue = queueOptionsOf(kind);
    if (!existing.has(queue.deadLetter)) {
      await boss.createQueue(queue.deadLetter, { retryLimit: 0 });
    }
    const found = existing.get(kind.name);
    if (!found) {
      await boss.createQueue(kind.name, {
        ...queue,
        policy: kind.everyMs === undefined ? 'standard' : 'short',
        notify: true,
      });
    } else if (queueOptionsDiffer(found, queue)) {
      await boss.updateQueue(kind.name, queue);
    }
  }
}

/**
 * How long a running job may go without its process's word before it counts as dead: the worker
 * refreshes it every half of this (pg-boss's heartbeat); 10 s is pg-boss's least.
 */
export const JOB_HEARTBEAT_SECONDS = 10;

/** How often a working process looks for jobs whose heartbeat went stale, and expired ones. */
const SUPERVISE_SECONDS = 5;

/** A kind's queue options: its retry policy, expiry, heartbeat and dead letter. */
const queueOptionsOf = (kind: TJobKind): TQueueOptions => ({
  retryLimit: kind.retry.limit,
  retryDelay: kind.retry.delaySeconds,
  retryBackoff: true,
  retryDelayMax: kind.retry.maxDelaySeconds,
  expireInSeconds: kind.expireSeconds ?? 300,
  heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
  deadLetter: deadLetterOf(kind.name),
});

/**
 * Per kind: its jobs by state (with the dead-letter queue's as 'dead') and how long the oldest
 * job that may run now has waited. One statement over the engine's job table.
 */
async function jobBacklog(boss: PgBoss, kinds: string[]): Promise<TKindBacklog[]> {
  const names = [...kinds, ...kinds.map(deadLetterOf)];
  const { rows } = await boss.getDb().executeSql(
    `SELECT name, state::text AS state, count(*)::int AS count,
            extract(epoch FROM now() - min(start_after) FILTER (
              WHERE state IN ('created', 'retry') AND start_after <= now()))::float8 AS oldest
     FROM ${JOBS_SCHEMA}.job WHERE name = ANY($1::text[]) GROUP BY name, state`,
    [names],
  );
  return kinds.map((kind) => {
    const states = { created: 0, retry: 0, active: 0, completed: 0, failed: 0, dead: 0 };
    let oldest: number | null = null;
    for (const row of rows as { name: string; state: string; count: number; oldest: number }[]) {
      if (row.name === deadLetterOf(kind)) {
        if (row.state === 'created' || row.state === 'retry') states.dead += row.count;
        continue;
      }
      if (row.name !== kind) continue;
      if (row.state in states) states[row.state as keyof typeof states] += row.count;
      if (row.oldest !== null) oldest = Math.max(oldest ?? 0, row.oldest);
    }
    return { kind, states, oldestWaitingSeconds: oldest === null ? null : Math.round(oldest) };
  });
}

/** Whether a queue's stored options differ from those its kind asks (what updateQueue sets). */
function queueOptionsDiffer(
  found: Partial<Record<keyof TQueueOptions, unknown>>,
  wanted: TQueueOptions,
): boolean {
  return (Object.keys(wanted) as (keyof TQueueOptions)[]).some(
    (option) => found[option] !== wanted[option],
  );
}

type TQueueOptions = {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  retryDelayMax: number;
  expireInSeconds: number;
  heartbeatSeconds: number;
  deadLetter: string;
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What pg-boss keeps of a run's answer: an object (a bare number is wrapped). */
const outputOf = (output: unknown): object | null =>
  output === undefined || output === null
    ? null
    : typeof output === 'object'
      ? output
      : { value: output };

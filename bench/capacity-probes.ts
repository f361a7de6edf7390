// What bench/capacity.ts reads of the deployment around each step, without asking the server to
// count anything for it: CPU time from /proc (the server process; PostgreSQL's processes), the
// statements PostgreSQL ran (pg_stat_statements when it is loaded, else the transactions of
// pg_stat_database), and what the server itself publishes: GET /metrics (event-loop delay, the
// pool's waiting requests) and GET /api/health/ready (the job engine's backlog).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import type { TReadyResponse } from '../src/domain/schemas/health';

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on Linux as built). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user and system, every thread), in ms; null once it is gone. */
export function cpuMsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name (which may hold spaces) in parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1_000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The PostgreSQL server's process titles this bench counts as its own work. */
const SHARED_POSTGRES_WORKERS = ['checkpointer', 'background writer', 'walwriter'];

/**
 * PostgreSQL's processes that work for the bench: the backends (and autovacuum workers) whose
 * process title names its database, and the writers every database shares (the checkpointer,
 * the background writer, the WAL writer). Their titles are readable in /proc by anyone.
 */
function postgresPids(databaseName: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let title: string;
    try {
      title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    if (!title.startsWith('postgres: ')) continue;
    const ours = title.split(/\s+/).includes(databaseName);
    if (ours || SHARED_POSTGRES_WORKERS.some((name) => title.includes(`: ${name}`))) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

/**
 * PostgreSQL's CPU for the bench's database. Backends come and go (the pool closes idle
 * connections), so `sample()` is called every second: a backend gone before the step's end keeps
 * the time it had at its last sample.
 */
export function postgresCpu(databaseName: string) {
  const last = new Map<number, number>();
  let base = new Map<number, number>();
  const sample = () => {
    for (const pid of postgresPids(databaseName)) {
      const ms = cpuMsOf(pid);
      if (ms !== null) last.set(pid, ms);
    }
  };
  return {
    sample,
    /** Begins a step: what each process had used so far. */
    begin() {
      sample();
      base = new Map(last);
    },
    /** CPU ms since `begin()`, of every process seen since. */
    sinceBegin(): number {
      sample();
      let total = 0;
      for (const [pid, ms] of last) total += ms - (base.get(pid) ?? 0);
      return total;
    },
  };
}

/**
 * How many statements PostgreSQL ran on the bench's database. With pg_stat_statements loaded
 * (shared_preload_libraries), its calls; without it (CREATE EXTENSION succeeds, the view then
 * refuses), the transactions pg_stat_database counts: each statement outside a transaction is
 * one, a transaction of several statements is one. A backend publishes its counts when it goes
 * idle, at most once a second: read them a second or more after the load stopped.
 */
export async function statementCounter(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let what: 'statements' | 'transactions';
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select 1 from pg_stat_statements limit 1');
    what = 'statements';
  } catch {
    what = 'transactions';
  }
  const query =
    what === 'statements'
      ? `select coalesce(sum(calls), 0)::bigint as n from pg_stat_statements
           where dbid = (select oid from pg_database where datname = current_database())`
      : `select (xact_commit + xact_rollback)::bigint as n from pg_stat_database
           where datname = current_database()`;
  return {
    what,
    async count(): Promise<number> {
      const { rows } = await client.query<{ n: string }>(query);
      return Number(rows[0]?.n ?? 0);
    },
    close: () => client.end(),
  };
}

export type TServerSample = {
  /** The event loop's delay p99 since the previous scrape (prom-client resets it at each). */
  loopP99Ms: number | null;
  /** Requests waiting for a pool connection now (PostgreSQL); null when not published. */
  poolWaiting: number | null;
  /** Jobs waiting to run or to be tried again, every kind (some may be due later). */
  jobsQueued: number;
  /** Seconds the oldest of them whose time came has waited. */
  jobLagSeconds: number;
  /** Kinds with a job whose time came still waiting: 0 once the queue caught up. */
  kindsBehind: number;
};

/** A metric's value in Prometheus's text format, by its name and labels as written. */
function metricValue(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1).split(' ')[0]) : null;
}

/** One scrape of GET /metrics and one read of GET /api/health/ready. */
export async function sampleServer(base: string, metricsToken: string): Promise<TServerSample> {
  const [metrics, ready] = await Promise.all([
    fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then(
      (answer) => answer.text(),
    ),
    fetch(`${base}/api/health/ready`).then((answer) => answer.json() as Promise<TReadyResponse>),
  ]);
  const loop = metricValue(metrics, 'nodejs_eventloop_lag_p99_seconds');
  const jobs = ready.jobs ?? [];
  return {
    loopP99Ms: loop === null ? null : loop * 1_000,
    poolWaiting: metricValue(metrics, 'oya_db_pool_connections{state="waiting"}'),
    jobsQueued: jobs.reduce((sum, job) => sum + job.waiting + job.retrying, 0),
    jobLagSeconds: Math.max(0, ...jobs.map((job) => job.oldestWaitingSeconds ?? 0)),
    kindsBehind: jobs.filter((job) => job.oldestWaitingSeconds !== null).length,
  };
}

/** How many statements `roundTripCost` times. */
const ROUND_TRIPS = 5_000;

/**
 * What one statement's round trip costs on this machine before any work in it: a node-postgres
 * client (the server's driver) runs ROUND_TRIPS of a prepared `SELECT $1` one after another; its
 * own CPU (the driver, the socket's system calls) and its PostgreSQL backend's, in µs each. A
 * payment's statements cost at least this many times their count, whatever the code around them.
 */
export async function roundTripCost(
  databaseUrl: string,
): Promise<{ clientUs: number; postgresUs: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const backend = rows[0]?.pid ?? 0;
    const run = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        await client.query({ name: 'round_trip', text: 'select $1::int as n', values: [i] });
      }
    };
    await run(ROUND_TRIPS / 5); // warm: the statement prepared, the code compiled
    const clientBefore = process.cpuUsage();
    const backendBefore = cpuMsOf(backend) ?? 0;
    await run(ROUND_TRIPS);
    const used = process.cpuUsage(clientBefore);
    const backendMs = (cpuMsOf(backend) ?? 0) - backendBefore;
    return {
      clientUs: (used.user + used.system) / ROUND_TRIPS,
      postgresUs: (backendMs * 1_000) / ROUND_TRIPS,
    };
  } finally {
    await client.end();
  }
}

// The cost of one routing decision (docs/routing.md): `route()` of the recorded provider health
// for a capability of two providers, one of them eliminated, and `record()` of one call's
// outcome, against a bare `select 1` on the same database as the ratio's yardstick. On PGlite
// (in memory), and on PostgreSQL when one answers (BENCH_DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/test: a fresh database is made beside it and dropped).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { DEFAULT_ROUTING_SETTINGS } from '../src/domain/provider-routing';
import { systemClock } from '../src/server/clock';
import { openDatabase, type TDatabase } from '../src/server/db/database';
import { recordedHealth } from '../src/server/providers/routing/recorded-health';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.RUNS ?? 2_000);
const CANDIDATES = ['paystack', 'monnify'];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? 0;

async function timed(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

async function measure(label: string, database: TDatabase): Promise<void> {
  const health = recordedHealth({
    db: database.db,
    clock: systemClock,
    settings: DEFAULT_ROUTING_SETTINGS,
  });
  // Paystack eliminated (five timeouts), Monnify healthy: the route passes one over.
  for (let index = 0; index < 5; index += 1) {
    await health.record({
      capability: 'transfersIn',
      provider: 'paystack',
      health: 'failed',
      latencyMs: 30_000,
      noAnswer: true,
    });
  }
  await health.record({
    capability: 'transfersIn',
    provider: 'monnify',
    health: 'answered',
    latencyMs: 120,
  });
  const scope = { capability: 'transfersIn' } as const;
  await timed(200, () => health.route(scope, CANDIDATES));
  const select = await timed(RUNS, () => database.db.execute(sql`select 1`));
  const route = await timed(RUNS, () => health.route(scope, CANDIDATES));
  const record = await timed(RUNS, () =>
    health.record({
      capability: 'transfersIn',
      provider: 'monnify',
      health: 'answered',
      latencyMs: 120,
    }),
  );
  const line = (name: string, times: number[]) =>
    `  ${name.padEnd(25)} median ${median(times).toFixed(3)} ms  p95 ${p95(times).toFixed(3)} ms  ` +
    `(${(median(times) / median(select)).toFixed(1)}× select 1)`;
  console.log(`${label}, ${RUNS} runs each`);
  console.log(line('select 1', select));
  console.log(line('route() (1 passed over)', route));
  console.log(line('record() (one upsert)', record));
}

async function onPostgres(): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await admin.connect();
  } catch {
    console.log(`PostgreSQL: none answers at ${POSTGRES_URL}, skipped`);
    return;
  }
  const name = `bench_routing_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  try {
    await measure('PostgreSQL', database);
  } finally {
    await database.close();
    await admin.query(`drop database ${name}`);
    await admin.end();
  }
}

const pglite = await openDatabase({ kind: 'pglite' });
await measure('PGlite (in memory)', pglite);
await pglite.close();
await onPostgres();

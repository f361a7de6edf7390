// How many payments a second one server process takes while its payers wait no more than a
// second (p95), measured the way payers arrive: an open loop, a new payer every 1/rate seconds
// whatever the others are doing (bench/README.md, "Capacity").
//
// Run: `npm run bench:capacity` (builds, then runs this file; `npx tsx bench/capacity.ts` runs it
// on the build there is). It starts the build (`node dist/server/main.mjs`, capacity-stack.ts) on
// PostgreSQL with Redis (127.0.0.1:5432 trust auth, or BENCH_DATABASE_URL; REDIS_URL or
// 127.0.0.1:6379; bench/processes.ts says how to install them), or with BENCH_DB=pglite on PGlite
// alone; forks the payers (capacity-payers.ts), who pay by card with a PIN, by card with an OTP, by
// transfer, by OneTap from a saved account and by a merchant's collection, in turn (FLOWS=card_pin,…
// pays only the flows it names: what one way of paying costs).
//
// The search: RATE payers a second first (default 2), each step SECONDS long (default 60), then
// STEP times more (default 1.5) while a step passes; a step passes when its p95 is at most 1 s and
// no more than 1% of its payments failed. After the first step that fails, REFINE steps (default
// 2) halve the gap between the best pass and the lowest failure. A first step that fails is
// halved until one passes. Before the first step, WARMUP seconds (default 10) at RATE, not
// reported. MAX_RATE (default 100) ends the climb. BENCH_PORT fixes the server's port.
//
// Per step one line (capacity-report.ts), then the last line, exactly:
//   CAPACITY <payments/s> at p95 <ms> (<postgresql|pglite>, 1 process)
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import {
  cpuMsOf,
  postgresCpu,
  roundTripCost,
  sampleServer,
  statementCounter,
  type TServerSample,
} from './capacity-probes';
import {
  ceiling,
  details,
  header,
  line,
  stepRow,
  type TStepReadings,
  type TStepRow,
} from './capacity-report';
import { startCapacityStack, type TCapacityStack, type TDatabaseKind } from './capacity-stack';
import type { TPayersRequest, TStepAnswer } from './capacity-payers';
import { RUN_FLOWS, SIGNED_IN_FLOWS } from './capacity-flows';
import type { TMerchant } from './processes-mix';

const KIND: TDatabaseKind = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgresql';
const FIRST_RATE = Number(process.env.RATE ?? 2);
const SECONDS = Number(process.env.SECONDS ?? 60);
const STEP = Number(process.env.STEP ?? 1.5);
const REFINE = Number(process.env.REFINE ?? 2);
const MAX_RATE = Number(process.env.MAX_RATE ?? 100);
const WARMUP_SECONDS = Number(process.env.WARMUP ?? 10);
/** The target: a payer waits at most this long, 95 times in 100. */
const P95_LIMIT_MS = 1_000;
/** A step with more of its payments failed does not pass, whatever its times. */
const ERROR_SHARE_LIMIT = 0.01;
/** The lowest rate a failing first step is halved to. */
const MIN_RATE = 0.25;
/** Signed-in payers ready for this many seconds of arrivals: a payment longer runs out of them. */
const POOL_SECONDS = 5;
/** How often /metrics and /api/health/ready are read during a step. */
const SCRAPE_EVERY_MS = 5_000;
/** How long the job queue may take to empty after a step before the next one begins. */
const DRAIN_LIMIT_MS = 60_000;
/** Idle CPU is read over this long before the first step. */
const IDLE_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
/** A rate of two significant digits: 2, 3, 4.5, 6.8, 10, 15… */
const rounded = (rate: number) => Number(rate.toPrecision(2));

/** A merchant's API client, made by `scripts/client.ts` as an operator makes one. */
function createMerchant(stack: TCapacityStack): TMerchant {
  const env: Record<string, string | undefined> = { ...process.env, ...stack.clientEnv };
  if (!stack.databaseUrl) delete env.DATABASE_URL;
  const made = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/client.ts', 'create', '--name', 'Capacity Stores'],
    { env, encoding: 'utf8' },
  );
  const field = (name: string) => new RegExp(`^${name}:\\s+(\\S+)$`, 'm').exec(made.stdout)?.[1];
  const clientId = field('clientId');
  const secret = field('secret');
  if (made.status !== 0 || !clientId || !secret) {
    throw new Error(`client:create failed: ${made.stdout}${made.stderr}`);
  }
  return {
    clientId,
    authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
  };
}

/** The payers' process, and one request to it answered. */
function forkPayers(stack: TCapacityStack, merchant: TMerchant) {
  const child: ChildProcess = fork('bench/capacity-payers.ts', [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      CAPACITY_PAYERS: JSON.stringify({ base: stack.base, origin: stack.origin, merchant }),
    },
  });
  const ask = <T>(request: TPayersRequest) =>
    new Promise<T>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the payers exited (${code})`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        resolve(message as T);
      });
      child.send(request);
    });
  return {
    ask,
    stop: () => {
      if (child.connected) child.send({ type: 'stop' } satisfies TPayersRequest);
    },
  };
}

/** Resolves once no job whose time came waits, or DRAIN_LIMIT_MS passed. */
async function drained(stack: TCapacityStack): Promise<void> {
  const until = Date.now() + DRAIN_LIMIT_MS;
  while (Date.now() < until) {
    const sample = await sampleServer(stack.base, stack.metricsToken);
    if (sample.kindsBehind === 0) return;
    await sleep(250);
  }
}

/** The worst of the samples read during a step; jobs beyond the `idleJobs` always waiting. */
function worstOf(samples: TServerSample[], idleJobs: number) {
  const most = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    return known.length > 0 ? Math.max(...known) : null;
  };
  return {
    loopP99Ms: most(samples.map((s) => s.loopP99Ms)),
    poolWaiting: most(samples.map((s) => s.poolWaiting)),
    jobsQueued: Math.max(0, (most(samples.map((s) => s.jobsQueued)) ?? 0) - idleJobs),
    jobLagSeconds: most(samples.map((s) => s.jobLagSeconds)) ?? 0,
  };
}

type TProbes = {
  stack: TCapacityStack;
  /** Jobs waiting while idle: each periodic kind's next run. A step's count is beyond these. */
  idleJobs: number;
  postgres: ReturnType<typeof postgresCpu> | null;
  statements: Awaited<ReturnType<typeof statementCounter>> | null;
};

/**
 * Reads the deployment while `load` runs: CPU and statements from its start to the moment the
 * jobs it queued have run (and a second more, for PostgreSQL to publish its counts), the server's
 * own figures every SCRAPE_EVERY_MS.
 */
async function measured<T>(
  probes: TProbes,
  load: () => Promise<T>,
): Promise<{ value: T; readings: Omit<TStepReadings, 'payersCpuMs'> }> {
  const { stack, postgres, statements } = probes;
  await sampleServer(stack.base, stack.metricsToken); // resets the event-loop histogram
  const statementsBefore = (await statements?.count()) ?? null;
  postgres?.begin();
  const serverBefore = cpuMsOf(stack.pid) ?? 0;
  const samples: TServerSample[] = [];
  const everySecond = setInterval(() => postgres?.sample(), 1_000);
  const scrapes = setInterval(() => {
    void sampleServer(stack.base, stack.metricsToken).then((s) => samples.push(s));
  }, SCRAPE_EVERY_MS);
  let value: T;
  try {
    value = await load();
    samples.push(await sampleServer(stack.base, stack.metricsToken));
  } finally {
    clearInterval(scrapes);
  }
  await drained(stack);
  await sleep(1_500);
  clearInterval(everySecond);
  const statementsAfter = (await statements?.count()) ?? null;
  return {
    value,
    readings: {
      serverCpuMs: (cpuMsOf(stack.pid) ?? 0) - serverBefore,
      postgresCpuMs: postgres ? postgres.sinceBegin() : null,
      statements:
        statementsAfter === null || statementsBefore === null
          ? null
          : statementsAfter - statementsBefore,
      ...worstOf(samples, probes.idleJobs),
    },
  };
}

/** The server's and PostgreSQL's CPU while nothing is asked of them, in ms per second. */
async function idleCpu(probes: TProbes): Promise<string> {
  const server = cpuMsOf(probes.stack.pid) ?? 0;
  probes.postgres?.begin();
  await sleep(IDLE_MS);
  probes.idleJobs = (await sampleServer(probes.stack.base, probes.stack.metricsToken)).jobsQueued;
  const perSecond = (ms: number) => ((ms * 1_000) / IDLE_MS).toFixed(1);
  const serverIdle = perSecond((cpuMsOf(probes.stack.pid) ?? 0) - server);
  const postgresIdle = probes.postgres ? perSecond(probes.postgres.sinceBegin()) : null;
  const postgresPart = postgresIdle === null ? '' : `, PostgreSQL ${postgresIdle} ms/s`;
  return `server ${serverIdle} ms/s${postgresPart} of CPU; ${probes.idleJobs} jobs waiting (periodic kinds' next runs)`;
}

/** Whether a step holds the target: p95 within the limit, few payments failed. */
const passes = (row: TStepRow) =>
  row.executed > 0 && row.p95 <= P95_LIMIT_MS && row.errors <= row.arrivals * ERROR_SHARE_LIMIT;

/** Signed-in payers for POOL_SECONDS of arrivals at `rate`. */
const poolFor = (rate: number) =>
  Math.ceil(
    (rate * POOL_SECONDS * RUN_FLOWS.filter((flow) => SIGNED_IN_FLOWS.includes(flow)).length) /
      RUN_FLOWS.length,
  ) + 2;

async function main(): Promise<void> {
  console.log(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average before the run ${load()}`,
  );
  const stack = await startCapacityStack(KIND);
  const statements = stack.databaseUrl ? await statementCounter(stack.databaseUrl) : null;
  const probes: TProbes = {
    stack,
    idleJobs: 0,
    postgres: stack.databaseName ? postgresCpu(stack.databaseName) : null,
    statements,
  };
  const payers = forkPayers(stack, createMerchant(stack));
  try {
    await search(probes, payers.ask);
  } catch (error) {
    console.error(error);
    console.error(stack.tail());
    process.exitCode = 1;
  } finally {
    payers.stop();
    await statements?.close();
    await stack.close();
    console.log(`Load average at the end: ${load()}`);
  }
}

type TAsk = ReturnType<typeof forkPayers>['ask'];

/** One step at `rate`: the payers' pool made ready, the step run and read, its row printed. */
async function step(probes: TProbes, ask: TAsk, rate: number, seconds = SECONDS) {
  await ask({ type: 'pool', size: poolFor(rate) });
  await drained(probes.stack);
  const { value, readings } = await measured(probes, () =>
    ask<TStepAnswer>({ type: 'step', rate, seconds }),
  );
  return stepRow(rate, value.results, { ...readings, payersCpuMs: value.cpuMs });
}

async function search(probes: TProbes, ask: TAsk): Promise<void> {
  const db = KIND === 'postgresql' ? 'PostgreSQL with Redis' : 'PGlite';
  console.log(
    `One server process of the build on ${db}; payers from a forked process, in turn: ${RUN_FLOWS.join(', ')}`,
  );
  if (probes.statements) {
    console.log(
      `Statements counted: ${probes.statements.what === 'statements' ? 'pg_stat_statements calls' : 'transactions of pg_stat_database (pg_stat_statements is not loaded)'}`,
    );
  }
  console.log(`Idle: ${await idleCpu(probes)}`);
  const trip = probes.stack.databaseUrl ? await roundTripCost(probes.stack.databaseUrl) : null;
  if (trip) {
    console.log(
      `A statement's round trip with no work in it: ${trip.clientUs.toFixed(0)} µs of the client's CPU, ${trip.postgresUs.toFixed(0)} µs of PostgreSQL's`,
    );
  }
  if (WARMUP_SECONDS > 0) {
    const warm = await step(probes, ask, FIRST_RATE, WARMUP_SECONDS);
    console.log(
      `Warm-up: ${warm.arrivals} payments at ${FIRST_RATE}/s, p95 ${warm.p95.toFixed(0)} ms, ${warm.errors} errors (not counted)`,
    );
  }
  console.log(`\nSteps of ${SECONDS} s; a step passes at p95 ≤ ${P95_LIMIT_MS} ms and ≤ 1% errors`);
  console.log(header(probes.statements?.what ?? null));
  const measure = async (rate: number) => {
    const row = await step(probes, ask, rate);
    console.log(line(row));
    for (const detail of details(row)) console.log(detail);
    return row;
  };
  const { best, lowest } = await climb(measure);
  const p95 = best ? best.p95 : (lowest?.p95 ?? NaN);
  const costed = best ?? lowest;
  if (costed) {
    const tripUs = trip ? trip.clientUs + trip.postgresUs : null;
    console.log(ceiling(costed, cpus().length, tripUs));
  }
  console.log(
    `CAPACITY ${best ? best.offered : 0} at p95 ${Number.isFinite(p95) ? p95.toFixed(0) : '-'} (${KIND}, 1 process)`,
  );
}

/**
 * The step search: up by STEP while steps pass, then REFINE halvings of the gap; a failing first
 * step is halved until one passes. Answers the best passing step and the lowest-rate one.
 */
async function climb(measure: (rate: number) => Promise<TStepRow>) {
  let best: TStepRow | null = null;
  let lowest: TStepRow | null = null;
  let failedAt = Infinity;
  const run = async (rate: number) => {
    const row = await measure(rate);
    if (!lowest || rate < lowest.offered) lowest = row;
    if (passes(row)) best = !best || rate > best.offered ? row : best;
    else failedAt = Math.min(failedAt, rate);
    return passes(row);
  };
  for (let rate = FIRST_RATE; rate <= MAX_RATE; rate = rounded(rate * STEP)) {
    if (!(await run(rate))) break;
  }
  for (let rate = rounded(FIRST_RATE / 2); !best && rate >= MIN_RATE; rate = rounded(rate / 2)) {
    await run(rate);
  }
  for (let i = 0; i < REFINE && best && Number.isFinite(failedAt); i += 1) {
    const from: number = (best as TStepRow).offered;
    const mid = rounded((from + failedAt) / 2);
    if (mid <= from || mid >= failedAt) break;
    await run(mid);
  }
  return { best: best as TStepRow | null, lowest: lowest as TStepRow | null };
}

await main();

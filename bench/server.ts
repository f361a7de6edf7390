// Throughput of the consent read and of consent creation against a bare Fastify JSON route,
// measured in one run (issue 8): bench/server-target.ts serves all three from one process, and
// autocannon loads one at a time, alternating, so the ratios hold whatever the machine's speed.
// On PGlite, and on PostgreSQL when one answers on 127.0.0.1:5432 (or BENCH_DATABASE_URL).
// Run: `npm run bench:server` (ROUNDS, SECONDS and CONNECTIONS change the run).
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

type TTarget = {
  barePort: number;
  appPort: number;
  consentId: string;
  clientId: string;
  authorization: string;
  database: string;
};

/** Starts the target process and waits for its line of ports. */
async function startTarget(databaseUrl: string | undefined) {
  // Node itself, not npx: the SIGTERM below must reach the process that serves.
  const child = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir>: the target writes a V8 CPU profile there when it stops.
      ...(process.env.BENCH_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : []),
      '--import',
      'tsx',
      '--import',
      './scripts/style-imports.ts',
      'bench/server-target.ts',
    ],
    {
      env: { ...process.env, ...(databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : {}) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const target = await new Promise<TTarget>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as TTarget);
    });
    child.on('exit', (code) => reject(new Error(`the bench target exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    target,
    stop: async () => {
      lines.close();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function requestsPerSecond(options: autocannon.Options): Promise<number> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  const failed = result.non2xx + result.errors;
  if (failed > 0) throw new Error(`${options.url}: ${failed} requests failed`);
  return result.requests.average;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function benchOne(databaseUrl: string | undefined) {
  const { target, stop } = await startTarget(databaseUrl);
  try {
    const kinds = {
      bare: { url: `http://127.0.0.1:${target.barePort}/bare` },
      read: {
        url: `http://127.0.0.1:${target.appPort}/api/consent/${target.consentId}?clientId=${target.clientId}`,
      },
      create: {
        url: `http://127.0.0.1:${target.appPort}/api/v1/consents`,
        method: 'POST' as const,
        headers: { authorization: target.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({
          payments: [{ type: 'immediate', amount: 1000, narration: 'Bench' }],
        }),
      },
    };
    const runs: Record<keyof typeof kinds, number[]> = { bare: [], read: [], create: [] };
    // A short warm-up of each, then alternated rounds.
    for (const options of Object.values(kinds)) await autocannon({ ...options, duration: 1 });
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, options] of Object.entries(kinds) as Array<
        [keyof typeof kinds, autocannon.Options]
      >) {
        runs[name].push(await requestsPerSecond(options));
      }
    }
    const bare = median(runs.bare);
    const read = median(runs.read);
    const create = median(runs.create);
    console.log(
      `\n${target.database}: ${ROUNDS} alternated rounds of ${SECONDS} s, ${CONNECTIONS} connections`,
    );
    console.log(`  bare Fastify JSON route     ${bare.toFixed(0).padStart(7)} req/s`);
    console.log(
      `  GET /api/consent/{id}       ${read.toFixed(0).padStart(7)} req/s   ÷ bare ${(read / bare).toFixed(3)}`,
    );
    console.log(
      `  POST /api/v1/consents       ${create.toFixed(0).padStart(7)} req/s   ÷ bare ${(create / bare).toFixed(3)}`,
    );
  } finally {
    await stop();
  }
}

const postgresReachable = await new Promise<boolean>((resolve) => {
  const url = new URL(POSTGRES_URL);
  const socket = connect(Number(url.port || 5432), url.hostname);
  socket.on('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.on('error', () => resolve(false));
});

await benchOne(undefined);
if (postgresReachable) await benchOne(POSTGRES_URL);
else console.log('\nPostgreSQL: not reachable, not measured');

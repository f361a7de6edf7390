// Cold start of the server (after `npm run build`): from spawning `dist/server/main.mjs` (what
// `npm start` runs, bundled from src/server/main.ts) to the
// first 200 of /api/health, on an empty data directory (migrations and the demo seed run) and on
// one already made; then the idle resident memory of the process. Medians of RUNS starts each,
// PGlite, and PostgreSQL when one answers on 127.0.0.1:5432. The ratio printed is the time of a
// start against the time Node takes to start and answer a bare HTTP server, in the same run.
// Run: `npm run bench:start`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const RUNS = Number(process.env.RUNS ?? 3);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
let nextPort = 3_700;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function waitForHealth(port: number, child: ChildProcess, path = '/api/health') {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resident memory of a process in MiB, from /proc (Linux). */
const residentMiB = (pid: number) => {
  const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) / 1024;
};

async function timeStart(
  command: string[],
  env: Record<string, string>,
  healthPath?: string,
): Promise<{ ms: number; rssMiB: number }> {
  const port = nextPort++;
  const started = performance.now();
  const child = spawn(command[0] ?? 'node', command.slice(1), {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
  try {
    await waitForHealth(port, child, healthPath);
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return { ms, rssMiB: residentMiB(child.pid ?? 0) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const server = ['node', 'dist/server/main.mjs'];
const bare = [
  'node',
  '-e',
  "require('http').createServer((q,s)=>s.end('ok')).listen(process.env.PORT,'127.0.0.1')",
];

async function benchMode(name: string, env: (dataDir: string) => Promise<Record<string, string>>) {
  const empty: number[] = [];
  const warm: number[] = [];
  const rss: number[] = [];
  const baseline: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
    try {
      baseline.push((await timeStart(bare, {}, '/')).ms);
      const modeEnv = await env(dataDir);
      empty.push((await timeStart(server, modeEnv)).ms);
      const again = await timeStart(server, modeEnv);
      warm.push(again.ms);
      rss.push(again.rssMiB);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const node = median(baseline);
  console.log(`\n${name}: medians of ${RUNS} starts`);
  console.log(`  bare node HTTP server        ${node.toFixed(0).padStart(6)} ms`);
  console.log(
    `  start, empty data directory  ${median(empty).toFixed(0).padStart(6)} ms   ÷ bare ${(median(empty) / node).toFixed(1)}`,
  );
  console.log(
    `  start, existing data         ${median(warm).toFixed(0).padStart(6)} ms   ÷ bare ${(median(warm) / node).toFixed(1)}`,
  );
  console.log(`  idle resident memory         ${median(rss).toFixed(0).padStart(6)} MiB`);
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

await benchMode('PGlite', async (dataDir) => ({ DATA_DIR: dataDir }));
const created: string[] = [];
if (postgresReachable) {
  // Each run on a fresh database of its own, so its first start sees an empty one.
  await benchMode('PostgreSQL', async (dataDir) => {
    const name = `bench_${path.basename(dataDir).replace(/\W/g, '_').toLowerCase()}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    created.push(name);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    return { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
  });
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  for (const name of created) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
} else {
  console.log('\nPostgreSQL: not reachable, not measured');
}

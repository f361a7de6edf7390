// The deployment bench/capacity.ts measures: one process of the build (`node
// dist/server/main.mjs`) on a PostgreSQL database of its own with Redis for the rate limits, or on
// PGlite in a data directory of its own (BENCH_DB=pglite: the embedded mode, one process, its
// limits counted in the process). Nobody else's data is touched: the database is
// bench_capacity_<pid>_<hex>, dropped at the end, and the Redis keys are under
// bench-capacity-<pid>:, removed at the end.
//
// What the server is started with beside its port, data directory, database and Redis:
// - TRUST_PROXY 127.0.0.1: the bench is on loopback and each simulated payer names its own
//   address in X-Forwarded-For, as behind a real proxy, so every per-address limit (card charges,
//   codes, challenges, logins) counts one payer alone and none is raised.
// - AUTH_TOKEN_TTL_SECONDS one day: the OneTap and collection payers are signed in once, before
//   the first step, and a search runs longer than a session's 15 minutes.
// - METRICS_TOKEN: the bench reads GET /metrics (event-loop delay, the pool's waiting requests).
// Everything else is the product's default.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  freePort,
  printedOnceReady,
  scratchDatabase,
  stopServerProcess,
} from '../src/server/testing/server-process';
import { removeTestRedisKeys, TEST_REDIS_URL } from '../src/server/testing/redis';
import { ADMIN_DATABASE_URL } from './processes-stack';

export type TDatabaseKind = 'postgresql' | 'pglite';

export type TCapacityStack = {
  kind: TDatabaseKind;
  /** Where the bench sends its requests. */
  base: string;
  /** What the payer's page and passkeys see. */
  origin: string;
  /** The server process's pid, for its CPU in /proc. */
  pid: number;
  /** The bench's database on PostgreSQL; null on PGlite. */
  databaseUrl: string | null;
  /** The database's name on PostgreSQL, as its backends' process titles name it. */
  databaseName: string | null;
  dataDir: string;
  metricsToken: string;
  /** The environment `scripts/client.ts` needs to reach this deployment's database. */
  clientEnv: Record<string, string>;
  /** The last lines of the server's log, to say why a run failed. */
  tail(): string;
  close(): Promise<void>;
};

/** This process's environment without what would point the server at another database. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && name !== 'DATABASE_URL' && name !== 'REDIS_URL') env[name] = value;
  }
  return env;
}

/** Starts the server of the build on `kind`; resolves once it printed its start-up lines. */
export async function startCapacityStack(kind: TDatabaseKind): Promise<TCapacityStack> {
  const port = Number(process.env.BENCH_PORT ?? 0) || (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-capacity-'));
  const dataDir = path.join(dir, 'data');
  const origin = `http://localhost:${port}`;
  const metricsToken = randomBytes(24).toString('hex');
  const redisPrefix = `bench-capacity-${process.pid}:`;
  // scratchDatabase makes its database on the server DATABASE_URL names.
  if (kind === 'postgresql') process.env.DATABASE_URL = ADMIN_DATABASE_URL;
  const database = kind === 'postgresql' ? await scratchDatabase('bench_capacity') : null;
  const storage: Record<string, string> = database
    ? { DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redisPrefix }
    : {};
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (--cpu-prof).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, 'dist/server/main.mjs'], {
    env: {
      ...baseEnv(),
      ...storage,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '127.0.0.1',
      AUTH_TOKEN_TTL_SECONDS: '86400',
      METRICS_TOKEN: metricsToken,
    },
  });
  const logFile = path.join(dir, 'server.log');
  const log = createWriteStream(logFile);
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const cleanUp = async () => {
    await stopServerProcess(child);
    await database?.drop();
    if (database) await removeTestRedisKeys(redisPrefix);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await printedOnceReady(child, (output) => output.includes('Sign in: '));
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return {
    kind,
    base: `http://127.0.0.1:${port}`,
    origin,
    pid: child.pid ?? 0,
    databaseUrl: database?.url ?? null,
    databaseName: database ? new URL(database.url).pathname.slice(1) : null,
    dataDir,
    metricsToken,
    clientEnv: { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) },
    tail: () => readFileSync(logFile, 'utf8').trim().split('\n').slice(-20).join('\n'),
    close: cleanUp,
  };
}

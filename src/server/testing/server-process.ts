// Real server processes for the tests that need several (*.postgres.test.ts) or a crash: the
// server as a deployment runs it (`npm start`: the build of `src/server/main.ts`), on a scratch
// database of the test's own.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { buildServer } from '../../../scripts/build-server';
import { ZConsentReadResponse } from '../../domain/schemas/consent';
import { ZCreateConsentResponse } from '../../domain/schemas/merchant-api';
import { ZTransferDetailsResponse } from '../../domain/schemas/payment';

const adminUrl = () => process.env.DATABASE_URL ?? '';

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** An empty database on the PostgreSQL server DATABASE_URL names; drop() removes it. */
export async function scratchDatabase(
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  return {
    url: Object.assign(new URL(adminUrl()), { pathname: `/${name}` }).toString(),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** Whether nothing listens on `port` of this machine now. */
const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });

/** The next port `freePort` tries in this process. */
let nextPort = 0;

/**
 * A port nothing listens on, for a server process about to start. Not one the system hands out
 * (`listen(0)`): those come from its ephemeral range (32768–60999 on Linux), where every outgoing
 * connection of a busy machine takes its own port too, and one found free there was taken before
 * the server bound it (EADDRINUSE in CI). Below that range instead, a thousand ports for each
 * vitest worker, so that two test files running at once never try the same one.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? 0) % 12;
  for (let tried = 0; tried < 1_000; tried += 1) {
    const port = 20_000 + worker * 1_000 + (nextPort % 1_000);
    nextPort += 1;
    if (await isFree(port)) return port;
  }
  throw new Error(`No free port among this worker's thousand from ${20_000 + worker * 1_000}`);
}

/**
 * The commands the tests run beside a server (`npm run client:*`, `npm run ledger:check`), built
 * with it: run through tsx, each took 1.9 s of CPU to load before it did anything, and a test
 * file runs a dozen.
 */
const COMMANDS = {
  client: 'scripts/client.ts',
  'client-events': 'scripts/client-events.ts',
  'ledger-check': 'scripts/ledger-check.ts',
};

let built: Promise<string> | undefined;

/**
 * The server's build, made from the sources once per vitest worker (the worker's test files share
 * this module) into a folder of the worker's own: the files of a worker run one at a time, those
 * of other workers (and the browser tests' dist/server) beside them. Its path, main.mjs.
 * Started from TypeScript instead (tsx), each process compiled and loaded some hundred files: a
 * start took 3.8 s of CPU on PostgreSQL, 9 s on a new PGlite directory (initdb and every
 * migration, where the build starts from its template); started from the build, 1 s and 3.4 s.
 */
export function serverBuild(): Promise<string> {
  built ??= buildServer(`dist/server-under-test-${process.env.VITEST_POOL_ID ?? 0}`, COMMANDS);
  return built;
}

/** The path of a command of the tests' build, to run as `node <path> <arguments>`. */
export async function builtCommand(name: keyof typeof COMMANDS): Promise<string> {
  return path.join(path.dirname(await serverBuild()), `${name}.mjs`);
}

export type TServerProcess = {
  child: ChildProcess;
  base: string;
  /** The lines it printed once ready (its start line, the demo consents, …). */
  lines: string[];
};

/**
 * Starts the server's build (`serverBuild`) on `databaseUrl` with `env` added, on a free port and
 * a data directory of its own; resolves once it printed its last start-up line (it is listening).
 */
export async function startServerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<TServerProcess> {
  const main = await serverBuild();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-procs-'));
  const base = `http://localhost:${port}`;
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  child.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  // A serving process's last start line names where to sign in; a worker's, that it works.
  const lines = await printedOnceReady(
    child,
    (output) => output.includes('Sign in: ') || output.includes('Working on jobs: '),
  );
  return { child, base, lines };
}

/**
 * How long a server process may take to start: about 1 s alone from the build (5 s from its
 * TypeScript), 164 s seen from TypeScript on a 2-core machine at a load average of 15-60. Less than the limit of the tests that start one, so that a start
 * which fails says why rather than the test's limit ending it without a word.
 */
export const SERVER_START_LIMIT_MS = 240_000;

/**
 * Resolves with the lines a server process printed (stdout) once `ready` holds of them; rejects
 * with its last lines (stdout and stderr) when it exits first or `limitMs` passes.
 */
export function printedOnceReady(
  child: ChildProcess,
  ready: (stdout: string) => boolean,
  limitMs = SERVER_START_LIMIT_MS,
): Promise<string[]> {
  let stdout = '';
  let both = '';
  return new Promise<string[]>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`${why}; its last lines:\n${both.split('\n').slice(-30).join('\n')}`));
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(`the server was not ready in ${limitMs / 1000} s`);
    }, limitMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      both += chunk.toString();
      if (ready(stdout)) {
        clearTimeout(timer);
        resolve(stdout.split('\n'));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (both += chunk.toString()));
    child.once('exit', (code, signal) => fail(`the server exited (${code ?? signal})`));
  });
}

/** Stops a server process with `signal` and resolves once it has exited. */
export function stopServerProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** A consent for an immediate payment by transfer, paid through `base`; its id. */
export async function payByTransfer(
  base: string,
  client: { clientId: string; authorization: string },
): Promise<string> {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const created = await post(
    '/api/v1/consents',
    { payments: [{ type: 'immediate', amount: 250_000, narration: 'Order 17' }] },
    { authorization: client.authorization },
  );
  expect(created.status, await created.clone().text()).toBe(201);
  const { consentId } = ZCreateConsentResponse.parse(await created.json());
  const read = ZConsentReadResponse.parse(
    await (await fetch(`${base}/api/consent/${consentId}?clientId=${client.clientId}`)).json(),
  );
  const paymentId = read.consent.payments[0]?.paymentId ?? '';
  const issued = await fetch(`${base}/api/payments/${paymentId}/transfer?consentId=${consentId}`, {
    method: 'POST',
  });
  const { transferDetails } = ZTransferDetailsResponse.parse(await issued.json());
  const sent = await post('/api/sandbox/transfers', {
    accountNumber: transferDetails.accountNumber,
    amount: transferDetails.amount,
  });
  expect(sent.status).toBe(200);
  return consentId;
}

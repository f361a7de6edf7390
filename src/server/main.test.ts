// The start command's contract: serves page and API on PORT with data under DATA_DIR, seeds the
// demo once and prints one full URL per demo consent; by default it listens on loopback only and
// says that the sandbox SMS outbox is readable by anyone who can reach it; its start line names
// WEBHOOKS_ALLOW_PRIVATE when the operator turned it on. It runs what `npm start` runs: the
// server bundle the build makes (scripts/build-server.ts), built here.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from './app';
import {
  freePort,
  printedOnceReady,
  SERVER_START_LIMIT_MS,
  serverBuild,
  stopServerProcess,
} from './testing/server-process';
import { openTestDatabase, testConfig } from './testing/test-app';
import { openToOthers } from './testing/files';
import { accepts } from './testing/sockets';

const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-main-'));
const freshDataDir = mkdtempSync(path.join(tmpdir(), 'consent-main-'));
let bundle = '';
beforeAll(async () => {
  // A build of the worker's own: the browser tests may be running the build's dist/server beside
  // these.
  bundle = await serverBuild();
});
afterAll(() => {
  for (const dir of [dataDir, freshDataDir]) rmSync(dir, { recursive: true, force: true });
});

/** The server's environment: `dir` as DATA_DIR, PGlite, the default host and URL, and `extra`. */
function serverEnv(port: number, dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  delete env.HOST;
  delete env.WEBHOOKS_ALLOW_PRIVATE;
  Object.assign(env, extra);
  return env;
}

/**
 * Starts the server and resolves with its demo lines once it is ready; `umask`, when given, is
 * the shell's umask it starts under.
 */
async function start(
  port: number,
  dir = dataDir,
  extraEnv: NodeJS.ProcessEnv = {},
  umask?: string,
): Promise<{ child: ChildProcess; lines: string[] }> {
  const env = serverEnv(port, dir, extraEnv);
  const child = umask
    ? spawn('/bin/sh', ['-c', `umask ${umask} && exec "$0" "$1"`, process.execPath, bundle], {
        env,
      })
    : spawn(process.execPath, [bundle], { env });
  // Its stderr is also the test's, as it comes.
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const printed = await printedOnceReady(
    child,
    // The start's last line.
    (output) => output.split('\n').some((l) => l.startsWith('Sign in: ')),
  );
  const lines = printed.filter(Boolean);
  return { child, lines };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/**
 * Resolves with the milliseconds until the server answered /api/health 200, asked every quarter
 * second; fails with its last output lines once it exited or `limitMs` passed.
 */
async function answersHealth(
  port: number,
  child: ChildProcess,
  output: string[],
  limitMs: number,
): Promise<number> {
  const startedAt = Date.now();
  const failure = (why: string) =>
    new Error(`${why}; its last lines:\n${output.filter(Boolean).slice(-20).join('\n')}`);
  for (;;) {
    if (child.exitCode !== null) throw failure(`the server exited with ${child.exitCode}`);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
    if (health?.status === 200) return Date.now() - startedAt;
    if (Date.now() - startedAt > limitMs)
      throw failure(`no answer from /api/health in ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('npm start (dist/server/main.mjs, built from src/server/main.ts)', () => {
  it('prints each demo consent URL, serves it, and seeds only once', async () => {
    const port = await freePort();
    const first = await start(port);
    const urls = first.lines
      .filter((l) => l.startsWith('Demo consent'))
      .map((l) => l.split(': ').pop() ?? '');
    expect(urls).toHaveLength(5);
    for (const url of urls) {
      expect(url).toMatch(
        new RegExp(`^http://localhost:${port}/r/cns_[\\w-]+\\?clientId=cli_demo$`),
      );
    }
    expect((await fetch(`http://localhost:${port}/api/health`)).status).toBe(200);
    const page = await fetch(urls[0] ?? '');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const { pathname, searchParams } = new URL(urls[0] ?? '');
    const api = await fetch(
      `http://localhost:${port}/api/consent/${pathname.split('/').pop()}?clientId=${searchParams.get('clientId')}`,
    );
    expect(api.status).toBe(200);
    // The API's description and its reference page, whose files come from outside the bundle
    // (each body read, so that no open answer holds the server's stop).
    const description = await fetch(`http://localhost:${port}/api/openapi.json`);
    expect(((await description.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./);
    const reference = await fetch(`http://localhost:${port}/docs/api/static/swagger-ui-bundle.js`);
    expect(reference.status).toBe(200);
    expect((await reference.text()).length).toBeGreaterThan(100_000);
    await stop(first.child);

    // Started again by an operator who lets webhooks reach private networks: the start line says so.
    const second = await start(port, dataDir, { WEBHOOKS_ALLOW_PRIVATE: 'on' });
    const again = second.lines
      .filter((l) => l.startsWith('Demo consent'))
      .map((l) => l.split(': ').pop());
    expect(again).toEqual(urls);
    expect(first.lines[0]).not.toContain('WEBHOOKS_ALLOW_PRIVATE');
    expect(second.lines[0]).toMatch(
      /^Consent server ready on .*, WEBHOOKS_ALLOW_PRIVATE=on: webhooks may go to http:\/\/ and private addresses\)$/,
    );
    await stop(second.child);
  }, 600_000);

  it('announces sandbox mode and listens on 127.0.0.1 only by default', async () => {
    const port = await freePort();
    const { child, lines } = await start(port, freshDataDir);
    try {
      expect(lines).toContain(
        `Sandbox mode: SMS codes are not sent; anyone who can reach this server can read them at http://localhost:${port}/sandbox/messages`,
      );
      expect(lines[0]).toMatch(
        new RegExp(
          `^Consent server ready on http://localhost:${port} \\(listening on 127\\.0\\.0\\.1:${port},`,
        ),
      );
      expect(await accepts('127.0.0.1', port)).toBe(true);
      // Every machine has 127.0.0.2 on its loopback: a server listening on all addresses
      // (0.0.0.0) accepts there, one on 127.0.0.1 alone does not.
      expect(await accepts('127.0.0.2', port)).toBe(false);
    } finally {
      await stop(child);
    }
  }, 600_000);

  it('starts with a Paystack live key, each capability on or off, no sandbox and no demo', async () => {
    const port = await freePort();
    const { child, lines } = await start(port, dataDir, {
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_live_notarealkey',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
    });
    try {
      expect(lines.filter((line) => line.startsWith('Capability '))).toEqual([
        'Capability cards: paystack',
        'Capability banks: paystack',
        'Capability bvn: off (Paystack does not offer a BVN registry)',
        'Capability mandates: off (Paystack does not offer an e-mandate service)',
        'Capability debits: paystack',
        'Capability payouts: paystack',
        'Capability refunds: paystack',
        'Capability transfersIn: paystack',
        'Capability notices: paystack',
        'Capability acquirer: off (Paystack does not offer a card terminal acquirer)',
        'Capability settlement: paystack',
        'Capability sms: off (SMS_PROVIDER=sandbox reaches no phone)',
      ]);
      expect(lines).toContain(
        `Paystack live mode at http://127.0.0.1:9: register http://localhost:${port}/api/providers/paystack/notices as Paystack's webhook URL`,
      );
      // Real money: no sandbox outbox (it would hand anyone a payer's code), no demo merchant.
      expect(lines.some((line) => /^(Sandbox|Demo consent)/.test(line))).toBe(false);
      const outbox = await fetch(`http://127.0.0.1:${port}/sandbox/messages?phone=08031234567`);
      expect(outbox.status).toBe(404);
      expect(lines.join('\n')).not.toContain('sk_live_notarealkey');
    } finally {
      await stop(child);
    }
  }, 600_000);

  it('says what comes from the sandbox beside Paystack’s test mode, and where its notices go', async () => {
    const port = await freePort();
    const { child, lines } = await start(port, dataDir, {
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_test_notarealkey',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
    });
    try {
      expect(lines).toContain(
        `Paystack test mode at http://127.0.0.1:9: register http://localhost:${port}/api/providers/paystack/notices as Paystack's webhook URL`,
      );
      for (const capability of ['bvn', 'mandates', 'acquirer']) {
        expect(lines).toContain(
          `Capability ${capability}: sandbox (stands in beside the test key; no money moves)`,
        );
      }
      expect(lines.some((line) => line.startsWith('Sandbox network:'))).toBe(false);
      expect(lines.join('\n')).not.toContain('sk_test_notarealkey');
    } finally {
      await stop(child);
    }
  }, 600_000);

  it('stops with one clear line on a bad configuration', () => {
    const result = spawnSync(process.execPath, [bundle], {
      env: { ...process.env, PORT: 'eighty', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid configuration: PORT Invalid input: expected number, received NaN',
    );
  });
});

describe('a start on a loaded machine (probe finding 6)', () => {
  it('lets a plugin that starts slowly finish: no plugin has a start timeout', async () => {
    const database = await openTestDatabase();
    const app = await buildApp({
      config: testConfig(),
      database,
      logger: false,
      webhookDelivery: 'manual',
    });
    let started!: () => void;
    const starting = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const slow = new Promise<void>((resolve) => (finish = resolve));
    void app.register(async () => {
      started();
      await slow;
    });
    // Fastify's timer of a plugin's start (10 s by default) is a setTimeout: on a clock the test
    // moves, ten minutes pass while the plugin starts, and a limit of any size would fire.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const ready = app.ready();
      await starting;
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      finish();
      await ready;
      expect(app.initialConfig.pluginTimeout).toBe(0);
    } finally {
      vi.useRealTimers();
      await app.close();
      await database.close();
    }
  });

  it('starts and answers /api/health beside two processes that keep both cores busy', async () => {
    // Bounded: both cores are kept busy through the first 15 s of the start (its plugins are
    // registered then), and the processes are killed as soon as the server answered.
    const busy = [0, 1].map(() =>
      spawn(process.execPath, ['-e', 'const end = Date.now() + 15_000; while (Date.now() < end);']),
    );
    const port = await freePort();
    const dir = mkdtempSync(path.join(tmpdir(), 'consent-main-'));
    const child = spawn(process.execPath, [bundle], { env: serverEnv(port, dir) });
    const output: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n')));
    }
    try {
      const tookMs = await answersHealth(port, child, output, SERVER_START_LIMIT_MS);
      console.log(`The server answered /api/health ${tookMs} ms after its start, both cores busy`);
    } finally {
      for (const worker of busy) worker.kill();
      await stopServerProcess(child);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});

describe('DATA_DIR and the secrets in it', () => {
  const privateDir = mkdtempSync(path.join(tmpdir(), 'consent-main-'));
  const sealedDir = mkdtempSync(path.join(tmpdir(), 'consent-main-'));
  afterAll(() => {
    for (const dir of [privateDir, sealedDir]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a new DATA_DIR its user's only, whatever the umask: after the start, writes and the stop", async () => {
    const port = await freePort();
    const dir = path.join(privateDir, 'data');
    const { child } = await start(port, dir, {}, '000');
    try {
      expect(openToOthers(dir)).toEqual([]);
      // Writes: a code sent (rows, an outbox message) and the card key made (server secrets).
      const sent = await fetch(`http://localhost:${port}/api/auth/phone-codes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone: '08031234567' }),
      });
      expect(sent.status).toBe(200);
      expect((await fetch(`http://localhost:${port}/api/encryption/public-key`)).status).toBe(200);
      expect(openToOthers(dir)).toEqual([]);
    } finally {
      await stop(child);
    }
    expect(openToOthers(dir)).toEqual([]);
  }, 600_000);

  it('makes an existing DATA_DIR that everyone could read and write private, and says so', async () => {
    const dir = path.join(privateDir, 'data');
    spawnSync('chmod', ['-R', 'a+rwX', dir]);
    const opened = openToOthers(dir).length;
    expect(opened).toBeGreaterThan(1000);
    const port = await freePort();
    const { child, lines } = await start(port, dir);
    try {
      expect(lines[0]).toBe(
        `DATA_DIR ${dir}: ${opened} files and folders were open to other users; they are now this user's only (0600, folders 0700).`,
      );
      expect(openToOthers(dir)).toEqual([]);
    } finally {
      await stop(child);
    }
  }, 600_000);

  it('seals the server secrets with SECRETS_KEY and refuses to start with another key or none', async () => {
    const key = randomBytes(32).toString('base64');
    const port = await freePort();
    const first = await start(port, sealedDir, { SECRETS_KEY: key });
    expect((await fetch(`http://localhost:${port}/api/encryption/public-key`)).status).toBe(200);
    await stop(first.child);

    const refusal = (env: NodeJS.ProcessEnv) => {
      // A server that does not refuse would run on: the timeout ends it, and the test fails.
      const result = spawnSync(process.execPath, [bundle], {
        env: serverEnv(port, sealedDir, env),
        encoding: 'utf8',
        timeout: SERVER_START_LIMIT_MS,
      });
      return { status: result.status, stderr: result.stderr.trim() };
    };
    expect(refusal({ SECRETS_KEY: randomBytes(32).toString('hex') })).toEqual({
      status: 1,
      stderr:
        'SECRETS_KEY does not open the server secrets in this database: it is not the key they were sealed with.',
    });
    expect(refusal({})).toEqual({
      status: 1,
      stderr:
        'The server secrets in this database are sealed: set SECRETS_KEY to the key they were sealed with.',
    });
    expect(refusal({ SECRETS_KEY: 'short' })).toEqual({
      status: 1,
      stderr:
        'Invalid configuration: SECRETS_KEY must be 32 bytes, as 64 hex digits or in base64 (openssl rand -base64 32)',
    });

    const again = await start(port, sealedDir, { SECRETS_KEY: key });
    expect((await fetch(`http://localhost:${port}/api/encryption/public-key`)).status).toBe(200);
    await stop(again.child);
  }, 600_000);
});

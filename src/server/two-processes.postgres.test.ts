// @module-tag postgres
// Several server processes on one PostgreSQL, as a deployment at scale runs them (issue 9 "Live
// events"; ARCHITECTURE.md): two real processes of `src/server/main.ts`, started at the same
// moment on an empty database, migrate and seed it once between them, and a payment paid through
// one is heard on a stream opened on the other. PostgreSQL only: PGlite is one process's
// database (vitest.config.ts runs this file when DATABASE_URL is set, as `npm run
// test:postgres` does).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZConsentReadResponse } from '../domain/schemas/consent';
import { ZTransferDetailsResponse } from '../domain/schemas/payment';

const adminUrl = process.env.DATABASE_URL ?? '';
const name = `test_procs_${randomBytes(6).toString('hex')}`;
const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const dirs: string[] = [];
const children: ChildProcess[] = [];

const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};

beforeAll(() => admin(`create database ${name}`));
afterAll(async () => {
  await Promise.all(children.map(stop));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await admin(`drop database if exists ${name} with (force)`);
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Starts `src/server/main.ts` on the test database; resolves with its base URL and demo lines. */
async function start(): Promise<{ base: string; demo: string[] }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-procs-'));
  dirs.push(dataDir);
  const base = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const demo = await new Promise<string[]>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n').filter((line) => line.startsWith('Demo consent'));
      if (lines.length >= 4) resolve(lines);
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}:\n${out}${err}`)));
  });
  return { base, demo };
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('two server processes on one PostgreSQL', () => {
  it('start together on an empty database, and either hears a payment paid through the other', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    // One migration, one seed: both name the same demo consents.
    const path = (line: string) => new URL(line.split(': ').pop() ?? '').pathname;
    expect(a.demo.map(path)).toEqual(b.demo.map(path));
    const line = a.demo.find((l) => l.includes('immediate payment only')) ?? '';
    const consentId = path(line).split('/').pop() ?? '';
    const clientId = new URL(line.split(': ').pop() ?? '').searchParams.get('clientId') ?? '';

    const read = ZConsentReadResponse.parse(
      await (await fetch(`${b.base}/api/consent/${consentId}?clientId=${clientId}`)).json(),
    );
    const payment = read.consent.payments[0];
    expect(payment?.status).toBe('pending');

    // The stream is on B; the transfer is issued and paid through A.
    const abort = new AbortController();
    const stream = await fetch(
      `${b.base}/api/events/payments/${payment?.paymentId}?consentId=${consentId}&clientId=${clientId}`,
      { headers: { accept: 'text/event-stream' }, signal: abort.signal },
    );
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const heard = (async () => {
      while (!text.includes('"status":"completed"')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    })();
    await expect.poll(() => text).toContain('event: ready');

    const issued = await fetch(
      `${a.base}/api/payments/${payment?.paymentId}/transfer?consentId=${consentId}`,
      { method: 'POST' },
    );
    const { transferDetails: details } = ZTransferDetailsResponse.parse(await issued.json());
    const sent = await fetch(`${a.base}/api/sandbox/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountNumber: details.accountNumber, amount: details.amount }),
    });
    expect(sent.status).toBe(200);
    await heard;
    abort.abort();
    expect(text).toContain('"status":"completed"');

    const after = ZConsentReadResponse.parse(
      await (await fetch(`${b.base}/api/consent/${consentId}?clientId=${clientId}`)).json(),
    );
    expect(after.consent.payments[0]?.status).toBe('executed');
  }, 90_000);
});

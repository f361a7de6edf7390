// The start command's contract: serves page and API on PORT with data under DATA_DIR, seeds the
// demo once and prints one full URL per demo consent; by default it listens on loopback only and
// says that the sandbox SMS outbox is readable by anyone who can reach it; its start line names
// WEBHOOKS_ALLOW_PRIVATE when the operator turned it on. It runs what `npm start` runs: the
// server bundle the build makes (scripts/build-server.ts), built here.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-main-'));
const freshDataDir = mkdtempSync(path.join(tmpdir(), 'consent-main-'));
let bundle = '';
beforeAll(async () => {
  bundle = await buildServer();
});
afterAll(() => {
  for (const dir of [dataDir, freshDataDir]) rmSync(dir, { recursive: true, force: true });
});

/** Starts the server and resolves with its demo lines once it is ready. */
async function start(
  port: number,
  dir = dataDir,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; lines: string[] }> {
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
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, [bundle], { env });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      lines.splice(0, lines.length, ...buffer.split('\n').filter(Boolean));
      if (lines.filter((l) => l.startsWith('Demo consent')).length >= 4) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${buffer}`)));
  });
  return { child, lines };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

/** An address of this machine that is not loopback, if it has one. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i?.family === 'IPv4' && !i.internal)?.address;

describe('npm start (dist/server/main.mjs, built from src/server/main.ts)', () => {
  it('prints each demo consent URL, serves it, and seeds only once', async () => {
    const port = await freePort();
    const first = await start(port);
    const urls = first.lines
      .filter((l) => l.startsWith('Demo consent'))
      .map((l) => l.split(': ').pop() ?? '');
    expect(urls).toHaveLength(4);
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
  }, 60_000);

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
      if (externalAddress) expect(await accepts(externalAddress, port)).toBe(false);
    } finally {
      await stop(child);
    }
  }, 60_000);

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

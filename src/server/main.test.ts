// The start command's contract: serves page and API on PORT with data under DATA_DIR, seeds the
// demo once and prints one full URL per demo consent.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts the server and resolves with its demo lines once it is ready. */
async function start(port: number): Promise<{ child: ChildProcess; lines: string[] }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env });
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

describe('npm start (src/server/main.ts)', () => {
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

    const second = await start(port);
    const again = second.lines
      .filter((l) => l.startsWith('Demo consent'))
      .map((l) => l.split(': ').pop());
    expect(again).toEqual(urls);
    await stop(second.child);
  }, 60_000);

  it('stops with one clear line on a bad configuration', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: 'eighty', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid configuration: PORT Invalid input: expected number, received NaN',
    );
  });
});

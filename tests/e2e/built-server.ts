import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { E2E } from './e2e-env';

/**
 * The built server the dashboard's browser files share, started with the suite by
 * playwright.config.ts on a data directory made anew each run, webhooks to this machine allowed
 * (their receivers listen here). Each file makes merchants of its own on it; `npm run client:*`
 * reaches it through its data directory.
 */
export const SHARED_BUILT_SERVER = { origin: E2E.builtOrigin, dataDir: E2E.builtDataDir } as const;

/**
 * The built server as `npm start` runs it (dist/server/main.mjs) on a new data directory, for the
 * tests that follow the README as written, with `env` added to its environment. Resolves once it
 * printed its last start line. Given `dataDir`, it starts on that one (a server restarted on the
 * data an earlier one left), and stop() leaves it to the caller.
 */
export async function startBuiltServer(
  port: number,
  env: NodeJS.ProcessEnv = {},
  options: { dataDir?: string } = {},
) {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'oya-built-'));
  const origin = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.mjs'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    // Migrations, the seed and a PGlite start: past 30 s on a loaded 2-core machine. Failed
    // with what it printed before the test's own limit (180 s) would end it without a word.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`Not started in 150 s:\n${printed}`));
    }, 150_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes('Sign in: ')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server stopped (${code}):\n${printed}`));
    });
  });
  return {
    origin,
    dataDir,
    printed,
    async stop() {
      if (child.exitCode === null) {
        const stopped = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await stopped;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

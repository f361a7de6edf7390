import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/*
 * Real server processes for the tests of several processes on one PostgreSQL: each runs
 * `src/server/main.ts` as `npm start` would (through tsx), with a data directory of its own, on a
 * database the test makes and drops.
 */

/** A TCP port nothing listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** An empty database on the server DATABASE_URL names, made and dropped by the test. */
export function scratchDatabase(prefix: string) {
  const adminUrl = process.env.DATABASE_URL ?? '';
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    url: Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString(),
    create: () => admin(`create database ${name}`),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

export type TServerProcess = { base: string; demo: string[]; child: ChildProcess };

/** Stops a server process (SIGTERM) and resolves once it has exited. */
export function stopServerProcess(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts server processes on `databaseUrl` with `env` added, each on a free port and a fresh data
 * directory; `stopAll` stops them and removes their directories.
 */
export function serverProcesses(databaseUrl: string, env: NodeJS.ProcessEnv = {}) {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  return {
    /** Resolves with the process's base URL and demo lines once it is ready. */
    async start(): Promise<TServerProcess> {
      const port = await freePort();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-procs-'));
      dirs.push(dataDir);
      const base = `http://localhost:${port}`;
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
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
        child.on('exit', (code) =>
          reject(new Error(`the server exited with ${code}:\n${out}${err}`)),
        );
      });
      return { base, demo, child };
    },
    async stopAll() {
      await Promise.all(children.map(stopServerProcess));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

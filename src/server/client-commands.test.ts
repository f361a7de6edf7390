// `npm run client:*` (docs/merchant-clients.md): a client is created and changed while the
// server runs, on PGlite (through the server's operator calls, since no second process may open
// its data directory) and on PostgreSQL (in the shared database), and the running server
// answers the new credentials at once. Without a server they open the database themselves.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { webOriginProblem } from '../domain/web-origin';
import { buildApp } from './app';
import { openDatabase, type TDatabase } from './db/database';
import { newOperatorToken, operatorUrl, writeOperatorFile } from './operator-file';
import { authenticateClient } from './services/merchants/merchant-clients';
import { PUBLIC_TEST_ADDRESS, testHostResolver } from './testing/host-resolver';
import { builtCommand } from './testing/server-process';
import { openTestDatabase, testConfig } from './testing/test-app';

type TRun = { status: number | null; stdout: string; stderr: string };

/**
 * Runs a client command as `npm run client:<command>` does (its build: testing/server-process.ts),
 * with the given database settings.
 */
async function runCommand(env: { DATA_DIR: string; DATABASE_URL?: string }, ...args: string[]) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const command = await builtCommand('client');
  return new Promise<TRun>((resolve) => {
    const child = spawn(process.execPath, [command, ...args], { env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `key: value` lines of a command's output. */
const field = (output: string, key: string) =>
  new RegExp(`^${key}:\\s+(.*)$`, 'm').exec(output)?.[1]?.trim() ?? '';

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-clients-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('client commands while the server runs', () => {
  let database: TDatabase;
  let app: FastifyInstance;
  let env: { DATA_DIR: string; DATABASE_URL?: string };
  let removeOperatorFile = () => {};

  beforeAll(async () => {
    const serverDir = path.join(dataDir, 'running');
    const postgres = Boolean(process.env.DATABASE_URL);
    const opened: TDatabase & { url?: string | undefined } = postgres
      ? await openTestDatabase()
      : await openDatabase({
          kind: 'pglite',
          dataDir: serverDir,
          template: inject('pgliteTemplate'),
        });
    database = opened;
    // As main.ts does: an operator token on PGlite only.
    const operatorToken = postgres ? undefined : newOperatorToken();
    app = await buildApp({
      config: testConfig(),
      database,
      logger: false,
      operatorToken,
      providers: { dns: testHostResolver() },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (operatorToken && address && typeof address !== 'string') {
      // This test's process is the server: its pid is the one a command finds running.
      removeOperatorFile = writeOperatorFile(serverDir, {
        pid: process.pid,
        url: operatorUrl(address),
        token: operatorToken,
      });
    }
    env = {
      DATA_DIR: serverDir,
      ...(opened.url ? { DATABASE_URL: opened.url } : {}),
    };
  }, 600_000);
  afterAll(async () => {
    removeOperatorFile();
    await app.close();
    await database.close();
  });

  const readClient = (authorization: string) =>
    app.inject({ method: 'GET', url: '/api/v1/client', headers: { authorization } });

  it(
    'creates a client, changes its origins, rotates its secret, registers a webhook and rotates its secret',
    { tags: ['postgres'], timeout: 600_000 },
    async () => {
      const created = await runCommand(
        env,
        'create',
        '--name',
        'Tola Stores',
        '--origin',
        'https://shop.tola.example',
      );
      expect(created.stderr).toContain(
        process.env.DATABASE_URL
          ? '(through PostgreSQL)'
          : `(through the running server (pid ${process.pid}))`,
      );
      expect(created.status).toBe(0);
      const clientId = field(created.stdout, 'clientId');
      const secret = field(created.stdout, 'secret');
      expect(clientId).toMatch(/^cli_/);
      const read = await readClient(basic(clientId, secret));
      expect(read.statusCode).toBe(200);
      expect(read.json().allowedOrigins).toEqual(['https://shop.tola.example']);

      const origins = await runCommand(
        env,
        'origins',
        '--client',
        clientId,
        '--add',
        'https://staging.tola.example',
        '--remove',
        'https://shop.tola.example',
      );
      expect(origins.status).toBe(0);
      expect(field(origins.stdout, 'allowedOrigins')).toBe('https://staging.tola.example');
      expect((await readClient(basic(clientId, secret))).json().allowedOrigins).toEqual([
        'https://staging.tola.example',
      ]);

      const rotated = await runCommand(
        env,
        'rotate-secret',
        '--client',
        clientId,
        '--grace-hours',
        '1',
      );
      expect(rotated.status).toBe(0);
      const newSecret = field(rotated.stdout, 'secret');
      expect(newSecret).toMatch(/^sk_/);
      expect(newSecret).not.toBe(secret);
      const until = Date.parse(field(rotated.stdout, 'previousSecretValidUntil'));
      expect(Math.abs(until - (Date.now() + 3_600_000))).toBeLessThan(60_000);
      // Both secrets work during the grace period.
      expect((await readClient(basic(clientId, newSecret))).statusCode).toBe(200);
      expect((await readClient(basic(clientId, secret))).statusCode).toBe(200);

      // An address, not a name: on PostgreSQL the command checks it itself, with no test DNS.
      const hookUrl = `https://${PUBLIC_TEST_ADDRESS}/hooks`;
      const webhook = await runCommand(env, 'webhook', '--client', clientId, '--url', hookUrl);
      expect(webhook.status).toBe(0);
      expect(field(webhook.stdout, 'secret')).toMatch(/^whsec_/);
      const listed = await app.inject({
        method: 'GET',
        url: '/api/v1/webhooks',
        headers: { authorization: basic(clientId, newSecret) },
      });
      expect(listed.json().webhooks).toEqual([expect.objectContaining({ url: hookUrl })]);

      const webhookId = field(webhook.stdout, 'id');
      const rotatedHook = await runCommand(
        env,
        'webhook-rotate-secret',
        '--client',
        clientId,
        '--webhook',
        webhookId,
      );
      expect(rotatedHook.status).toBe(0);
      expect(field(rotatedHook.stdout, 'id')).toBe(webhookId);
      expect(field(rotatedHook.stdout, 'secret')).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(field(rotatedHook.stdout, 'secret')).not.toBe(field(webhook.stdout, 'secret'));
      const overlapEnds = Date.parse(field(rotatedHook.stdout, 'previousSecretValidUntil'));
      expect(Math.abs(overlapEnds - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);

      const shown = await runCommand(env, 'show', '--client', clientId);
      expect(shown.status).toBe(0);
      expect(field(shown.stdout, 'allowedOrigins')).toBe('https://staging.tola.example');
      expect(shown.stdout).not.toContain('sk_');
    },
  );

  it('says so when the client does not exist, or an input is not valid', async () => {
    const unknown = await runCommand(env, 'rotate-secret', '--client', 'cli_nobody');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim()).toBe('No client has this client id');
    const badOrigin = await runCommand(
      env,
      'create',
      '--name',
      'X',
      '--origin',
      'https://x.example,https://y.example',
    );
    expect(badOrigin.status).not.toBe(0);
    expect(badOrigin.stderr).toContain(
      `origins.0: ${webOriginProblem('https://x.example,https://y.example')}`,
    );
    const wildcard = await runCommand(
      env,
      'origins',
      '--client',
      'cli_nobody',
      '--add',
      'https://*.example',
    );
    expect(wildcard.status).not.toBe(0);
    expect(wildcard.stderr).toContain(`add.0: ${webOriginProblem('https://*.example')}`);
  }, 600_000);
});

describe('client commands with no server running (PGlite)', () => {
  const quietDir = path.join(dataDir, 'stopped');
  // The data directory of a server that has stopped, started from the build's template as
  // `npm start` starts one: the command finds its database made and migrated, where on a new
  // directory it would first run initdb and every migration (5 s of CPU where it takes 1.2).
  beforeAll(async () => {
    const made = await openDatabase({
      kind: 'pglite',
      dataDir: quietDir,
      template: inject('pgliteTemplate'),
    });
    await made.close();
  }, 600_000);

  it('open the data directory themselves; the credentials they print authenticate', async () => {
    const result = await runCommand(
      { DATA_DIR: quietDir },
      'create',
      '--name',
      'Tola Stores',
      '--origin',
      'http://localhost:8080',
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`(through PGlite in ${quietDir})`);
    const clientId = field(result.stdout, 'clientId');
    const secret = field(result.stdout, 'secret');
    const database = await openDatabase({ kind: 'pglite', dataDir: quietDir });
    try {
      await expect(
        authenticateClient(database.db, clientId, secret, new Date()),
      ).resolves.toMatchObject({ clientId, secret: 'current' });
      await expect(
        authenticateClient(database.db, clientId, `${secret}x`, new Date()),
      ).rejects.toThrow('Invalid client credentials');
    } finally {
      await database.close();
    }
  }, 600_000);

  it('explain their usage', async () => {
    const missingName = await runCommand(
      { DATA_DIR: quietDir },
      'create',
      '--origin',
      'https://x.example',
    );
    expect(missingName.status).toBe(2);
    expect(missingName.stderr).toContain('Usage: npm run client:create -- --name');
    const noCommand = await runCommand({ DATA_DIR: quietDir }, 'delete');
    expect(noCommand.status).toBe(2);
    expect(noCommand.stderr).toContain('Commands: create, show, rotate-secret, origins, webhook');
  }, 600_000);
});

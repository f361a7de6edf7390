// `npm run client:create`: creates a merchant client and prints its credentials once.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/database';
import { allowedOriginsOf, authenticateClient } from './services/merchant-clients';

const dataDir = mkdtempSync(path.join(tmpdir(), 'consent-client-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (...args: string[]) => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/client-create.ts', ...args], {
    env,
    encoding: 'utf8',
  });
};

describe('client:create', () => {
  it('prints credentials that authenticate, with the registered origins', async () => {
    const result = run(
      '--name',
      'Tola Stores',
      '--origin',
      'https://shop.tola.example/pay',
      '--origin',
      'http://localhost:8080',
    );
    expect(result.status).toBe(0);
    const clientId = /clientId:\s+(\S+)/.exec(result.stdout)?.[1] ?? '';
    const secret = /secret:\s+(\S+)/.exec(result.stdout)?.[1] ?? '';
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await expect(authenticateClient(database.db, clientId, secret)).resolves.toMatchObject({
        clientId,
      });
      await expect(authenticateClient(database.db, clientId, `${secret}x`)).rejects.toThrow(
        'Invalid client credentials',
      );
      expect(await allowedOriginsOf(database.db, clientId)).toEqual([
        'https://shop.tola.example',
        'http://localhost:8080',
      ]);
    } finally {
      await database.close();
    }
  }, 30_000);

  it('explains its usage when the name is missing', () => {
    const result = run('--origin', 'https://x.example');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Usage: npm run client:create -- --name');
  });

  it('refuses an origin that is not http(s)', () => {
    const result = run('--name', 'X', '--origin', 'ftp://files.example');
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('Origin must be http or https: ftp://files.example');
  });
});

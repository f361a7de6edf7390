// The secrets the server keeps in its database, sealed with SECRETS_KEY (docs/operations.md, "The
// data directory and the server secrets"): the rows hold no secret in clear, a start with the key
// seals what an earlier start left in clear, everything signed or sealed before still opens after a
// restart with the key, and a start with another key or none is refused with one clear line. The
// database is PGlite on disk, so that a restart is a new process's opening of the same files.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { TEncryptedCard } from '../../domain/schemas/card';
import { buildApp } from '../app';
import { openDatabase, type TDatabase } from '../db/database';
import { serverSecrets } from '../db/schema';
import { signUp, testPhone } from '../testing/identity';
import { encryptedCard } from '../testing/payments';
import { createTestClient, testClock, testConfig } from '../testing/test-app';
import { decryptCard } from '../services/payments/card-encryption-keys';
import { storedSecret } from './server-secrets';

const dataDir = mkdtempSync(path.join(tmpdir(), 'server-secrets-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const KEY = randomBytes(32).toString('base64');
const CARD = { number: '4084080000000003', expiry: '12/30', cvv: '408', pin: '1234' };

/** The app on the data directory, as a start with `env` makes it. */
async function startWith(env: Record<string, string>) {
  const database: TDatabase = await openDatabase({
    kind: 'pglite',
    dataDir,
    template: inject('pgliteTemplate'),
  });
  try {
    const app = await buildApp({
      config: testConfig(env),
      database,
      logger: false,
      webhookDelivery: 'manual',
    });
    await app.ready();
    return {
      app,
      database,
      async stop() {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

const rows = (database: TDatabase) => database.db.select().from(serverSecrets);

/** What one start left for the next to check: a payer's token, a merchant, a sealed card. */
type TMade = { token: string; authorization: string; card: TEncryptedCard; clear: string[] };

async function expectStillWorks(
  started: Awaited<ReturnType<typeof startWith>>,
  made: TMade,
): Promise<void> {
  const me = await started.app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${made.token}` },
  });
  expect(me.statusCode).toBe(200);
  const consents = await started.app.inject({
    method: 'GET',
    url: '/api/v1/consents',
    headers: { authorization: made.authorization },
  });
  expect(consents.statusCode).toBe(200);
  await expect(
    decryptCard(started.database.db, testClock(new Date()), made.card, 'required'),
  ).resolves.toMatchObject({ number: CARD.number, cvv: CARD.cvv });
}

describe('server secrets and SECRETS_KEY', () => {
  let earlier: TMade;

  it('are sealed at the first start with the key: no row holds a secret in clear, and what was signed before still opens', async () => {
    const clearStart = await startWith({});
    const { token } = await signUp(clearStart.app, testPhone());
    const { authorization } = await createTestClient(clearStart.database, { name: 'Tola Stores' });
    const card = await encryptedCard(clearStart.app, CARD);
    const clear = (await rows(clearStart.database)).map((row) => row.value);
    // Without the key, as before: the token key, the card-key seal, the client-secret key.
    expect(clear.length).toBeGreaterThanOrEqual(3);
    await clearStart.stop();
    earlier = { token, authorization, card, clear };

    const sealedStart = await startWith({ SECRETS_KEY: KEY });
    try {
      const stored = await rows(sealedStart.database);
      expect(stored).toHaveLength(clear.length);
      for (const { value } of stored) {
        expect(value).toMatch(/^sealed:v1\.[\w-]+$/);
        for (const secret of clear) expect(value).not.toContain(secret);
      }
      await expectStillWorks(sealedStart, earlier);
    } finally {
      await sealedStart.stop();
    }
  }, 600_000);

  it('makes new secrets sealed, and everything still opens after a restart with the key', async () => {
    const first = await startWith({ SECRETS_KEY: KEY });
    const before = (await rows(first.database)).length;
    const made = await storedSecret(first.database.db, 'a-secret-made-now');
    await first.stop();

    const again = await startWith({ SECRETS_KEY: KEY });
    try {
      const stored = await rows(again.database);
      expect(stored).toHaveLength(before + 1);
      for (const { value } of stored) {
        expect(value).toMatch(/^sealed:/);
        for (const secret of [...earlier.clear, made]) expect(value).not.toContain(secret);
      }
      await expect(storedSecret(again.database.db, 'a-secret-made-now')).resolves.toBe(made);
      await expectStillWorks(again, earlier);
    } finally {
      await again.stop();
    }
  }, 600_000);

  it('refuses to start with another key, or with none, in one clear line', async () => {
    await expect(startWith({ SECRETS_KEY: randomBytes(32).toString('hex') })).rejects.toThrow(
      /^SECRETS_KEY does not open the server secrets in this database: it is not the key they were sealed with\.$/,
    );
    await expect(startWith({})).rejects.toThrow(
      /^The server secrets in this database are sealed: set SECRETS_KEY to the key they were sealed with\.$/,
    );
  }, 600_000);
});

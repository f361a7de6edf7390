// Idempotency-Key on POST /api/v1/consents: a key answers its first request again, refuses another
// request, is per client, holds under concurrency, and keys recorded before fingerprints existed
// keep working.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../domain/errors';
import { buildApp } from '../app';
import { openDatabase, type TDatabase } from '../db/database';
import { consents, dataSharingItems, idempotencyKeys, payments } from '../db/schema';
import { createTestClient, startTestApp, testConfig } from '../testing/test-app';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let client: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  ctx = await startTestApp();
  client = await createTestClient(ctx.database, { name: 'Mama Put Foods' });
});
afterAll(() => ctx.close());

const body = {
  payments: [
    { type: 'immediate', amount: 250_000, narration: 'Order 17' },
    {
      type: 'future',
      amount: 100_000,
      amountType: 'fixed',
      narration: 'Subscription',
      frequency: 'monthly',
      interval: 1,
      dueDate: '2027-01-01T09:00:00.000Z',
    },
  ],
  dataSharing: { bvnData: true, ninData: ['nin', 'photo'] },
};
/** Another request: one payment, of another amount. */
const otherBody = { ...body, payments: [{ ...body.payments[0], amount: 999_900 }] };

let keySeq = 0;
const newKey = () => `order-${Date.now()}-${(keySeq += 1)}`;

const post = (
  payload: unknown,
  key: string | undefined,
  authorization: string = client.authorization,
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization, ...(key ? { 'idempotency-key': key } : {}) },
    payload: payload as object,
  });

const countRows = async () => {
  const [row] = await ctx.database.db
    .select({
      consents: sql<number>`(select count(*)::int from ${consents})`,
      payments: sql<number>`(select count(*)::int from ${payments})`,
      items: sql<number>`(select count(*)::int from ${dataSharingItems})`,
    })
    .from(sql`(select 1) as one`);
  return row;
};

/** The same JSON with the keys of every object in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  }
  return value;
}

describe('Idempotency-Key on POST /api/v1/consents', () => {
  it('refuses the same key with a different body with 409 IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
    const key = newKey();
    expect((await post(body, key)).statusCode).toBe(201);
    const before = await countRows();

    const reused = await post(otherBody, key);

    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toEqual(errorBody('IDEMPOTENCY_KEY_REUSED'));
    expect(reused.json().error.message).toBe(
      'This Idempotency-Key was already used with a different request',
    );
    expect(await countRows()).toEqual(before);
  });

  it('fingerprints the request, not its text: keys in another order match, a changed nested value does not', async () => {
    const key = newKey();
    const first = await post(body, key);
    const before = await countRows();

    const reordered = await post(reverseKeys(body), key);
    const changed = await post(
      { ...body, dataSharing: { ...body.dataSharing, bvnData: false } },
      key,
    );

    expect(first.statusCode).toBe(201);
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json().consentId).toBe(first.json().consentId);
    expect(reordered.json().expiresAt).toBe(first.json().expiresAt);
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toEqual(errorBody('IDEMPOTENCY_KEY_REUSED'));
    expect(await countRows()).toEqual(before);
  });

  it(
    'lets 20 concurrent requests with one key create one consent: its body gets it back, the other body 409',
    { tags: ['postgres'] },
    async () => {
      const key = newKey();
      const before = await countRows();
      const bodies = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? body : otherBody));

      const answers = await Promise.all(bodies.map((b) => post(b, key)));

      const outcome = answers.map(
        (a) => `${a.statusCode} ${a.json().consentId ?? a.json().error.code}`,
      );
      expect(outcome.filter((o) => o.startsWith('201'))).toHaveLength(1);
      const winner = outcome.findIndex((o) => o.startsWith('201'));
      const consentId = answers[winner]?.json().consentId;
      expect(outcome).toEqual(
        bodies.map((b, i) =>
          i === winner
            ? `201 ${consentId}`
            : b === bodies[winner]
              ? `200 ${consentId}`
              : '409 IDEMPOTENCY_KEY_REUSED',
        ),
      );
      expect((await countRows())?.consents).toBe((before?.consents ?? 0) + 1);
    },
  );

  it('keeps keys per client: another client may use the same key with another body', async () => {
    const other = await createTestClient(ctx.database, { name: 'Suya Spot' });
    const key = newKey();
    const before = await countRows();

    const mine = await post(body, key);
    const theirs = await post(otherBody, key, other.authorization);
    const mineWithTheirBody = await post(otherBody, key);

    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().consentId).not.toBe(mine.json().consentId);
    expect(mineWithTheirBody.statusCode).toBe(409);
    expect((await countRows())?.consents).toBe((before?.consents ?? 0) + 2);
  });

  it('honours a key recorded before fingerprints (NULL fingerprint) with its first consent', async () => {
    const first = await post(body, undefined);
    expect(first.statusCode).toBe(201);
    const { consentId, expiresAt } = first.json();
    const key = newKey();
    await ctx.database.db.insert(idempotencyKeys).values({
      scope: `consents.create:${client.clientId}`,
      key,
      fingerprint: null,
      response: { consentId, expiresAt },
    });
    const before = await countRows();

    const retry = await post(otherBody, key);

    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ success: true, consentId, expiresAt });
    expect(await countRows()).toEqual(before);
  });
});

// ---- Upgrading a database whose consents carry their keys (before migration 0002) ----

const migrationsFolder = fileURLToPath(new URL('../db/migrations', import.meta.url));

/** A migrations folder holding only the migrations before 0002_idempotency. */
function migrationsBeforeIdempotency(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: Array<{ idx: number; tag: string }> };
  journal.entries = journal.entries.filter((entry) => entry.idx < 2);
  writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries) {
    copyFileSync(path.join(migrationsFolder, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  }
  return folder;
}

type TOldDatabase = {
  /** Runs statements on the database as it was before 0002, then lets go of it. */
  seed(statements: string[]): Promise<void>;
  /** Opens it the way the server does, which applies the pending migrations. */
  open(): Promise<TDatabase>;
  remove(): Promise<void>;
};

/** A database migrated up to 0001 only: PGlite on disk, or a PostgreSQL database of its own. */
async function databaseBeforeIdempotency(): Promise<TOldDatabase> {
  const oldMigrations = migrationsBeforeIdempotency();
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-'));
    return {
      async seed(statements) {
        const client = new PGlite(path.join(dataDir, 'pglite'));
        await migratePglite(drizzlePglite(client), { migrationsFolder: oldMigrations });
        for (const statement of statements) await client.query(statement);
        await client.close();
      },
      open: () => openDatabase({ kind: 'pglite', dataDir }),
      async remove() {
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(oldMigrations, { recursive: true, force: true });
      },
    };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const own = new URL(url);
  own.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const connection = new pg.Client({ connectionString: url });
    await connection.connect();
    await connection.query(statement);
    await connection.end();
  };
  await admin(`create database ${name}`);
  return {
    async seed(statements) {
      const pool = new pg.Pool({ connectionString: own.toString() });
      await migratePg(drizzlePg(pool), { migrationsFolder: oldMigrations });
      for (const statement of statements) await pool.query(statement);
      await pool.end();
    },
    open: () => openDatabase({ kind: 'postgres', url: own.toString() }),
    async remove() {
      await admin(`drop database if exists ${name} with (force)`);
      rmSync(oldMigrations, { recursive: true, force: true });
    },
  };
}

describe('migration 0002_idempotency', () => {
  it(
    'keeps the keys consents carried: a retry after the upgrade answers 200 and the old consent',
    { tags: ['postgres'], timeout: 600_000 },
    async () => {
      const old = await databaseBeforeIdempotency();
      try {
        await old.seed([
          `insert into merchants (id, name, primary_colour, primary_text, secondary_colour, secondary_text)
           values ('mer_old', 'Old Merchant', '#000000', '#ffffff', '#eeeeee', '#111111')`,
          `insert into api_clients (client_id, merchant_id, secret_hash)
           values ('cli_old', 'mer_old', 'set below')`,
          `insert into consents (id, merchant_id, client_id, expires_at, idempotency_key)
           values ('cns_old', 'mer_old', 'cli_old', '2030-05-06T07:08:09.123Z', 'order-from-before')`,
        ]);
        const database = await old.open();
        const app = await buildApp({ config: testConfig(), database, logger: false });
        try {
          // The old client gets the hash of a known secret (a new client's) to sign the retry with.
          const secret = 'sk_old_client_secret';
          const fresh = await createTestClient(database, { secret });
          await database.db.execute(sql`
          update api_clients set secret_hash = (
            select secret_hash from api_clients where client_id = ${fresh.clientId}
          ) where client_id = 'cli_old'`);
          const [kept] = await database.db.select().from(idempotencyKeys);
          expect(kept).toMatchObject({
            scope: 'consents.create:cli_old',
            key: 'order-from-before',
            fingerprint: null,
            response: { consentId: 'cns_old', expiresAt: '2030-05-06T07:08:09.123Z' },
          });

          const retry = await app.inject({
            method: 'POST',
            url: '/api/v1/consents',
            headers: {
              authorization: `Basic ${Buffer.from(`cli_old:${secret}`).toString('base64')}`,
              'idempotency-key': 'order-from-before',
            },
            payload: body,
          });

          expect(retry.statusCode).toBe(200);
          expect(retry.json()).toMatchObject({
            consentId: 'cns_old',
            expiresAt: '2030-05-06T07:08:09.123Z',
          });
        } finally {
          await app.close();
          await database.close();
        }
      } finally {
        await old.remove();
      }
    },
  );
});

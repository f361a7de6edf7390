// Queries prepared once and run on the pool or inside a transaction (prepared-queries.ts), on the
// database the server tests run on (PGlite, or PostgreSQL with DATABASE_URL).
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-app';
import type { TDatabase, TDb } from './database';
import { serverSecrets } from './schema';
import { preparedQuery } from './prepared-queries';

let database: TDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

let builds = 0;
const secretNamed = (db: TDb) =>
  preparedQuery(db, 'test_secret_named', (on) => {
    builds += 1;
    return on
      .select({ value: serverSecrets.value })
      .from(serverSecrets)
      .where(eq(serverSecrets.name, sql.placeholder('name')))
      .prepare('test_secret_named');
  });

describe('a prepared query', () => {
  it('is built once, and runs inside a transaction on its connection', async () => {
    const { db } = database;
    expect(await secretNamed(db).execute({ name: 'prepared.a' })).toEqual([]);
    const seenInside = await db.transaction(async (tx) => {
      await tx.insert(serverSecrets).values({ name: 'prepared.a', value: 'inside' });
      // Not committed: only the transaction's own connection sees the row.
      return secretNamed(tx).execute({ name: 'prepared.a' });
    });
    expect(seenInside).toEqual([{ value: 'inside' }]);
    expect(await secretNamed(db).execute({ name: 'prepared.a' })).toEqual([{ value: 'inside' }]);
    expect(builds).toBe(1);
  });

  it('sees nothing a rolled-back transaction wrote through it', async () => {
    const { db } = database;
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(serverSecrets).values({ name: 'prepared.b', value: 'undone' });
        expect(await secretNamed(tx).execute({ name: 'prepared.b' })).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await secretNamed(db).execute({ name: 'prepared.b' })).toEqual([]);
  });

  it('refuses a builder that does not prepare', () => {
    expect(() =>
      preparedQuery(database.db, 'test_not_prepared', (on) => on.select().from(serverSecrets)),
    ).toThrow('not a prepared query');
  });
});

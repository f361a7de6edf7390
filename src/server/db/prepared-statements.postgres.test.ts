// @module-tag postgres
// The request pool's statement cache (database.ts PreparedStatementsClient): a statement with
// values is prepared by name on its connection once, and run by that name after; through a
// transaction pooler (DATABASE_POOL_URL) nothing is named (pooled-connections.postgres.test.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../testing/server-process';
import { openDatabase, rowsOf, type TDatabase } from './database';

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: TDatabase;
beforeAll(async () => {
  scratch = await scratchDatabase('test_prepared');
  database = await openDatabase({ kind: 'postgres', url: scratch.url });
});
afterAll(async () => {
  await database?.close();
  await scratch?.drop();
});

describe('the request pool on PostgreSQL', () => {
  it('prepares a statement with values once on its connection, and runs it by name after', async () => {
    const text = 'select $1::int + 1 as next';
    const prepared = await database.db.transaction(async (tx) => {
      // One connection for the transaction: the statement runs there three times.
      for (const value of [1, 2, 3]) {
        const [row] = rowsOf<{ next: number }>(
          await tx.execute(sql`select ${value}::int + 1 as next`),
        );
        expect(row?.next).toBe(value + 1);
      }
      return rowsOf<{ name: string; statement: string }>(
        await tx.execute(
          sql`select name, statement from pg_prepared_statements where statement = ${text}`,
        ),
      );
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.name).toMatch(/^prepared_\d+$/);
  });
});

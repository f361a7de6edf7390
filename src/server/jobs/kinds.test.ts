// Kinds the app had and has no more (docs/jobs.md "Kinds"): their queues, and the jobs an older
// version left in them, are deleted when the engine starts, so nothing waits there for no one.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../db/database';
import { openTestDatabase } from '../testing/test-app';
import { JOBS_SCHEMA, jobEngine, type TJobKind } from './engine';
import { RETIRED_KINDS } from './kinds';

let database: TDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const queuesNamed = async (prefix: string) => {
  const result = await database.db.execute(
    sql`select name from ${sql.raw(JOBS_SCHEMA)}.queue where name like ${`${prefix}%`}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    name: string;
  }[];
  return rows.map((row) => row.name).sort();
};

const engineOf = (kinds: TJobKind[], retired: readonly string[] = []) =>
  jobEngine({ database, kinds, retired, works: () => false, onError: () => undefined });

describe('retired kinds', () => {
  it('delete the BVN code’s own SMS kind, which the BVN registry replaced, at start', async () => {
    const older = engineOf([
      {
        name: 'sms.bvn-code',
        retry: { limit: 1, delaySeconds: 1, maxDelaySeconds: 1 },
        run: async () => ({ done: true }),
      },
    ]);
    await older.start();
    await database.db.transaction((tx) => older.enqueue(tx, 'sms.bvn-code', { codeId: 'bvc_1' }));
    await older.stop();
    expect(await queuesNamed('sms.bvn-code')).toEqual(['sms.bvn-code', 'sms.bvn-code.dead']);

    expect(RETIRED_KINDS).toContain('sms.bvn-code');
    const current = engineOf([], RETIRED_KINDS);
    await current.start();
    expect(await queuesNamed('sms.bvn-code')).toEqual([]);
    await current.stop();
  });
});

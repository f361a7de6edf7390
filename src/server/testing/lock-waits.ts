// Whether a statement waits for a lock another transaction holds: what a test of two transactions
// at once on PostgreSQL waits for (expect.poll), rather than a guessed time, before it lets the
// holder go on.
import { sql } from 'drizzle-orm';
import { rowsOf, type TDb } from '../db/database';

/** The statements of the database that wait for a lock another transaction holds. */
export async function statementsWaitingForALock(db: TDb): Promise<number> {
  const rows = rowsOf<{ waiting: number }>(
    await db.execute(sql`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`),
  );
  return rows[0]?.waiting ?? 0;
}

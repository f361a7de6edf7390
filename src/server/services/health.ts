import { sql } from 'drizzle-orm';
import type { TDb } from '../db/database';

/** Asks the database the smallest question; throws when it does not answer. */
export async function pingDatabase(db: TDb): Promise<void> {
  await db.execute(sql`select 1`);
}

import { and, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { TDb } from '../db/database';

/** A table whose rows a periodic job claims: it has an `id`. */
type TClaimable = PgTable & { id: PgColumn };

/** Which rows of `table` a claim takes, and what it writes on them. */
export type TClaim<TTable extends TClaimable> = {
  /** The rows due for the work. */
  due: SQL | undefined;
  /** What a claimed row must still be once locked (`due` when absent). */
  still?: SQL | undefined;
  /** The oldest first, by this column. */
  oldestBy: PgColumn;
  /** At most this many rows a claim. */
  limit: number;
  /** What the claim writes on each row: its stamp, so no other run takes it until due again. */
  set: PgUpdateSetSource<TTable>;
};

/**
 * Claims rows of `table` for work in one statement: up to `limit` of those due, oldest first,
 * skipping those another process holds (FOR UPDATE SKIP LOCKED), and stamps them as it takes
 * them, so processes share the work and never do a row at once. Answers the claimed rows.
 */
export function claimRows<TTable extends TClaimable>(
  db: TDb,
  table: TTable,
  claim: TClaim<TTable>,
): Promise<TTable['$inferSelect'][]> {
  // Read as a plain table: the select needs none of the claimed table's own typing.
  const rows: PgTable = table;
  const due = db
    .select({ id: table.id })
    .from(rows)
    .where(claim.due)
    .orderBy(claim.oldestBy)
    .limit(claim.limit)
    .for('update', { skipLocked: true });
  return db
    .update(table)
    .set(claim.set)
    .where(and(claim.still ?? claim.due, inArray(table.id, due)))
    .returning() as Promise<TTable['$inferSelect'][]>;
}

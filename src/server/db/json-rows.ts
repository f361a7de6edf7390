import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/*
 * A table's row carried as JSON inside a column of another query, so that a statement which runs
 * anyway reads it too (the completion's lock read takes its consent this way: a payment's
 * completion then sends no read of the consent of its own). Written as Drizzle's relational
 * queries write a joined row, an array of the columns' values in the table's order, and read back
 * as they read it: each column's own mapping from the driver's value (a timestamp's text to a
 * Date), so the row is the one a select of the table answers.
 */

/** The current row of `table` (or of its alias) as a JSON array of its columns' values. */
export function jsonRow(table: PgTable): SQL {
  return sql`json_build_array(${sql.join(Object.values(getTableColumns(table)), sql`, `)})`;
}

/** A row jsonRow wrote, as a select of `table` answers it. */
export function rowOfJson<T extends PgTable>(table: T, values: unknown[]): T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table));
  if (values.length !== columns.length) {
    throw new Error(`A row of ${columns.length} columns read as ${values.length} values`);
  }
  return Object.fromEntries(
    columns.map(([key, column], i) => {
      const value = values[i];
      return [key, value === null ? null : column.mapFromDriverValue(value)];
    }),
  );
}

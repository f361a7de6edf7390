import { getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TDb } from './database';

/*
 * A row inserted only where a condition holds, as one part of a larger statement: the condition
 * reads the statement's other parts (a locked row, a claim another part made), so a change and
 * what it waits on are one statement, not a transaction of several (bench/README.md "Statements
 * a payment"). PostgreSQL's INSERT ... SELECT ... WHERE: every column of the table in its order,
 * each value cast to its column's type (a SELECT's parameters have none of their own), a column
 * not given its default, as a plain insert would.
 */

type TValueOf<TTable extends PgTable> = {
  [K in keyof TTable['$inferInsert']]?: TTable['$inferInsert'][K] | SQL;
};

export function insertWhere<TTable extends PgTable>(
  db: TDb,
  table: TTable,
  values: TValueOf<TTable>,
  condition: SQL,
) {
  const given = values as Record<string, unknown>;
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const value = given[key];
    const type = sql.raw(column.getSQLType());
    if (is(value, SQL)) return value;
    if (value !== undefined) return sql`${sql.param(value, column)}::${type}`;
    if (column.defaultFn) return sql`${sql.param(column.defaultFn(), column)}::${type}`;
    if (is(column.default, SQL)) return column.default;
    if (column.default !== undefined) return sql`${sql.param(column.default, column)}::${type}`;
    return sql`null::${type}`;
  });
  return db.insert(table).select(sql`select ${sql.join(columns, sql`, `)} where ${condition}`);
}

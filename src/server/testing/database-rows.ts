// Every row a database holds, for the tests that search it for secrets (card-secrets.test.ts,
// terminal-secrets.test.ts, sms-secrets.test.ts): every table of every schema, ours, pg-boss's
// (`pgboss`, the jobs and their data) and Drizzle's, on PGlite and on PostgreSQL alike.
import { sql } from 'drizzle-orm';
import type { TDb } from '../db/database';

/** Both drivers answer raw SQL with `{ rows }`. */
async function rowsOf<T>(db: TDb, query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/**
 * Each table, as `schema.table`, with its rows as JSON text, one a line. A partition's rows are
 * listed under it and under its table: a secret is found in either.
 */
export async function everyRow(db: TDb): Promise<Map<string, string>> {
  const tables = await rowsOf<{ schema: string; name: string }>(
    db,
    sql`SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE'
          AND table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1, 2`,
  );
  const rows = new Map<string, string>();
  for (const { schema, name } of tables) {
    const found = await rowsOf<{ row: string }>(
      db,
      sql.raw(`SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t`),
    );
    rows.set(`${schema}.${name}`, found.map((r) => r.row).join('\n'));
  }
  return rows;
}

/** The tables (`schema.table`) whose rows hold `secret`. */
export const tablesHolding = (rows: Map<string, string>, secret: string): string[] =>
  [...rows].filter(([, text]) => text.includes(secret)).map(([table]) => table);

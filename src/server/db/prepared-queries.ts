import { sql, type SQL } from 'drizzle-orm';
import type { TDb } from './database';

/*
 * Queries Drizzle builds once per process instead of once per run. Building a query's SQL from
 * its builder (walking its tables, columns and conditions) cost more of the server's CPU than
 * sending it: a payment's few dozen statements spent about a fifth of the server's busy time
 * there (bench/README.md "Capacity"). Drizzle's `.prepare(name)` builds the text once, with
 * `sql.placeholder(name)` where each run's values go, but a prepared query is bound to the
 * connection it was prepared on: one prepared on the pool cannot run inside a transaction, and
 * one prepared inside a transaction would be built again by every transaction.
 *
 * `preparedQuery` keeps one prepared query per name for a database and its transactions (they
 * share Drizzle's dialect), and runs it on the connection of the `db` it is given: the pool, or
 * the transaction's own client. The name is also the statement's name on PostgreSQL, parsed once
 * per connection (db/database.ts); a transaction pooler's connections run it unnamed.
 */

/** What Drizzle's prepared queries (node-postgres and PGlite alike) hold: the connection used. */
type TBoundQuery = { client: unknown };

/** Drizzle's internals a prepared query is rebound with (stable across its drivers). */
type TDrizzleInternals = { dialect: object; session: { client: unknown } };

const internalsOf = (db: TDb) => db as unknown as TDrizzleInternals;

/** Prepared queries by dialect (a database and its transactions), then by name. */
const preparedByDialect = new WeakMap<object, Map<string, TBoundQuery>>();

/**
 * The query `build` makes (ending in `.prepare(name)`), built the first time `name` is asked for
 * on this database, and run on `db`'s connection: inside a transaction when `db` is one. Each
 * name must be one query shape: a second `build` under the same name is never called.
 */
export function preparedQuery<T extends object>(db: TDb, name: string, build: (db: TDb) => T): T {
  const { dialect, session } = internalsOf(db);
  let byName = preparedByDialect.get(dialect);
  if (!byName) {
    byName = new Map();
    preparedByDialect.set(dialect, byName);
  }
  let prepared = byName.get(name) as (T & TBoundQuery) | undefined;
  if (!prepared) {
    prepared = build(db) as T & TBoundQuery;
    if (!('client' in prepared)) throw new Error(`preparedQuery ${name}: not a prepared query`);
    byName.set(name, prepared);
  }
  if (prepared.client === session.client) return prepared;
  // The same query on another connection: a shallow copy that runs there.
  const rebound = Object.create(Object.getPrototypeOf(prepared) as object) as T & TBoundQuery;
  return Object.assign(rebound, prepared, { client: session.client });
}

/**
 * Each of `names` as the placeholder of its own name, for the values of an insert or an update
 * prepared once. The values go to the driver as they are (Drizzle's column encoding of a
 * placeholder cannot take a null date, and writes JSON null for a null JSON value): dates,
 * numbers, text and null as the driver sends them, objects as JSON.
 */
export function placeholdersFor<T extends string>(names: readonly T[]): Record<T, SQL> {
  const values = {} as Record<T, SQL>;
  for (const name of names) values[name] = sql`${sql.placeholder(name)}`;
  return values;
}

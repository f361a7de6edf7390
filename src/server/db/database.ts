import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type TDb = PgDatabase<PgQueryResultHKT, typeof schema>;

export type TDatabase = {
  db: TDb;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
};

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type TDatabaseOptions =
  | { kind: 'postgres'; url: string }
  /**
   * dataDir undefined keeps the database in memory (tests). template: a gzipped data directory
   * made by the build (scripts/build-server.ts), already initialised and migrated; a new data
   * directory starts as a copy of it instead of running initdb and every migration. Where the
   * file is missing the database is made from scratch, as before.
   */
  | { kind: 'pglite'; dataDir?: string; template?: string };

/** Where the build puts the PGlite template: beside the migrations it holds. */
export const PGLITE_TEMPLATE_FILE = 'pglite-template.tgz';

/** Opens the database and applies pending migrations before anything else may use it. */
export async function openDatabase(options: TDatabaseOptions): Promise<TDatabase> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection the server closed (a restart, a failover) is dropped by the pool and
    // the next query opens another; unheard, its error would stop the process.
    pool.on('error', (error) => {
      console.error(`PostgreSQL closed an idle connection (${error.message}); it will reconnect.`);
    });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return { db: db as unknown as TDb, kind: 'postgres', close: () => pool.end() };
  }
  let dataDir: string | undefined;
  let fresh = true;
  if (options.dataDir) {
    dataDir = path.join(options.dataDir, 'pglite');
    fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
    mkdirSync(dataDir, { recursive: true });
  }
  const template =
    fresh && options.template && existsSync(options.template)
      ? new Blob([readFileSync(options.template)])
      : undefined;
  const client = new PGlite(dataDir, template ? { loadDataDir: template } : {});
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as TDb, kind: 'pglite', close: () => client.close() };
}

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
import { makePrivate } from './data-dir';
import * as schema from './schema';

export type TDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/** What a notification listener is handed: the channel's payload text. */
export type TNotificationHandler = (payload: string) => void;

export type TDatabase = {
  db: TDb;
  kind: 'pglite' | 'postgres';
  /**
   * LISTEN on a channel: `handler` gets each payload NOTIFY sends there, after the notifying
   * transaction commits, from this process or any other on the same database. On PostgreSQL
   * the first listener opens one connection of its own for the process; PGlite is in-process.
   * Resolves once listening, with a function that stops it.
   */
  listen(channel: string, handler: TNotificationHandler): Promise<() => Promise<void>>;
  /**
   * Runs one statement on the driver itself, past Drizzle, and answers its rows as arrays of
   * column values: for the hottest read only (the page's consent read, where Drizzle's mapping
   * of each row cost more than the query). On PostgreSQL it is a named prepared statement,
   * parsed once per connection.
   */
  rows(statement: TRawStatement, values: unknown[]): Promise<unknown[][]>;
  /**
   * Runs `work` while this process holds the database-wide lock `name`, so server processes
   * starting together on one PostgreSQL take turns at what each start does once (seeding the
   * demo). On PostgreSQL a session advisory lock held on a connection of its own; PGlite is one
   * process's database, and `work` simply runs.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Where the job engine (jobs/engine.ts) connects: its own pool on PostgreSQL, the one PGlite. */
  engine: { connectionString: string } | { pglite: PGlite };
  close(): Promise<void>;
};

/**
 * `work` under the session advisory lock `name`, taken on a pooled connection kept for the
 * purpose (a dropped connection releases it): other processes asking for it wait their turn.
 */
async function withAdvisoryLock<T>(pool: pg.Pool, name: string, work: () => Promise<T>) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  } finally {
    client.release();
  }
}

/** A query's config as Drizzle and this module pass it (a plain object), or null. */
function plainQuery(config: unknown): { text?: unknown; name?: unknown; values?: unknown } | null {
  return typeof config === 'object' &&
    config !== null &&
    Object.getPrototypeOf(config) === Object.prototype
    ? config
    : null;
}

/**
 * A client for a transaction pooler (PgBouncer's pool_mode=transaction): each transaction may
 * run on another of its server connections, where a statement prepared by name on the last one
 * does not exist. Every statement goes unnamed: parsed at each run, as any ad hoc statement is.
 */
class UnnamedStatementsClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, ...rest] = args;
    const plain = plainQuery(config);
    const unnamed = plain && 'name' in plain ? { ...plain, name: undefined } : config;
    return (super.query as (...all: unknown[]) => never)(unnamed, ...rest);
  }
}

/** The most statement texts one process prepares by name; past it, new texts go unnamed. */
export const PREPARED_STATEMENTS_LIMIT = 2_000;

/** The name of each statement text this process prepares, the same on each of its connections. */
const statementNames = new Map<string, string>();

/** A statement text's name, or undefined once PREPARED_STATEMENTS_LIMIT texts have one. */
function statementName(text: string): string | undefined {
  const known = statementNames.get(text);
  if (known !== undefined || statementNames.size >= PREPARED_STATEMENTS_LIMIT) return known;
  const name = `prepared_${statementNames.size + 1}`;
  statementNames.set(text, name);
  return name;
}

/**
 * A client that prepares each statement with parameters once per connection (a statement cache,
 * as JDBC's and pgx's keep): PostgreSQL parses and plans its text the first time, and each later
 * run sends only the values. The texts are the application's own (Drizzle's and this module's),
 * a few hundred shapes; a statement without parameters (a migration, BEGIN) goes as it is.
 */
class PreparedStatementsClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, values, ...rest] = args;
    const plain = plainQuery(config);
    const withValues = Array.isArray(values) ? values : plain?.values;
    const named =
      plain &&
      plain.name === undefined &&
      typeof plain.text === 'string' &&
      Array.isArray(withValues) &&
      withValues.length > 0
        ? { ...plain, name: statementName(plain.text) }
        : config;
    return (super.query as (...all: unknown[]) => never)(named, values, ...rest);
  }
}

/** The rows of a raw statement (`db.execute(sql`…`)`): node-postgres and PGlite answer alike. */
export const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);

/** A statement for `TDatabase.rows`: its name must be unique in the process. */
export type TRawStatement = { name: string; text: string };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type TDatabaseOptions =
  /**
   * poolUrl: a transaction pooler in front of `url`'s database (DATABASE_POOL_URL). The request
   * pool connects there, with every statement unnamed; migrations and advisory locks take a
   * session of `url`'s, and so do LISTEN and the job engine.
   */
  | { kind: 'postgres'; url: string; poolUrl?: string | undefined }
  /**
   * dataDir undefined keeps the database in memory (tests). template: a gzipped data directory
   * made by the build (scripts/build-server.ts), already initialised and migrated; a new data
   * directory starts as a copy of it instead of running initdb and every migration. Where the
   * file is missing the database is made from scratch, as before. Its bytes instead of its path:
   * read already (and maybe unpacked), by a process that opens many databases from it.
   */
  | {
      kind: 'pglite';
      dataDir?: string;
      template?: string | Blob;
      runtime?: TPgliteRuntime;
    };

/**
 * PGlite's compiled WebAssembly module and its file-system bundle, made once and shared by the
 * databases one process opens (the tests, one per file): each would otherwise read both and
 * compile some 9 MB of WebAssembly again.
 */
export type TPgliteRuntime = { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob };

/** The folder below DATA_DIR that holds the PGlite database. */
export const PGLITE_FOLDER = 'pglite';

/** Where the build puts the PGlite template: beside the migrations it holds. */
export const PGLITE_TEMPLATE_FILE = 'pglite-template.tgz';

/**
 * The database a command run beside the server opens (npm run ledger:check, client,
 * refund:given-back): DATABASE_URL's PostgreSQL, else DATA_DIR's PGlite.
 */
export function openConfiguredDatabase(config: {
  databaseUrl: string | null | undefined;
  dataDir: string;
}): Promise<TDatabase> {
  return openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: config.dataDir },
  );
}

/** Opens the database and applies pending migrations before anything else may use it. */
export async function openDatabase(options: TDatabaseOptions): Promise<TDatabase> {
  if (options.kind === 'postgres') {
    const sessions = new pg.Pool({
      connectionString: options.url,
      max: options.poolUrl ? 2 : 10,
      Client: PreparedStatementsClient,
    });
    const pool = options.poolUrl
      ? new pg.Pool({ connectionString: options.poolUrl, max: 10, Client: UnnamedStatementsClient })
      : sessions;
    // An idle connection the server closed (a restart, a failover) is dropped by the pool and
    // the next query opens another; unheard, its error would stop the process.
    for (const each of new Set([sessions, pool])) {
      each.on('error', (error) => {
        console.error(
          `PostgreSQL closed an idle connection (${error.message}); it will reconnect.`,
        );
      });
    }
    const db = drizzlePg(pool, { schema });
    // Processes started together migrate one at a time: the first applies what is pending, the
    // others find nothing left to apply. On a session: a pooler would run the lock and the
    // migrations on other connections.
    await withAdvisoryLock(sessions, 'oya-consent:migrations', () =>
      migratePg(drizzlePg(sessions, { schema }), { migrationsFolder }),
    );
    const listener = postgresListener(options.url);
    return {
      db: db as unknown as TDb,
      kind: 'postgres',
      listen: (channel, handler) => listener.listen(channel, handler),
      async rows({ name, text }, values) {
        const result = await pool.query<unknown[]>({ name, text, values, rowMode: 'array' });
        return result.rows;
      },
      exclusive: (name, work) => withAdvisoryLock(sessions, `oya-consent:${name}`, work),
      engine: { connectionString: options.url },
      async close() {
        await listener.close();
        await pool.end();
        if (sessions !== pool) await sessions.end();
      },
    };
  }
  let dataDir: string | undefined;
  let fresh = true;
  if (options.dataDir) {
    dataDir = path.join(options.dataDir, PGLITE_FOLDER);
    fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  }
  const template = fresh ? templateBytes(options.template) : undefined;
  // The options object names the directory itself: `new PGlite(undefined, options)` drops the
  // options, and with them the template, without a word. No directory: in memory.
  const client = new PGlite({
    dataDir: dataDir ?? 'memory://',
    ...(template ? { loadDataDir: template } : {}),
    ...options.runtime,
  });
  if (template) await assertTemplateLoaded(client);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  // PGlite sets the modes of what it copies in and rewrites at opening itself, open to others
  // (data-dir.ts); what it writes later it makes 0600.
  if (dataDir) makePrivate(dataDir);
  return {
    db: db as unknown as TDb,
    kind: 'pglite',
    async listen(channel, handler) {
      const stop = await client.listen(channel, handler);
      return () => stop();
    },
    async rows({ text }, values) {
      const result = await client.query<unknown[]>(text, values, { rowMode: 'array' });
      return result.rows;
    },
    exclusive: (_name, work) => work(),
    engine: { pglite: client },
    close: () => client.close(),
  };
}

/** The template's bytes: read from its file, where that exists, unless read already. */
function templateBytes(template: string | Blob | undefined): Blob | undefined {
  if (!template) return undefined;
  if (typeof template !== 'string') return template;
  return existsSync(template) ? new Blob([readFileSync(template)]) : undefined;
}

/**
 * A database opened from the template holds its migrations' record; one without it was made by
 * initdb, and the template (a second of every start and every test file) was silently lost.
 */
async function assertTemplateLoaded(client: PGlite): Promise<void> {
  const { rows } = await client.query<{ found: string | null }>(
    `select to_regclass('drizzle.__drizzle_migrations')::text as found`,
  );
  if (!rows[0]?.found) {
    await client.close();
    throw new Error(
      'The PGlite template was given but not loaded: the database has no migrations.',
    );
  }
}

/**
 * One LISTEN connection for the process, opened by the first listener and shared by all: a
 * pooled connection would drop its LISTEN when returned. It reconnects after a failure and
 * listens again on every channel it had.
 */
function postgresListener(url: string) {
  const handlers = new Map<string, Set<TNotificationHandler>>();
  let client: Promise<pg.Client> | null = null;
  let closed = false;

  const connect = (): Promise<pg.Client> => {
    const next = new pg.Client({ connectionString: url });
    const ready = (async () => {
      await next.connect();
      next.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      next.on('error', (error) => {
        console.error(`The LISTEN connection failed (${error.message}); it will reconnect.`);
        client = null;
        if (!closed) setTimeout(() => void ensure().catch(() => undefined), 500);
      });
      for (const channel of handlers.keys()) await next.query(`LISTEN "${channel}"`);
      return next;
    })();
    ready.catch(() => {
      client = null;
    });
    return ready;
  };
  const ensure = () => (client ??= connect());

  return {
    async listen(channel: string, handler: TNotificationHandler) {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      const known = handlers.get(channel);
      const set = known ?? new Set<TNotificationHandler>();
      set.add(handler);
      handlers.set(channel, set);
      const connection = await ensure();
      if (!known) await connection.query(`LISTEN "${channel}"`);
      return async () => {
        set.delete(handler);
      };
    },
    async close() {
      closed = true;
      const open = client;
      client = null;
      if (open) await (await open.catch(() => null))?.end();
    },
  };
}

// PgBouncer in transaction mode in front of a test's PostgreSQL database, for the tests of
// DATABASE_POOL_URL (docs/deploy.md "Connections"). Debian's `pgbouncer` package (.ci/run
// installs it); run as its own child on a free port with a configuration made here.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, stopServerProcess } from './server-process';

const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';

export type TPgBouncer = {
  /** `target` with the pooler's address: what DATABASE_POOL_URL names. */
  url: string;
  /** Transactions the pooler has run on the target database so far. */
  transactions(): Promise<number>;
  stop(): Promise<void>;
};

/** Asks the pooler's admin console; it speaks the simple protocol only (no parameters). */
async function adminQuery(port: number, user: string, text: string) {
  const client = new pg.Client({ host: '127.0.0.1', port, user, database: 'pgbouncer' });
  await client.connect();
  try {
    return (await client.query<Record<string, string>>(text)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Starts PgBouncer with `poolSize` server connections per database, in transaction mode:
 * each transaction of a client may run on any of them. Resolves once it answers.
 */
export async function startPgBouncer(target: string, poolSize = 4): Promise<TPgBouncer> {
  if (!existsSync(PGBOUNCER)) {
    throw new Error(
      `No PgBouncer at ${PGBOUNCER}: apt-get install -y pgbouncer (.ci/run does), or PGBOUNCER=<path>`,
    );
  }
  const upstream = new URL(target);
  const user = decodeURIComponent(upstream.username) || 'postgres';
  const database = upstream.pathname.slice(1);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'consent-pgbouncer-'));
  // Run as root it drops to the postgres user (-u), who must read its files.
  chmodSync(dir, 0o755);
  writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 200',
      'stats_period = 1',
      'log_connections = 0',
      'log_disconnections = 0',
      'log_stats = 0',
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn(PGBOUNCER, [...asRoot, path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`${PGBOUNCER} exited (${code ?? signal}) before it answered`)),
    ),
  );
  exited.catch(() => undefined);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answered = await Promise.race([
      adminQuery(port, user, 'SHOW VERSION').then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    if (answered) break;
    if (Date.now() > deadline) throw new Error(`${PGBOUNCER} did not answer in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: Object.assign(new URL(target), { hostname: '127.0.0.1', port: String(port) }).toString(),
    async transactions() {
      const rows = await adminQuery(port, user, 'SHOW STATS');
      return Number(rows.find((row) => row.database === database)?.total_xact_count ?? 0);
    },
    stop: () => stopServerProcess(child, 'SIGTERM'),
  };
}

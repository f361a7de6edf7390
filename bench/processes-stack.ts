// The deployment bench/processes.ts measures (see there for how to install each piece): a
// database of its own on the PostgreSQL of BENCH_DATABASE_URL, a Redis key prefix of its own,
// server processes of the build (`node dist/server/main.mjs`), and nginx in front of them, run as
// this process's child with a generated configuration in a temporary directory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  freePort,
  printedOnceReady,
  scratchDatabase,
  stopServerProcess,
} from '../src/server/testing/server-process';
import { removeTestRedisKeys, TEST_REDIS_URL } from '../src/server/testing/redis';

export const ADMIN_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

/**
 * What every server process is started with beside its port, data directory, database and Redis.
 * The reconciler asks about a lost answer after 5 s rather than a minute, so that the kill test
 * ends in minutes; it runs every 2 s in each process. The bench itself, like nginx, is on
 * loopback: its payers name their own addresses in X-Forwarded-For (a payer per address, as
 * behind a real proxy), so the per-address limits on card charges count each payer alone.
 */
export const SERVER_ENV = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  TRUST_PROXY: '127.0.0.1',
  WEBHOOKS_ALLOW_PRIVATE: 'on',
  RECONCILE_INTERVAL_MS: '2000',
  RECONCILE_AFTER_MS: '5000',
  COLLECTION_INTERVAL_MS: '0',
};

type TServer = { child: ChildProcess; port: number };

/** A server process's ROLE (docs/deploy.md). */
export type TRole = 'all' | 'api' | 'worker';

export type TStack = Awaited<ReturnType<typeof startStack>>;

/** A child process's end, whatever it was. */
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/**
 * The database, the Redis prefix, nginx's port and directory. Nothing runs yet: `start(name)`
 * starts a server process, `route(names)` (re)starts nginx in front of those, `close()` stops
 * everything and drops the database and the Redis keys.
 */
export async function startStack() {
  process.env.DATABASE_URL = ADMIN_DATABASE_URL;
  const database = await scratchDatabase(`bench_processes_${process.pid}`);
  const redisPrefix = `bench-processes-${process.pid}:`;
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-processes-'));
  // nginx's workers run as another user when it is started by root: they must reach its folders.
  chmodSync(dir, 0o755);
  const nginxPort = await freePort();
  /** What the payer's page and passkeys see: the one address of the deployment. */
  const origin = `http://localhost:${nginxPort}`;
  /** Where the bench sends its requests: nginx, on loopback. */
  const base = `http://127.0.0.1:${nginxPort}`;
  const servers = new Map<string, TServer>();
  let nginx: ChildProcess | null = null;

  /** Starts server `name` with `role` (ROLE): a worker serves no route nginx would send it. */
  async function start(name: string, role: TRole = 'all'): Promise<void> {
    const port = await freePort();
    const dataDir = path.join(dir, `data-${name}-${port}`);
    mkdirSync(dataDir);
    const child = spawn(process.execPath, ['dist/server/main.mjs'], {
      env: {
        ...process.env,
        ...SERVER_ENV,
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: redisPrefix,
        PUBLIC_URL: origin,
        ROLE: role,
      },
    });
    const log = createWriteStream(path.join(dir, `server-${name}-${port}.log`));
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    await printedOnceReady(child, (output) =>
      output.includes(role === 'worker' ? 'Working on jobs: ' : 'Sign in: '),
    );
    servers.set(name, { child, port });
  }

  async function stop(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const server = servers.get(name);
    if (!server) return;
    servers.delete(name);
    await stopServerProcess(server.child, signal);
  }

  /** nginx in front of the servers `names`, on the same port each time. */
  async function route(names: string[]): Promise<void> {
    if (nginx) {
      nginx.kill('SIGQUIT');
      await exited(nginx);
    }
    const upstreams = names.map((name) => {
      const server = servers.get(name);
      if (!server) throw new Error(`no server ${name}`);
      return `    server 127.0.0.1:${server.port};`;
    });
    const conf = path.join(dir, 'nginx.conf');
    writeFileSync(
      conf,
      `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream consent_servers {
${upstreams.join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${nginxPort};
    location / {
      proxy_pass http://consent_servers;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`,
    );
    const check = spawnSync(
      NGINX,
      ['-t', '-q', '-p', dir, '-c', conf, '-e', `${dir}/nginx-error.log`],
      {
        encoding: 'utf8',
      },
    );
    if (check.status !== 0) throw new Error(`nginx refused its configuration: ${check.stderr}`);
    nginx = spawn(NGINX, ['-p', dir, '-c', conf, '-e', `${dir}/nginx-error.log`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    for (;;) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}`);
      const answer = await fetch(`${base}/api/health`).catch(() => null);
      if (answer?.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  return {
    origin,
    base,
    databaseUrl: database.url,
    /** Where nginx and the servers log, and the servers' data directories. */
    dir,
    start,
    stop,
    route,
    /** The last lines of every server's and nginx's log, to say why a run failed. */
    tails(): string {
      return readdirSync(dir)
        .filter((file) => file.endsWith('.log'))
        .map((file) => {
          const lines = readFileSync(path.join(dir, file), 'utf8').trim().split('\n');
          return `--- ${file}\n${lines.slice(-15).join('\n')}`;
        })
        .join('\n');
    },
    async close(): Promise<void> {
      await Promise.all([...servers.keys()].map((name) => stop(name)));
      if (nginx) {
        nginx.kill('SIGQUIT');
        await exited(nginx);
      }
      await database.drop();
      await removeTestRedisKeys(redisPrefix);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

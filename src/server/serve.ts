import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { providerRoles } from '../domain/capabilities';
import { buildApp } from './app';
import { loadConfig, type TConfig } from './config';
import { isLive } from './providers/registry';
import type { TCapabilityLine } from './providers/capability-lines';
import { makePrivate } from './db/data-dir';
import { openDatabase, PGLITE_FOLDER, PGLITE_TEMPLATE_FILE } from './db/database';
import { newOperatorToken, OPERATOR_FILE, operatorUrl, writeOperatorFile } from './operator-file';
import { FILES_FOLDER } from './services/forms/form-files';
import { seedDemo } from './services/demo/demo-seed';
import { activeTracing } from './observability/tracing';

// The server's start (docs/operations.md): main.ts loads this module once tracing has started.

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** The address actually bound, so the start line shows who can reach the server. */
function listeningOn(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') return String(address);
  return address.family === 'IPv6'
    ? `[${address.address}]:${address.port}`
    : `${address.address}:${address.port}`;
}

/** One line of the start per capability: its adapter, or `off` and why. */
const capabilityLine = (line: TCapabilityLine) =>
  `Capability ${line.capability}: ${line.state === 'on' ? inOrder(line) : 'off'}${line.note ? ` (${line.note})` : ''}`;

/** A capability's providers as the start says them: who serves, then who stands by. */
function inOrder({ capability, providers }: TCapabilityLine) {
  const { serving, standingBy } = providerRoles(capability, providers);
  const by = standingBy.length === 0 ? '' : ` (standing by: ${standingBy.join(', ')})`;
  return `${serving.join(', ')}${by}`;
}

/** Starts the server: what main.ts runs once tracing has started (or stayed off). */
export async function serve() {
  const config = loadConfig();
  // Whatever the shell's umask: what this process creates is its user's alone (DATA_DIR holds
  // the database, payers' uploads and the operator token; db/data-dir.ts).
  process.umask(0o077);
  const { changed } = makePrivate(config.dataDir, [PGLITE_FOLDER, FILES_FOLDER, OPERATOR_FILE]);
  if (changed > 0) {
    console.log(
      `DATA_DIR ${config.dataDir}: ${changed} files and folders were open to other users; they are now this user's only (0600, folders 0700).`,
    );
  }
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, poolUrl: config.databasePoolUrl }
      : // Run from the build (dist/server/main.mjs), a new data directory starts from the
        // build's template; run from source there is none, and initdb makes it.
        {
          kind: 'pglite',
          dataDir: config.dataDir,
          template: path.join(here, PGLITE_TEMPLATE_FILE),
        },
  );
  // On PGlite the client commands ask this process (operator-file.ts); on PostgreSQL they use
  // the database, and no operator token exists.
  const operatorToken = config.databaseUrl ? undefined : newOperatorToken();
  const app = await buildApp({
    config,
    database,
    webDir: path.join(root, 'dist/web'),
    collections: 'auto',
    reconciliation: 'auto',
    operatorToken,
  });
  // Processes starting together on one PostgreSQL seed it one at a time: the later ones find
  // the demo there and only print it.
  // A live key moves real money: no demo merchant is made there.
  // A worker serves no page: the demo is the serving processes' to make.
  const demo =
    isLive(config) || config.role === 'worker'
      ? []
      : await database.exclusive('demo-seed', () => seedDemo(database.db, config));
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const removeOperatorFile =
    operatorToken && address !== null && typeof address !== 'string'
      ? writeOperatorFile(config.dataDir, {
          pid: process.pid,
          url: operatorUrl(address),
          token: operatorToken,
        })
      : () => {};

  printStart(config, app, demo);

  const stop = async () => {
    removeOperatorFile();
    await app.close();
    await database.close();
    // The spans of the last requests leave before the process does.
    await activeTracing()?.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/** What the start prints: where it serves, its role, its capabilities, and where to begin. */
function printStart(
  config: TConfig,
  app: FastifyInstance,
  demo: readonly { label: string; url: string }[],
): void {
  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
  // An operator who opened webhooks to private networks sees it at every start.
  const webhooks = config.webhooksAllowPrivate
    ? ', WEBHOOKS_ALLOW_PRIVATE=on: webhooks may go to http:// and private addresses'
    : '';
  const role = config.role === 'all' ? '' : `, ROLE=${config.role}`;
  console.log(
    `Consent server ready on ${config.publicUrl} (listening on ${listeningOn(app)}, database: ${where}${webhooks}${role})`,
  );
  if (config.role === 'worker') {
    for (const line of app.appContext.capabilities) console.log(capabilityLine(line));
    console.log('Working on jobs: only /api/health, /api/health/ready and /metrics answer here');
    return;
  }
  if (config.smsProvider === 'sandbox' && !isLive(config)) {
    console.log(
      `Sandbox mode: SMS codes are not sent; anyone who can reach this server can read them at ${config.publicUrl}/sandbox/messages`,
    );
  }
  if (config.paymentProvider === 'sandbox') {
    console.log(
      `Sandbox network: payments move no real money; test cards, accounts and transfers at ${config.publicUrl}/sandbox`,
    );
  }
  if (config.paystack) {
    console.log(
      `Paystack ${config.paystack.mode} mode at ${config.paystack.baseUrl}: register ${config.publicUrl}/api/providers/paystack/notices as Paystack's webhook URL`,
    );
  }
  for (const line of app.appContext.capabilities) console.log(capabilityLine(line));
  for (const line of demo) console.log(`Demo consent, ${line.label}: ${line.url}`);
  console.log(`Sign in: ${config.publicUrl}/login`);
}

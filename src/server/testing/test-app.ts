// Server tests run on a real database: in-memory PGlite, started from the migrated template the
// test run made once (scripts/vitest-global-setup.ts), or a fresh PostgreSQL database of its own
// when DATABASE_URL is set (CI's server tests, `npm run test:postgres`).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type TAppOptions } from '../app';
import type { TClock } from '../clock';
import { loadConfig, type TConfig } from '../config';
import { openDatabase, type TDatabase, type TPgliteRuntime } from '../db/database';
import type { TSettlementPort } from '../providers/payments';
import { DEFAULT_RATE_LIMITS, type TRateLimits } from '../rate-limits';
import { testHostResolver } from './host-resolver';
import { checkAnswersAgainstOpenApi, webhookMismatches } from './openapi-answers';
import { checkLedger, ledgerProblems } from '../services/payments/ledger';
import {
  createMerchantClient,
  type TNewMerchantClient,
} from '../services/merchants/merchant-clients';

/**
 * A fresh database for one test file. On PostgreSQL `url` names it, so a test can open a second
 * connection to it as a second server process would.
 */
export async function openTestDatabase(): Promise<TDatabase & { url?: string }> {
  const url = process.env.DATABASE_URL;
  if (!url) return openDatabase({ kind: 'pglite', ...(await pgliteOfWorker()) });
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // A copy of the run's migrated template (scripts/vitest-global-setup.ts): its migrations are
  // found applied at opening.
  const template = inject('postgresTemplate');
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: own.toString() });
  return {
    ...database,
    url: own.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * One test database as two server processes behind a load balancer see it, open for the tests of
 * the describe (or file) that calls this: on PostgreSQL a second handle to the first, with its own
 * pool and LISTEN connection; on PGlite, one process's database, the same handle twice.
 */
export function databaseOfTwoServers(): {
  first: Awaited<ReturnType<typeof openTestDatabase>>;
  second: TDatabase;
} {
  const servers = {} as ReturnType<typeof databaseOfTwoServers>;
  beforeAll(async () => {
    servers.first = await openTestDatabase();
    const { url } = servers.first;
    servers.second = url ? await openDatabase({ kind: 'postgres', url }) : servers.first;
  });
  afterAll(async () => {
    if (servers.second !== servers.first) await servers.second.close();
    await servers.first.close();
  });
  return servers;
}

/**
 * What every PGlite database of this worker opens with, made at its first: the template read and
 * unpacked, and PGlite's WebAssembly compiled and its file bundle read. The worker's test files
 * share them (`isolate: false`), where each file's database read and unpacked the template,
 * compiled the module and read the bundle again, a good part of each file's second or more of
 * opening.
 */
let workerPglite: Promise<{ template: Blob; runtime: TPgliteRuntime }> | undefined;
function pgliteOfWorker() {
  workerPglite ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, bundle, template] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')),
      readFile(path.join(dist, 'pglite.data')),
      readFile(inject('pgliteTemplate')),
    ]);
    return {
      template: new Blob([gunzipSync(template)]),
      runtime: { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) },
    };
  })();
  return workerPglite;
}

/** The tests' configuration; `env` adds or replaces variables for one test's app. */
export const testConfig = (env: Record<string, string> = {}): TConfig =>
  loadConfig({
    PORT: '3999',
    PUBLIC_URL: 'http://localhost:3999',
    LOG_LEVEL: 'silent',
    // The sandbox's 'timeout' card gives up at once in tests.
    SANDBOX_CARD_TIMEOUT_MS: '20',
    ...env,
  });

/** A clock that stands still until the test moves it. */
export function testClock(start: Date | string): TClock & { advance(ms: number): void } {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
  };
}

/**
 * The test app's rate limits: every one so high that no test meets it. A test about a limit asks
 * for the real ones (`rateLimits: DEFAULT_RATE_LIMITS`) or a small one of its own.
 */
export const RELAXED_RATE_LIMITS = Object.fromEntries(
  Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, { max: 100_000, windowMs: 60_000 }]),
) as TRateLimits;

/**
 * The real app on a fresh database; close() releases both. Its rate limits are
 * RELAXED_RATE_LIMITS unless `rateLimits` replaces some, and its DNS is testHostResolver(). A test
 * may hand in its own clock, SMS adapter, DNS or event bus (the app's context is
 * `app.appContext`). Every answer it sends and every webhook event it writes is checked against
 * its OpenAPI document (testing/openapi-answers.ts): close() fails on any that disagrees.
 */
export async function startTestApp(
  options: Pick<
    TAppOptions,
    | 'rateLimits'
    | 'clock'
    | 'providers'
    | 'events'
    | 'logger'
    | 'logStream'
    | 'webhookDelivery'
    | 'payerRights'
    | 'operatorToken'
  > & { env?: Record<string, string> } = {},
) {
  const database = await openTestDatabase();
  const { env, rateLimits, providers, ...appOptions } = options;
  const config = testConfig(env);
  const app = await buildApp({
    config,
    database,
    logger: false,
    rateLimits: { ...RELAXED_RATE_LIMITS, ...rateLimits },
    providers: { dns: testHostResolver(), ...providers },
    ...appOptions,
  });
  const openApiMismatches: string[] = [];
  checkAnswersAgainstOpenApi(app, openApiMismatches);
  await app.ready();
  return {
    app,
    database,
    config,
    context: app.appContext,
    /** What disagreed with the OpenAPI document so far (close() fails on any). */
    openApiMismatches,
    /**
     * Stops the app, proves the books its tests left (see assertBooksBalance) and that its
     * answers and webhooks agreed with the OpenAPI document, then closes.
     */
    async close() {
      await app.close();
      try {
        await assertBooksBalance(database, app.appContext.providers.payments.settlement);
        assertOpenApiAgreed([...openApiMismatches, ...(await webhookMismatches(app, database.db))]);
      } finally {
        await database.close();
      }
    },
  };
}

/** A started test app: its Fastify app, database, configuration and context. */
export type TTestApp = Awaited<ReturnType<typeof startTestApp>>;

/**
 * The test app of the file (or describe) that calls this: started before its tests and closed
 * after them, as `startTestApp(options)` does, in place of the same three lines in every file.
 * Its fields are read once it has started, inside a test or a hook; `options` may be a function
 * for options made in an earlier hook.
 */
export function useTestApp(
  options: Parameters<typeof startTestApp>[0] | (() => Parameters<typeof startTestApp>[0]) = {},
): TTestApp {
  let started: TTestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const app = (): TTestApp => {
    if (!started) {
      throw new Error('The test app is read before it started: read it in a test or a hook');
    }
    return started;
  };
  // Read, destructured and spread as the started app itself is.
  return new Proxy({} as TTestApp, {
    get: (_, key) => Reflect.get(app(), key) as unknown,
    has: (_, key) => Reflect.has(app(), key),
    ownKeys: () => Reflect.ownKeys(app()),
    getOwnPropertyDescriptor: (_, key) => {
      const own = Reflect.getOwnPropertyDescriptor(app(), key);
      return own && { ...own, configurable: true };
    },
  });
}

/**
 * What `npm run ledger:check` proves, asserted on the database a test file's app used, when the
 * file is done with it: every transaction sums to zero, every balance is the sum of its entries,
 * every executed payment is booked once and every payout as it ended, and what the provider's
 * record says it took agrees with the books. So every server test file that moves money ends
 * with the books checked, whatever its own tests assert.
 */
export async function assertBooksBalance(
  database: TDatabase,
  provider: Pick<TSettlementPort, 'settlementReport'>,
): Promise<void> {
  const problems = ledgerProblems(await checkLedger(database.db, { provider }));
  if (problems.length > 0) throw new Error(`The books do not balance:\n${problems.join('\n')}`);
}

function assertOpenApiAgreed(mismatches: string[]): void {
  if (mismatches.length === 0) return;
  const listed = [...new Set(mismatches)];
  throw new Error(
    `${listed.length} answers or webhooks disagree with the OpenAPI document (/api/openapi.json):\n` +
      listed.slice(0, 20).join('\n'),
  );
}

export async function createTestClient(
  database: TDatabase,
  input: Partial<TNewMerchantClient> = {},
) {
  const created = await createMerchantClient(database.db, { name: 'Test Merchant', ...input });
  const authorization = `Basic ${Buffer.from(`${created.clientId}:${created.secret}`).toString('base64')}`;
  return { ...created, authorization };
}

import path from 'node:path';
import { z } from 'zod';
import { LIST_SETTING_NAMES, providerLists, type TProviderLists } from './provider-lists';
import { SETTINGS_BLOCKS, type TProvidersConfig } from './providers/adapters';
import { DEFAULT_DEBIT_NOTICE_HOURS } from '../domain/debit-notices';
import { DEFAULT_ROUTING_SETTINGS, type TRoutingSettings } from '../domain/provider-routing';
import {
  DEFAULT_COMPLAINT_ACKNOWLEDGE_HOURS,
  DEFAULT_COMPLAINT_RESOLVE_DAYS,
  type TComplaintTargets,
} from '../domain/complaints';

/** What a process of the server does (ROLE; process-role.ts, docs/deploy.md). */
export const PROCESS_ROLES = ['all', 'api', 'worker'] as const;
export type TProcessRole = (typeof PROCESS_ROLES)[number];

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Loopback unless told otherwise: the sandbox outbox hands every SMS code to whoever can
  // reach the server (docs/security.md, "The sandbox's exposure").
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /**
   * A transaction pooler (PgBouncer, pool_mode=transaction) in front of DATABASE_URL's database:
   * the request pool connects there; migrations, locks, LISTEN and the job engine keep
   * DATABASE_URL's own sessions (docs/deploy.md "Connections").
   */
  DATABASE_POOL_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  PRODUCT_NAME: z.string().min(1).default('Oya Money'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Payer identity (docs/identity.md). Without a secret the server makes one and keeps it in
  // the database, so every process on the same database signs and checks tokens alike.
  AUTH_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  AUTH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  WEBAUTHN_RP_ID: z.string().min(1).optional(),
  /** Extra page origins allowed to use passkeys, comma-separated (e.g. the Vite dev server). */
  WEBAUTHN_ORIGINS: z.string().optional(),
  /**
   * Where SMS go: the sandbox outbox unless Termii (docs/providers/termii.md) or Africa's Talking
   * (docs/providers/africastalking.md) is named.
   */
  SMS_PROVIDER: z.enum(['sandbox', 'termii', 'africastalking']).default('sandbox'),
  /** Who proves a payer's BVN and an account's owner (docs/providers/mono.md). */
  BVN_REGISTRY: z.enum(['sandbox', 'mono']).default('sandbox'),
  /** Who sets up the alternate service's and paper mandates (docs/providers/remita.md). */
  MANDATE_PROVIDER: z.enum(['sandbox', 'remita']).default('sandbox'),
  /** Who moves money: the sandbox network (docs/sandbox.md) unless another adapter is named. */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'paystack']).default('sandbox'),
  /**
   * The chip terminal: the sandbox's Bluetooth reader, or Paystack Terminal's push payment
   * requests (docs/providers/paystack-terminal.md), which need PAYSTACK_SECRET_KEY.
   */
  TERMINAL_PROVIDER: z.enum(['sandbox', 'paystack']).default('sandbox'),
  /** How long the sandbox's 'timeout' card keeps a charge waiting before it fails. */
  SANDBOX_CARD_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(20_000),
  /**
   * How long a card charge waits for the card network before it answers the payer that the bank
   * is still answering ('charging'); the charge is then ended by the network's late answer or by
   * the reconciler (docs/payments.md "A card that does not answer").
   */
  CARD_ANSWER_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(8_000),
  /**
   * How long the sandbox waits, after recording a call that moves money, before it answers: a
   * slow answer, the window a crash can lose (docs/sandbox.md). 0 answers at once.
   */
  SANDBOX_ANSWER_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** How often the reconciler asks providers about answers that were lost; 0 turns it off. */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /**
   * How long a call that moves money may stay unanswered before the reconciler asks the provider
   * about it (longer than any provider call takes: the sandbox's slowest card gives up at 20 s).
   */
  RECONCILE_AFTER_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /**
   * Health-routed new work (docs/routing.md): technical failures in a row that eliminate a
   * provider from new work, or a failure rate in a window of at least ROUTING_MIN_CALLS calls;
   * an eliminated provider takes no new work for the cool-down, then one call probes it.
   */
  ROUTING_FAILURES_IN_A_ROW: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(DEFAULT_ROUTING_SETTINGS.failuresInARow),
  ROUTING_FAILURE_RATE: z.coerce
    .number()
    .gt(0)
    .max(1)
    .default(DEFAULT_ROUTING_SETTINGS.failureRate),
  ROUTING_MIN_CALLS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_ROUTING_SETTINGS.minCalls),
  ROUTING_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(DEFAULT_ROUTING_SETTINGS.windowSeconds),
  ROUTING_COOL_DOWN_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(DEFAULT_ROUTING_SETTINGS.coolDownSeconds),
  /** How often a quiet event stream sends a comment, so proxies and the browser keep it open. */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /**
   * Event streams one client address may hold open at once (counted in each process): a payer's
   * page opens one or two, so a few tabs stay far below it; a flood of held streams does not.
   */
  SSE_MAX_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * Whose X-Forwarded-For to believe: nobody by default (a client could name any address and
   * slip past the limits per address); `true` for every hop, a number of hops, or addresses.
   */
  TRUST_PROXY: z.string().default('false'),
  /** Debug calls for testers (spec §7 DELETE /api/accounts/{id}): off unless 'on'. */
  DEBUG_ROUTES: z.enum(['on', 'off']).default('off'),
  /** Strict-Transport-Security: auto sends it when PUBLIC_URL is https. */
  HSTS: z.enum(['on', 'off', 'auto']).default('auto'),
  /**
   * Whether this process works on background jobs (docs/jobs.md); 'off' only queues them, for
   * another process to send (a process that serves requests alone; the crash tests).
   */
  JOBS_WORK: z.enum(['on', 'off']).default('on'),
  /**
   * What this process does (docs/deploy.md): `all` serves and works on jobs; `api` serves and
   * only queues jobs; `worker` works on jobs and answers only its health and metrics.
   */
  ROLE: z.enum(PROCESS_ROLES).default('all'),
  /** How often the server looks for future payments to notify and collect; 0 turns it off. */
  COLLECTION_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /**
   * Hours at least between the payer's SMS notice of a scheduled debit and the debit
   * (docs/payer-consents.md "Told before every debit"); a debit whose notice went later waits.
   * A fraction of an hour is for a rehearsal that waits for a collection on its date (the
   * going-live browser test, the crash tests); a payer is owed the day.
   */
  DEBIT_NOTICE_HOURS: z.coerce.number().min(0.0001).max(240).default(DEFAULT_DEBIT_NOTICE_HOURS),
  /**
   * The targets a payer's complaint is held to (domain/complaints.ts, docs/payer-consents.md
   * "Complaints"): hours to acknowledge it, days to resolve it.
   */
  COMPLAINT_ACKNOWLEDGE_HOURS: z.coerce
    .number()
    .min(1)
    .max(24 * 30)
    .default(DEFAULT_COMPLAINT_ACKNOWLEDGE_HOURS),
  COMPLAINT_RESOLVE_DAYS: z.coerce.number().min(1).max(90).default(DEFAULT_COMPLAINT_RESOLVE_DAYS),
  /**
   * Seals the secrets the server keeps in the database (crypto/server-secrets.ts): 32 bytes,
   * as 64 hex digits or in base64. Unset, they are kept in clear (the sandbox default).
   */
  SECRETS_KEY: z
    .string()
    .transform((text, context) => {
      const key = parseSecretsKey(text);
      if (!key) {
        context.addIssue({
          code: 'custom',
          message: 'must be 32 bytes, as 64 hex digits or in base64 (openssl rand -base64 32)',
        });
        return z.NEVER;
      }
      return key;
    })
    .optional(),
  /** Redis that every process counts its rate limits in; unset, each process counts alone. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** What the rate-limit keys in Redis begin with: deployments that share one Redis differ. */
  REDIS_KEY_PREFIX: z.string().min(1).default('oya-consent:'),
  /**
   * The bearer token Prometheus scrapes GET /metrics with (docs/operations.md); unset, the
   * operator's token opens it, which only a server on PGlite has.
   */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Webhooks to http:// and to this machine's or private networks' addresses: off unless 'on'
   * (a developer's local receiver, the sandbox demo). Link-local addresses stay refused.
   */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['on', 'off']).default('off'),
  /*
   * Slow clients (docs/security.md): a request's headers must arrive within HEADERS_TIMEOUT_MS
   * and the whole request, body included, within REQUEST_TIMEOUT_MS (408); a connection on
   * which nothing moves for CONNECTION_TIMEOUT_MS is closed, and an idle kept-alive one after
   * KEEP_ALIVE_TIMEOUT_MS. An open event stream has arrived whole, so only the idle limit
   * concerns it, and its heartbeats keep it moving.
   */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(20_000),
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(180_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(72_000),
  /*
   * Each capability's providers, in order, comma-separated (provider-lists.ts): CARD_PROVIDERS,
   * TRANSFER_PROVIDERS, PAYOUT_PROVIDERS, MANDATE_PROVIDERS, BVN_REGISTRIES, SMS_PROVIDERS.
   */
  ...Object.fromEntries(LIST_SETTING_NAMES.map((name) => [name, z.string().optional()])),
});

/** Each provider's own settings (its descriptor, providers/<name>/descriptor.ts). */
const ZProviderEnv = z.object(
  Object.fromEntries(
    SETTINGS_BLOCKS.flatMap((settings) => Object.entries(settings.env as z.ZodRawShape)),
  ),
);

/** A 32-byte key written as 64 hex digits or in base64 (padded or not, or base64url). */
function parseSecretsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === 32 ? key : null;
}

/**
 * The server's configuration: its own settings, and each provider's (`config.paystack`,
 * `config.monnify`, …: null unless they are there), typed from the composition table.
 */
export type TConfig = TProvidersConfig & {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_POOL_URL: where the request pool connects, when not DATABASE_URL. */
  databasePoolUrl: string | undefined;
  /** Origin the page is served from, used in the URLs we hand to merchants. */
  publicUrl: string;
  productName: string;
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  /** Signs payer tokens and one-time-code hashes; undefined: kept in the database. */
  authTokenSecret: string | undefined;
  authTokenTtlSeconds: number;
  /** WebAuthn relying party: the page's host name, and the origins passkeys may be used from. */
  webauthnRpId: string;
  webauthnOrigins: string[];
  /**
   * Where SMS go: 'sandbox' keeps them in an outbox shown on /sandbox/messages; 'termii' sends
   * them through Termii (docs/providers/termii.md), with `termii` set; 'africastalking' through
   * Africa's Talking (docs/providers/africastalking.md), with `africastalking` set.
   */
  smsProvider: string;
  /**
   * The BVN registry: the sandbox's, or Mono Lookup (NIBSS's iGree and account-number lookup,
   * docs/providers/mono.md), whose key and API are then `mono`.
   */
  bvnRegistry: 'sandbox' | 'mono';
  /**
   * Who sets up the alternate service's and paper mandates and debits them: the sandbox's, or
   * Remita Direct Debit (docs/providers/remita.md), whose credentials are then `remita`.
   */
  mandateProvider: 'sandbox' | 'remita';
  /**
   * Who moves money: 'sandbox' is the simulated bank and card network of docs/sandbox.md;
   * 'paystack' is Paystack (docs/providers/paystack.md), with `paystack` set.
   */
  paymentProvider: 'sandbox' | 'paystack';
  /**
   * Each capability's providers in order (provider-lists.ts): the first healthy one serves new
   * work (docs/routing.md), the rest stand by; a row's later calls go to the provider it names,
   * whichever is first.
   */
  providerLists: TProviderLists;
  /** The chip terminal: the sandbox's reader, or Paystack Terminal (beside `paystack`). */
  terminalProvider: 'sandbox' | 'paystack';
  sandboxCardTimeoutMs: number;
  cardAnswerWaitMs: number;
  /** The sandbox's delay between recording a call that moves money and answering it. */
  sandboxAnswerDelayMs: number;
  /** Milliseconds between runs of the reconciler; 0: no runs but the one at start-up. */
  reconcileIntervalMs: number;
  /** The age at which an unanswered call that moves money is asked about (docs/payments.md). */
  reconcileAfterMs: number;
  /** When a provider's technical failures eliminate it from new work (ROUTING_*). */
  routing: TRoutingSettings;
  /** Between the comment lines a quiet event stream sends (SSE_HEARTBEAT_MS). */
  sseHeartbeatMs: number;
  /** How many event streams one client address may hold open in this process. */
  sseMaxPerAddress: number;
  /** Whether the debug calls exist; off, they answer 404 like any unknown path. */
  debugRoutes: boolean;
  /** Whether every answer carries Strict-Transport-Security. */
  hsts: boolean;
  /** Fastify's trustProxy: which proxies' X-Forwarded-For names the client's address. */
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
  /** Milliseconds between runs of the future-payment collections; 0: no runs. */
  collectionIntervalMs: number;
  /** Hours at least between a debit's notice and the debit (DEBIT_NOTICE_HOURS). */
  debitNoticeHours: number;
  /** COMPLAINT_ACKNOWLEDGE_HOURS and COMPLAINT_RESOLVE_DAYS. */
  complaintTargets: TComplaintTargets;
  /** Whether this process works on background jobs (ROLE all or worker, JOBS_WORK on). */
  jobsWork: boolean;
  /** ROLE: what this process does; a worker answers only its health and metrics. */
  role: TProcessRole;
  /** The key that seals the server secrets in the database; undefined: kept in clear. */
  secretsKey: Buffer | undefined;
  /** Where rate limits are counted for every process; undefined: in each process. */
  redisUrl: string | undefined;
  /** The prefix of every key the server writes in Redis. */
  redisKeyPrefix: string;
  /** Opens GET /metrics; undefined: the operator's token does. */
  metricsToken: string | undefined;
  /** WEBHOOKS_ALLOW_PRIVATE: whether webhooks may go to http:// and private addresses. */
  webhooksAllowPrivate: boolean;
  /** How long a request may take to arrive, and a connection may stay quiet (milliseconds). */
  timeouts: { requestMs: number; headersMs: number; connectionMs: number; keepAliveMs: number };
};

/** TRUST_PROXY as Fastify takes it: true/false, a hop count, or addresses and CIDRs. */
function parseTrustProxy(value: string): TConfig['trustProxy'] {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Parses the environment once at start-up; a bad value stops the start with one clear line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): TConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = ZEnv.safeParse(present);
  const parsedProviders = ZProviderEnv.safeParse(present);
  const failed = parsed.error ?? parsedProviders.error;
  if (!parsed.success || !parsedProviders.success) {
    const issue = failed?.issues[0];
    throw new Error(`Invalid configuration: ${issue?.path.join('.')} ${issue?.message}`);
  }
  const e = parsed.data;
  // Node refuses headers allowed longer than the whole request; a quiet limit below the
  // heartbeat would close every quiet event stream.
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new Error('Invalid configuration: HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  }
  if (e.CONNECTION_TIMEOUT_MS <= e.SSE_HEARTBEAT_MS) {
    throw new Error('Invalid configuration: CONNECTION_TIMEOUT_MS must exceed SSE_HEARTBEAT_MS');
  }
  if (e.DATABASE_POOL_URL && !e.DATABASE_URL) {
    throw new Error(
      'Invalid configuration: DATABASE_POOL_URL needs DATABASE_URL (its sessions: migrations, locks, LISTEN, jobs)',
    );
  }
  if (e.ROLE === 'worker' && e.JOBS_WORK === 'off') {
    throw new Error(
      'Invalid configuration: ROLE=worker works on jobs; JOBS_WORK=off leaves it none',
    );
  }
  // A provider's settings are read, and checked against the lists, with the single-name
  // settings that call for it (PAYMENT_PROVIDER, SMS_PROVIDER, …) beside them.
  const providerEnv = { ...e, ...parsedProviders.data };
  const providers = Object.fromEntries(
    SETTINGS_BLOCKS.map((settings) => [settings.key, settings.read(providerEnv)]),
  ) as TProvidersConfig;
  const lists = providerLists(present);
  for (const settings of SETTINGS_BLOCKS) settings.check?.(providerEnv, lists);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const extraOrigins = (e.WEBAUTHN_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => {
      if (!URL.canParse(o))
        throw new Error(`Invalid configuration: WEBAUTHN_ORIGINS ${o} is not a URL`);
      return new URL(o).origin;
    });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolUrl: e.DATABASE_POOL_URL,
    publicUrl,
    productName: e.PRODUCT_NAME,
    logLevel: e.LOG_LEVEL,
    authTokenSecret: e.AUTH_TOKEN_SECRET,
    authTokenTtlSeconds: e.AUTH_TOKEN_TTL_SECONDS,
    webauthnRpId: e.WEBAUTHN_RP_ID ?? new URL(publicUrl).hostname,
    webauthnOrigins: [...new Set([new URL(publicUrl).origin, ...extraOrigins])],
    smsProvider: lists.sms[0] ?? e.SMS_PROVIDER,
    bvnRegistry: e.BVN_REGISTRY,
    mandateProvider: e.MANDATE_PROVIDER,
    paymentProvider: e.PAYMENT_PROVIDER,
    providerLists: lists,
    ...providers,
    terminalProvider: e.TERMINAL_PROVIDER,
    sandboxCardTimeoutMs: e.SANDBOX_CARD_TIMEOUT_MS,
    cardAnswerWaitMs: e.CARD_ANSWER_WAIT_MS,
    sandboxAnswerDelayMs: e.SANDBOX_ANSWER_DELAY_MS,
    reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
    reconcileAfterMs: e.RECONCILE_AFTER_MS,
    routing: {
      failuresInARow: e.ROUTING_FAILURES_IN_A_ROW,
      failureRate: e.ROUTING_FAILURE_RATE,
      minCalls: e.ROUTING_MIN_CALLS,
      windowSeconds: e.ROUTING_WINDOW_SECONDS,
      coolDownSeconds: e.ROUTING_COOL_DOWN_SECONDS,
    },
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    sseMaxPerAddress: e.SSE_MAX_PER_ADDRESS,
    debugRoutes: e.DEBUG_ROUTES === 'on',
    hsts: e.HSTS === 'auto' ? publicUrl.startsWith('https://') : e.HSTS === 'on',
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    collectionIntervalMs: e.COLLECTION_INTERVAL_MS,
    debitNoticeHours: e.DEBIT_NOTICE_HOURS,
    complaintTargets: {
      acknowledgeHours: e.COMPLAINT_ACKNOWLEDGE_HOURS,
      resolveDays: e.COMPLAINT_RESOLVE_DAYS,
    },
    jobsWork: e.ROLE !== 'api' && e.JOBS_WORK === 'on',
    role: e.ROLE,
    secretsKey: e.SECRETS_KEY,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    metricsToken: e.METRICS_TOKEN,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === 'on',
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_MS,
      headersMs: e.HEADERS_TIMEOUT_MS,
      connectionMs: e.CONNECTION_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
  };
}

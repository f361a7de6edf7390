import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { errorBody } from '../domain/errors';
import type { TConfig } from './config';
import {
  createAppContext,
  type TAdapterOverrides,
  type TAppContext,
  type TRouteContext,
} from './context';
import type { TDatabase } from './db/database';
import { eventHub } from './events/event-hub';
import { streamSlots, type TStreamSlots } from './events/stream-slots';
import { merchantWebhookRoutes } from './routes/merchant-webhooks';
import { dashboardRoutes, recordMerchantRequests } from './routes/dashboard-routes';
import { dashboardOperatorRoutes } from './routes/dashboard-team';
import { openServerSecrets } from './crypto/server-secrets';
import { refuseStoredNonOrigins } from './services/merchants/merchant-clients';
import type { TCollectionRun } from './services/payments/collection-runner';
import {
  noReconciliation,
  RECONCILE_STEPS,
  type TReconciliation,
} from './services/payments/reconciler';
import { jobEngine, type TJobKind, type TJobs } from './jobs/engine';
import { groupOf, jobKinds, RETIRED_KINDS } from './jobs/kinds';
import { merchantPaymentRoutes } from './routes/merchant-payments';
import { merchantEventRoutes } from './routes/merchant-events';
import { accountLinkRoutes } from './routes/account-links';
import { accountRoutes } from './routes/accounts';
import { consentReads, type TConsentReads } from './services/consents/consent-reads';
import { authRoutes } from './routes/auth';
import { logoRoutes } from './routes/bank-logos';
import { cardPaymentRoutes } from './routes/card-payments';
import { cardTerminalRoutes } from './routes/card-terminal';
import { encryptionRoutes } from './routes/encryption';
import { eventStreamRoutes } from './routes/event-streams';
import { paymentHistoryRoutes } from './routes/payment-history';
import { identityRoutes } from './routes/identity';
import { payoutRoutes } from './routes/payouts';
import { sandboxFixtureRoutes } from './sandbox/routes/sandbox-fixtures';
import { sandboxShopRoutes } from './sandbox/routes/sandbox-shop';
import { sandboxPageRoutes } from './sandbox/routes/sandbox-pages';
import { sandboxPaymentRoutes } from './sandbox/routes/sandbox-payments';
import {
  SANDBOX_NOTICE_RETRY_MS,
  sandboxNotices,
  type TSandboxNotices,
} from './sandbox/sandbox-notices';
import type { TWaitingChallenges } from './sandbox/sandbox-challenges';
import { waitingLinkChallenge } from './services/linking/card-link-notices';
import { waitingPaymentChallenge } from './services/payments/card-payments';
import { providerNoticeRoutes } from './routes/provider-notices';
import { sandboxPeopleRoutes } from './sandbox/routes/sandbox-people';
import { sandboxTerminalRoutes } from './sandbox/routes/sandbox-terminal';
import { transferPaymentRoutes } from './routes/transfer-payments';
import { authGrantSignatureRoutes } from './routes/auth-grant-signatures';
import { authPasskeyRoutes } from './routes/auth-passkeys';
import { authPhoneCodeRoutes } from './routes/auth-phone-codes';
import { consentGrantRoutes } from './routes/consent-grants';
import { consentRoutes } from './routes/consents';
import { embedCheckRoutes } from './routes/embed-check';
import { healthRoutes } from './routes/health';
import { payerConsentRoutes } from './routes/payer-consents';
import { payerComplaintRoutes } from './routes/payer-complaints';
import { debitNoticeRoutes } from './routes/debit-notices';
import { operatorPayerRightsRoutes, payerRightsRoutes } from './routes/payer-rights';
import { paymentRequestRoutes } from './routes/payment-requests';
import { merchantClientRoutes } from './routes/merchant-client';
import { merchantConsentRoutes } from './routes/merchant-consents';
import { merchantFormRoutes } from './routes/merchant-forms';
import { formRoutes } from './routes/forms';
import { operatorClientRoutes } from './routes/operator-clients';
import { operatorEventRoutes } from './routes/operator-events';
import { pageRoutes } from './routes/pages';
import { publicConfigRoutes } from './routes/public-config';
import { sandboxMessageRoutes } from './sandbox/routes/sandbox-messages';
import { handleClientError, handleError, handleFrameworkError } from './http-errors';
import { answerWrongMethods } from './method-not-allowed';
import { useDepthLimitedJsonParser } from './json-body';
import { loggerOptions } from './log-redaction';
import { SECRET_SETTINGS } from './providers/adapters';
import { DEFAULT_RATE_LIMITS, registerRateLimits, type TRateLimits } from './rate-limits';
import { applyResponseHeaders } from './response-headers';
import { endConnectionsWhenClosing, serverTimeoutOptions } from './server-timeouts';
import { useIdempotencyOption } from './routes/idempotency';
import { openApiRoutes, registerOpenApi } from './openapi/openapi';
import type { TMetrics } from './observability/metrics';
import { answerOnlyHealth } from './process-role';
import { appMetrics, observe } from './observability/observe';

/** A route as registered: what the fuzz suite walks, so every new route is covered by it. */
export type TRouteEntry = {
  method: string;
  url: string;
  schema: Record<string, unknown> | undefined;
};

export type TAppOptions = {
  config: TConfig;
  database: TDatabase;
  /** Folder of the built page; absent in server tests that need no page. */
  webDir?: string | undefined;
  logger?: boolean;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** Replaces some of the default rate limits (tests of other behaviour; deployments). */
  rateLimits?: Partial<TRateLimits>;
  /**
   * This process works on the job engine's webhook kinds by default; 'manual' leaves them to the
   * caller (tests run `app.jobs.drain()` or the deliverer themselves, on their clock).
   */
  webhookDelivery?: 'auto' | 'manual';
  /**
   * The payer's requests about their data are answered by their jobs in this process by default,
   * whatever else it runs (the payer waits on the page); 'manual' leaves them to the caller
   * (tests that look between a request and its answer run `app.jobs.drain()` themselves).
   */
  payerRights?: 'auto' | 'manual';
  /**
   * Future payments are collected every COLLECTION_INTERVAL_MS only when 'auto' (the server's
   * main); otherwise the caller runs `app.collections.runDue()` itself (tests, on their clock).
   */
  collections?: 'auto' | 'manual';
  /**
   * Lost answers are reconciled once the app is ready and every RECONCILE_INTERVAL_MS only when
   * 'auto' (the server's main); otherwise the caller runs `app.reconciler.runDue()` itself.
   */
  reconciliation?: 'auto' | 'manual';
  /** Bearer token of the operator's calls (`npm run client:*` while the server runs); without
   * one they refuse every request. */
  operatorToken?: string | undefined;
} & TAdapterOverrides;

/**
 * Builds the app: its context (the composition root: clock, providers and event bus chosen from
 * the configuration unless the options hand them in), every route, the error mapper and the
 * page. It never listens.
 */
export async function buildApp(options: TAppOptions): Promise<FastifyInstance> {
  const app = fastifyOf(options);
  await prepareRequestHandling(app, options);
  // A worker serves its health and metrics alone (ROLE=worker, docs/deploy.md).
  if (options.config.role === 'worker') answerOnlyHealth(app);
  const metrics = appMetrics(app, options.database);
  // The engine's kinds close over the context, which holds the engine: they are made on its
  // first use, once both exist.
  const jobs = backgroundJobs(app, options, metrics, () =>
    jobKinds(
      context,
      noticeSender && {
        resendOwed: () => noticeSender.resendOwed(),
        everyMs: SANDBOX_NOTICE_RETRY_MS,
      },
      ({ eventType, outcome, seconds }) =>
        metrics.webhookDeliveryDuration.observe({ event_type: eventType, outcome }, seconds),
    ),
  );
  const context = decorateContext(app, options, jobs);
  const limits = await registerRateLimits(
    app,
    { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    { redisUrl: options.config.redisUrl, keyPrefix: options.config.redisKeyPrefix },
  );
  const noticeSender = sandboxNoticeSender(app, context);
  decorateJobRuns(app, jobs, noticeSender !== null);
  const routeContext = { ...context, limits };
  // Before every other route: request spans and metrics, the measured provider, /metrics.
  await observe(app, {
    context,
    routeContext,
    metrics,
    operatorToken: options.operatorToken,
  });
  const sandboxSide = { notices: noticeSender, challenges: waitingChallenges(routeContext) };
  await registerMerchantRoutes(app, options, routeContext, sandboxSide);
  const reads = await registerPayerRoutes(app, options, routeContext, sandboxSide);
  await registerStreamsAndPage(app, options, routeContext, reads);
  return app;
}

/** The Fastify instance, its logger, proxy trust, timeouts and framework errors as configured. */
function fastifyOf(options: TAppOptions): FastifyInstance {
  return Fastify({
    logger:
      options.logger === false
        ? false
        : { ...loggerOptions(options.config.logLevel, SECRET_SETTINGS), stream: options.logStream },
    trustProxy: options.config.trustProxy,
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    ...serverTimeoutOptions(options.config.timeouts),
    // No limit on a plugin's start (Fastify's default gives each 10 s): on a loaded machine a
    // slow start, the restart after a crash above all, must finish rather than die; a start that
    // truly hangs is the operator's health check's to catch (/api/health never answers).
    pluginTimeout: 0,
  });
}

/**
 * What every request meets before any route: the stored secrets and origins checked, the schema
 * compilers, the OpenAPI document, the body parser, the idempotency option, the route table,
 * the response headers and the error answers.
 */
async function prepareRequestHandling(app: FastifyInstance, options: TAppOptions): Promise<void> {
  // Before anything reads a server secret: a wrong SECRETS_KEY stops the start here.
  const sealedNow = await openServerSecrets(options.database.db, options.config.secretsKey);
  if (sealedNow > 0) app.log.info({ sealed: sealedNow }, 'server secrets sealed with SECRETS_KEY');
  // A stored embedding origin that breaks the rule would reach a frame-ancestors header.
  await refuseStoredNonOrigins(options.database.db);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Before every route: the OpenAPI document is made from the routes it sees registered.
  await registerOpenApi(app, options.config);
  useDepthLimitedJsonParser(app);
  // Before the route table's hook, so that it records the schema the option completes.
  useIdempotencyOption(app, options.database.db);
  recordRouteTable(app);
  applyResponseHeaders(app, options.config);
  endConnectionsWhenClosing(app);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => reply.code(404).send(errorBody('NOT_FOUND')));
  answerWrongMethods(app);
}

/** Keeps every route registered from here on in `app.routeTable`, HEAD routes left out. */
function recordRouteTable(app: FastifyInstance): void {
  const routeTable: TRouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({
        method,
        url: route.url,
        schema: route.schema as Record<string, unknown> | undefined,
      });
    }
  });
}

/** The app's context, as `app.appContext`; the app closes the event bus if it made it. */
function decorateContext(app: FastifyInstance, options: TAppOptions, jobs: TJobs): TAppContext {
  const context = createAppContext(
    {
      database: options.database,
      config: options.config,
      jobs,
      onEventError: (err, event) =>
        app.log.error({ err, eventType: event.type, eventId: event.id }, 'event subscriber failed'),
    },
    options,
  );
  app.decorate('appContext', context);
  // The app closes the bus it made; a bus handed in belongs to whoever made it.
  if (!options.events) app.addHook('onClose', () => context.events.close());
  return context;
}

/**
 * The sandbox network's sender of notices, null outside the sandbox. It sends them through our
 * notices route as a provider would: by app.inject, so the route's parsing, verification and
 * answer are the ones a provider meets (docs/sandbox.md "Notices"). What it still owes is a
 * periodic job ('sandbox.notices').
 */
function sandboxNoticeSender(app: FastifyInstance, context: TAppContext): TSandboxNotices | null {
  return context.sandbox
    ? sandboxNotices(context.db, context.clock, ({ body, headers }) =>
        app.inject({
          method: 'POST',
          url: `/api/providers/${context.providers.payments.notices.provider}/notices`,
          headers,
          payload: body,
        }),
      )
    : null;
}

/**
 * What the sandbox's 3-D Secure page asks of our side (sandbox-challenges.ts): a card link's test
 * charge waiting at its check under the network's reference, else a payment's.
 */
function waitingChallenges(context: TAppContext): TWaitingChallenges {
  return async (providerReference) =>
    (await waitingLinkChallenge(context, providerReference)) ??
    waitingPaymentChallenge(context, providerReference);
}

/** What the sandbox's routes and the dashboard's Sandbox tools are handed beside the context. */
type TSandboxSide = { notices: TSandboxNotices | null; challenges: TWaitingChallenges };

/** Health, the OpenAPI document, and the merchant's, operator's and dashboard's routes. */
async function registerMerchantRoutes(
  app: FastifyInstance,
  options: TAppOptions,
  routeContext: TRouteContext,
  sandboxSide: TSandboxSide,
): Promise<void> {
  await app.register(healthRoutes, { ...routeContext, databaseKind: options.database.kind });
  await app.register(openApiRoutes);
  recordMerchantRequests(app, routeContext);
  await app.register(merchantConsentRoutes, routeContext);
  await app.register(merchantWebhookRoutes, routeContext);
  await app.register(merchantPaymentRoutes, routeContext);
  await app.register(merchantEventRoutes, routeContext);
  await app.register(merchantFormRoutes, routeContext);
  await app.register(merchantClientRoutes, routeContext);
  await app.register(operatorClientRoutes, {
    ...routeContext,
    operatorToken: options.operatorToken,
  });
  await app.register(operatorEventRoutes, {
    ...routeContext,
    operatorToken: options.operatorToken,
  });
  await app.register(operatorPayerRightsRoutes, {
    ...routeContext,
    operatorToken: options.operatorToken,
  });
  await app.register(payerComplaintRoutes, {
    ...routeContext,
    operatorToken: options.operatorToken,
  });
  await app.register(dashboardOperatorRoutes, {
    ...routeContext,
    operatorToken: options.operatorToken,
  });
  await app.register(dashboardRoutes, {
    ...routeContext,
    ...sandboxSide,
    webDir: options.webDir,
  });
}

/**
 * The payer's routes (forms, consents, sign-in, payments, accounts) and the sandbox's; answers
 * the consent reads, which the app closes and the page shares.
 */
async function registerPayerRoutes(
  app: FastifyInstance,
  options: TAppOptions,
  routeContext: TRouteContext,
  sandboxSide: TSandboxSide,
): Promise<TConsentReads> {
  await app.register(formRoutes, routeContext);
  const reads = await consentReads(options.database);
  app.addHook('onClose', () => reads.close());
  await app.register(consentRoutes, { ...routeContext, reads });
  await app.register(embedCheckRoutes, routeContext);
  await app.register(publicConfigRoutes, routeContext);
  await app.register(authRoutes, routeContext);
  await app.register(authPhoneCodeRoutes, routeContext);
  await app.register(authPasskeyRoutes, routeContext);
  await app.register(authGrantSignatureRoutes, routeContext);
  await app.register(sandboxMessageRoutes, routeContext);
  await app.register(encryptionRoutes, routeContext);
  await app.register(cardPaymentRoutes, routeContext);
  await app.register(cardTerminalRoutes, routeContext);
  await app.register(transferPaymentRoutes, routeContext);
  await app.register(paymentHistoryRoutes, routeContext);
  await app.register(payoutRoutes, routeContext);
  await app.register(identityRoutes, routeContext);
  await app.register(consentGrantRoutes, routeContext);
  await app.register(accountRoutes, routeContext);
  await app.register(accountLinkRoutes, routeContext);
  await app.register(providerNoticeRoutes, routeContext);
  await app.register(sandboxPaymentRoutes, { ...routeContext, ...sandboxSide });
  await app.register(sandboxTerminalRoutes, routeContext);
  await app.register(payerConsentRoutes, routeContext);
  await app.register(debitNoticeRoutes, routeContext);
  await app.register(payerRightsRoutes, routeContext);
  await app.register(paymentRequestRoutes, routeContext);
  await app.register(logoRoutes, routeContext);
  await app.register(sandboxFixtureRoutes, routeContext);
  await app.register(sandboxPeopleRoutes, routeContext);
  await app.register(sandboxPageRoutes, routeContext);
  await app.register(sandboxShopRoutes, routeContext);
  return reads;
}

/** The event streams, through the database's hub and per-address slots, then the page. */
async function registerStreamsAndPage(
  app: FastifyInstance,
  options: TAppOptions,
  routeContext: TRouteContext,
  reads: TConsentReads,
): Promise<void> {
  // The streams' hub listens on the database (LISTEN events) from the first stream on.
  const hub = eventHub(options.database);
  app.addHook('onClose', () => hub.close());
  const slots = streamSlots(options.config.sseMaxPerAddress);
  app.decorate('streamSlots', slots);
  await app.register(eventStreamRoutes, { ...routeContext, hub, slots });
  if (options.webDir) {
    await app.register(pageRoutes, { ...routeContext, reads, webDir: options.webDir });
  }
}

/**
 * The job engine of this app (docs/jobs.md), started once the app is ready: which kinds this
 * process works on follows the options (JOBS_WORK=off: none, it only queues).
 */
function backgroundJobs(
  app: FastifyInstance,
  options: TAppOptions,
  metrics: TMetrics,
  kinds: () => TJobKind[],
): TJobs {
  const works = (kind: string) => {
    if (!options.config.jobsWork) return false;
    switch (groupOf(kind)) {
      case 'webhooks':
        return options.webhookDelivery !== 'manual';
      case 'sms':
        return true;
      case 'payer-rights':
        return options.payerRights !== 'manual';
      case 'collections':
        return options.collections === 'auto' && options.config.collectionIntervalMs > 0;
      case 'reconciliation':
      case 'sandbox':
        return options.reconciliation === 'auto';
    }
  };
  const jobs = jobEngine({
    database: options.database,
    kinds,
    retired: RETIRED_KINDS,
    works,
    onError: (err, kind) => app.log.error({ err, kind }, 'a background job failed'),
    onRun: ({ kind, outcome, seconds }) => metrics.jobDuration.observe({ kind, outcome }, seconds),
  });
  app.decorate('jobs', jobs);
  app.addHook('onReady', () => jobs.start());
  app.addHook('onClose', () => jobs.stop());
  return jobs;
}

/** The decorations that run a kind's work here and now through the engine (tests' clock). */
function decorateJobRuns(app: FastifyInstance, jobs: TJobs, sandboxNotices: boolean): void {
  app.decorate('collections', {
    runDue: async () => {
      const expired = (await jobs.runNow('collections.expire-consents')) as { expired: number };
      const notified = (await jobs.runNow('collections.notices')) as { notified: number };
      const collected = (await jobs.runNow('collections.collect')) as Omit<
        TCollectionRun,
        'expired' | 'notified'
      >;
      return { ...expired, ...notified, ...collected };
    },
  });
  app.decorate('reconciler', {
    runDue: async () => {
      const run = noReconciliation();
      const errors: unknown[] = [];
      // Each step on its own: one that throws stops none of the others.
      for (const step of RECONCILE_STEPS) {
        try {
          Object.assign(run, await jobs.runNow(step.name));
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new AggregateError(errors, `${errors.length} steps failed`);
      return run;
    },
  });
  app.decorate('sandboxNotices', {
    runDue: async () =>
      sandboxNotices ? ((await jobs.runNow('sandbox.notices')) as { sent: number }).sent : 0,
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The event streams open now, per client address (SSE_MAX_PER_ADDRESS). */
    streamSlots: TStreamSlots;
    /** Every route registered on the app, in order (HEAD routes left out). */
    routeTable: TRouteEntry[];
    /** The context the app was built with (db, config, clock, providers, events). */
    appContext: TAppContext;
    /** The job engine (docs/jobs.md): the background work of every kind. */
    jobs: TJobs;
    /** One run of each future-payment kind, here and now (docs/payments.md). */
    collections: { runDue(): Promise<TCollectionRun> };
    /** One run of each reconciling kind, here and now (docs/payments.md "Reconciliation"). */
    reconciler: { runDue(): Promise<TReconciliation> };
    /** Sends again the sandbox network's notices not yet answered 2xx (docs/sandbox.md). */
    sandboxNotices: { runDue(): Promise<number> };
  }
}

import type { Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TAppContext, TRouteContext } from '../context';
import type { TDatabase } from '../db/database';
import { requireOperator } from '../routes/operator-clients';
import { jsonAnswers } from '../routes/responses';
import { createMetrics, METRICS_URL, type TJobBacklogSample, type TMetrics } from './metrics';
import { countedHealth, countEliminations } from './counted-health';
import { measuredRegistry } from './measured-provider';
import { onProviderCall } from '../providers/provider-call';
import { activeTracing, idAttributes, ID_ATTRIBUTES, type TTracedId } from './tracing';

/*
 * The app's signals in one place (docs/operations.md), set up by buildApp before its routes:
 * request spans when tracing is on, the request metrics and the ids of each request in its span
 * and its log lines, the measured provider port, and GET /metrics behind METRICS_TOKEN (or,
 * without one, the operator's token).
 */

/** The route a request matched, as registered (its pattern, never the raw URL). */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

/**
 * The job engine's backlog, read at each scrape when the app has one (`app.jobs`, docs/jobs.md);
 * null while it has none.
 */
function jobBacklogOf(app: FastifyInstance): Promise<TJobBacklogSample[]> | null {
  const jobs = (app as unknown as { jobs?: { backlog?: () => Promise<TJobBacklogSample[]> } }).jobs;
  return typeof jobs?.backlog === 'function' ? jobs.backlog() : null;
}

/** The consent, payment and attempt ids a request names in its path or body. */
function idsOf(request: FastifyRequest): Partial<Record<TTracedId, string>> {
  const ids: Partial<Record<TTracedId, string>> = {};
  for (const source of [request.params, request.body]) {
    if (typeof source !== 'object' || source === null) continue;
    for (const id of Object.keys(ID_ATTRIBUTES) as TTracedId[]) {
      const value = (source as Record<string, unknown>)[id];
      if (typeof value === 'string' && value.length <= 100) ids[id] = value;
    }
  }
  return ids;
}

/** Puts the request's ids on its span and in every line its log writes from here on. */
async function bindIds(request: FastifyRequest, reply: FastifyReply) {
  const ids = idsOf(request);
  if (Object.keys(ids).length === 0) return;
  const withIds = request.log.child(ids);
  request.log = withIds;
  reply.log = withIds;
  // The request's span, which @fastify/otel adds while tracing is on.
  const traced = request as { opentelemetry?: () => { span?: Span } };
  if (typeof traced.opentelemetry === 'function') {
    traced.opentelemetry().span?.setAttributes(idAttributes(ids));
  }
}

/** Counts each answer by route, method and status, and the rate limits' refusals. */
function countAnswers(app: FastifyInstance, metrics: TMetrics) {
  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    const status = reply.statusCode;
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(status) },
      reply.elapsedTime / 1000,
    );
    if (status === 429) metrics.rateLimitRefusals.inc({ route });
  });
}

/**
 * Counts each try of a call to a provider over HTTP (providers/provider-call.ts) while the app is
 * open. The tries are the process's: a test process with several apps open counts each in all.
 */
function countProviderTries(app: FastifyInstance, metrics: TMetrics) {
  const stop = onProviderCall(({ provider, call, outcome, seconds }) => {
    metrics.providerHttpCalls.inc({ provider, call, outcome });
    metrics.providerHttpDuration.observe({ provider, call }, seconds);
  });
  app.addHook('onClose', async () => {
    stop();
  });
}

const metricsRoute: FastifyPluginCallback<
  TRouteContext & { operatorToken: string | undefined; metrics: TMetrics }
> = (app, ctx, done) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    METRICS_URL,
    {
      preValidation: requireOperator(ctx, ctx.config.metricsToken ?? ctx.operatorToken),
      schema: {
        operationId: 'getMetrics',
        summary: 'Scrape the Prometheus metrics of the process that answers',
        description:
          'The bearer is METRICS_TOKEN when it is set, else the operator token (docs/operations.md).',
        response: jsonAnswers({ 200: z.string().describe('text/plain; version=0.0.4') }),
      },
    },
    async (_request, reply) => {
      const text = await ctx.metrics.registry.metrics();
      return reply
        .header('Content-Type', ctx.metrics.registry.contentType)
        .header('Cache-Control', 'no-store')
        .send(text);
    },
  );
  done();
};

/**
 * The metrics of `app`, made before its job engine (which counts its runs in them): what a scrape
 * reads from the app (its streams, the engine's backlog) is asked of it then.
 */
export const appMetrics = (app: FastifyInstance, database: Pick<TDatabase, 'db' | 'kind'>) =>
  createMetrics({
    database,
    openStreams: () => (app.hasDecorator('streamSlots') ? app.streamSlots.open() : null),
    jobBacklog: () => jobBacklogOf(app),
    now: () => (app.hasDecorator('appContext') ? app.appContext.clock.now() : new Date()),
  });

/**
 * Sets the signals up on `app`: call it once the context and the rate limits exist and before
 * any other route. It measures the context's payment provider in place, so every service that
 * is handed the context calls the measured port.
 */
export async function observe(
  app: FastifyInstance,
  options: {
    context: TAppContext;
    routeContext: TRouteContext;
    metrics: TMetrics;
    operatorToken: string | undefined;
  },
): Promise<void> {
  const tracing = activeTracing();
  if (tracing) await app.register(tracing.fastifyPlugin() as FastifyPluginCallback);
  const { metrics } = options;
  const { providers } = options.context;
  providers.registry = measuredRegistry(providers.registry, metrics, app.log);
  providers.payments = providers.registry.payments;
  providers.health = countedHealth(providers.health, metrics);
  const stopCountingEliminations = countEliminations(providers.health, metrics);
  app.addHook('onClose', async () => {
    stopCountingEliminations();
  });
  countProviderTries(app, metrics);
  countAnswers(app, metrics);
  app.addHook('preHandler', bindIds);
  await app.register(metricsRoute, {
    ...options.routeContext,
    operatorToken: options.operatorToken,
    metrics,
  });
}

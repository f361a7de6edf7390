import {
  context,
  INVALID_SPAN_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { pathOnly } from '../log-redaction';

/*
 * Traces (docs/operations.md "Traces"): OpenTelemetry, exported over OTLP/HTTP to
 * OTEL_EXPORTER_OTLP_ENDPOINT, and off when it is unset. Off, nothing of the SDK is loaded, no
 * Fastify hook is added, and the spans below are the API's no-op ones. main.ts starts tracing
 * before it loads the app's modules (so the pg instrumentation sees pg loaded); tests start it
 * against a receiver of their own.
 *
 * What a span never holds: a query string (charge tokens and stream tickets ride in them; the
 * request span's `url.path` is the path alone, as the log writes it), a SQL parameter, a secret.
 * Background work is traced only where it continues a request: a job queued in a request carries
 * that request's W3C traceparent in its data and runs in a span of the request's trace; a job
 * queued by no request (the periodic kinds' runs, idle polls) starts no trace.
 */

export const TRACER_NAME = 'oya-consent';

/** The span attributes of the ids an operator follows a payment by. */
export const ID_ATTRIBUTES = {
  consentId: 'oya.consent_id',
  paymentId: 'oya.payment_id',
  attemptId: 'oya.attempt_id',
} as const;

export type TTracedId = keyof typeof ID_ATTRIBUTES;

export type TTracing = {
  /** Fastify's request spans (@fastify/otel), registered on the app before its routes. */
  fastifyPlugin(): unknown;
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>;
  /** Sends what is buffered now (tests). */
  flush(): Promise<void>;
};

let active: TTracing | null = null;

/** The tracing this process started, or null: off. */
export const activeTracing = (): TTracing | null => active;

/**
 * A CommonJS package's exports, imported by Node (named exports and a default) or from the
 * server's bundle, whose chunk of a CommonJS package has its default alone.
 */
async function commonJs<T extends object>(loading: Promise<T>): Promise<T> {
  const module = await loading;
  return 'default' in module && typeof module.default === 'object' && module.default !== null
    ? (module.default as T)
    : module;
}

/**
 * Starts tracing when `env.OTEL_EXPORTER_OTLP_ENDPOINT` is set: a Node tracer provider (context
 * kept across awaits by AsyncLocalStorage), a batching OTLP/HTTP exporter, and the pg
 * instrumentation. The service is named by OTEL_SERVICE_NAME, 'oya-consent' by default.
 */
export async function startTracing(
  env: Record<string, string | undefined> = process.env,
): Promise<TTracing | null> {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return null;
  if (active) return active;
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { registerInstrumentations },
    { PgInstrumentation },
    { default: FastifyOtelInstrumentation },
  ] = await Promise.all([
    commonJs(import('@opentelemetry/sdk-trace-node')),
    commonJs(import('@opentelemetry/exporter-trace-otlp-http')),
    commonJs(import('@opentelemetry/resources')),
    commonJs(import('@opentelemetry/instrumentation')),
    commonJs(import('@opentelemetry/instrumentation-pg')),
    import('@fastify/otel'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? TRACER_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(endpoint) }))],
  });
  provider.register();
  // Hook spans would bury the request's few real steps: the request and its handler are kept.
  const fastify = new FastifyOtelInstrumentation({
    instrumentHooks: false,
    requestHook: (span, request) => span.setAttribute('url.path', requestPath(request)),
  });
  fastify.setTracerProvider(provider);
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    // Queries in a request's (or another span's) trace only: the pollers' own queries would
    // each be a trace of one span. Their SQL text is kept (placeholders), their values never.
    instrumentations: [
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
    ],
  });
  const tracing: TTracing = {
    fastifyPlugin: () => fastify.plugin(),
    flush: () => provider.forceFlush(),
    async shutdown() {
      active = null;
      unregister();
      await provider.shutdown();
      // The API's globals go back to no-ops: a later tracing (a test's) registers anew.
      trace.disable();
      context.disable();
    },
  };
  active = tracing;
  return tracing;
}

/** A request's path as a span names it: never its query string. */
const requestPath = (request: FastifyRequest) => pathOnly(request.url);

/** Where spans go: the endpoint's /v1/traces, as OTLP/HTTP has it (headers: OTEL_EXPORTER_OTLP_HEADERS). */
const tracesUrl = (endpoint: string) => `${endpoint.replace(/\/+$/, '')}/v1/traces`;

const tracer = () => trace.getTracer(TRACER_NAME);

/** The ids of `values` that are strings, as span attributes. */
export function idAttributes(values: Partial<Record<TTracedId, unknown>>): Attributes {
  const attributes: Attributes = {};
  for (const [id, attribute] of Object.entries(ID_ATTRIBUTES)) {
    const value = values[id as TTracedId];
    if (typeof value === 'string') attributes[attribute] = value;
  }
  return attributes;
}

/** Runs `work` in a span of its own, a child of the active one; a throw marks it failed. */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!active) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { consentWithPayment, payByCard } from '../testing/payments';
import { openTestDatabase, RELAXED_RATE_LIMITS, testConfig } from '../testing/test-app';
import { startTracing, type TTracing } from './tracing';

// Traces (docs/operations.md "Traces"): with OTEL_EXPORTER_OTLP_ENDPOINT set, a card payment's
// spans reach an OTLP/HTTP receiver (here, one in the test) with the consent, payment and attempt
// ids as attributes, and the request's log lines carry the same ids and the trace's id. Its
// webhook's delivery is a span of the same trace; no span holds a query string; an idle server
// (its periodic jobs and polls) sends no trace.

type TOtlpAttribute = {
  key: string;
  value: { stringValue?: string; intValue?: string | number };
};
type TOtlpSpan = {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: TOtlpAttribute[];
};
type TOtlpExport = {
  resourceSpans: Array<{ scopeSpans: Array<{ spans: TOtlpSpan[] }> }>;
};

const spans: TOtlpSpan[] = [];
const lines: string[] = [];
let receiver: Server;
let hooks: Server;
let hooksUrl: string;
/** The bodies of the webhooks the merchant's receiver got. */
const delivered: string[] = [];
let tracing: TTracing | null;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let app: Awaited<ReturnType<typeof buildApp>>;

/** An OTLP/HTTP receiver of JSON exports: what a collector at the endpoint would be sent. */
function otlpReceiver(): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TOtlpExport;
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A merchant's webhook receiver: answers 200 to every delivery and keeps its body. */
async function webhookReceiver(): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      delivered.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hooksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return server;
}

const attributesOf = (span: TOtlpSpan) =>
  Object.fromEntries(
    span.attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue]),
  );

beforeAll(async () => {
  receiver = await otlpReceiver();
  const { port } = receiver.address() as AddressInfo;
  hooks = await webhookReceiver();
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}/` });
  database = await openTestDatabase();
  app = await buildApp({
    // Webhooks go to the receiver on this machine; every periodic kind runs here, as on a server.
    config: { ...testConfig({ WEBHOOKS_ALLOW_PRIVATE: 'on' }), logLevel: 'info' },
    collections: 'auto',
    reconciliation: 'auto',
    database,
    rateLimits: RELAXED_RATE_LIMITS,
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  await tracing?.shutdown();
  await new Promise((resolve) => receiver.close(resolve));
  hooks.closeAllConnections();
  await new Promise((resolve) => hooks.close(resolve));
});

/** The periodic kinds a server runs at its start, then every so often. */
const PERIODIC_KINDS = [
  'webhooks.prune-events',
  'collections.expire-consents',
  'collections.notices',
  'collections.collect',
  'reconcile.attempts',
  'expire.three-ds-challenges',
  'sandbox.notices',
];

// First in the file: no request has been made yet, so any span would be the idle server's.
describe('an idle server', () => {
  it('sends no trace: its periodic jobs and its polls are not traced', async () => {
    const ranOnce = async () => {
      const backlog = await app.jobs.backlog();
      return PERIODIC_KINDS.filter(
        (kind) => (backlog.find((entry) => entry.kind === kind)?.states.completed ?? 0) === 0,
      );
    };
    await expect.poll(ranOnce, { timeout: 30_000 }).toEqual([]);
    await tracing?.flush();
    expect(spans.map((span) => span.name)).toEqual([]);
  });
});

describe('spans', () => {
  it('never hold a query string: a request span’s url.path is its path', async () => {
    await app.inject({ url: '/api/consent/cns_traced?clientId=cli_traced&chargeToken=cht_secret' });
    await tracing?.flush();
    const isConsentRead = (span: TOtlpSpan) =>
      span.name === 'request' && attributesOf(span)['http.route'] === '/api/consent/:consentId';
    await expect.poll(() => spans.some(isConsentRead)).toBe(true);
    const traced = spans.find(isConsentRead) as TOtlpSpan;
    expect(attributesOf(traced)['url.path']).toBe('/api/consent/cns_traced');
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain('cht_secret');
    expect(everything).not.toContain('cli_traced');
  });
});

describe('a card payment’s trace', () => {
  it('reaches the OTLP receiver with the consent, payment and attempt ids, as do its log lines', async () => {
    expect(tracing).not.toBeNull();
    const consent = await consentWithPayment(app, database);
    const paid = await payByCard(app, consent, 'pin_only');
    expect(paid.statusCode).toBe(200);
    await tracing?.flush();

    const byName = (name: string) => spans.find((span) => span.name === name);
    await expect.poll(() => byName('provider chargeCard')).toBeDefined();
    const charge = byName('provider chargeCard') as TOtlpSpan;
    const attemptId = attributesOf(charge)['oya.attempt_id'];
    expect(attemptId).toMatch(/^att_/);

    // The request's own span (@fastify/otel), in the same trace, names the route and the ids;
    // its handler's span the attempt too.
    const inTrace = spans.filter((span) => span.traceId === charge.traceId);
    const request = inTrace.find(
      (span) => attributesOf(span)['http.route'] === '/api/payments/card/public',
    );
    expect(request && attributesOf(request)).toMatchObject({
      'oya.consent_id': consent.consentId,
      'oya.payment_id': consent.paymentId,
    });
    expect(
      inTrace.filter((span) => attributesOf(span)['oya.attempt_id'] === attemptId),
    ).toHaveLength(2);

    // The log: the request's lines carry its ids, the provider call its attempt, both the trace.
    // OTLP's JSON writes ids in hex, as the log does.
    const { traceId } = charge;
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      logged.find(
        (line) => line.msg === 'request completed' && line.paymentId === consent.paymentId,
      ),
    ).toMatchObject({ consentId: consent.consentId, traceId });
    expect(
      logged.find((line) => line.msg === 'provider call' && line.attemptId === attemptId),
    ).toMatchObject({ operation: 'chargeCard', outcome: 'ok', traceId });
  });
});

describe('a payment’s webhook', () => {
  it('is delivered in a span of the payment’s trace, by a job that is a child of its request', async () => {
    const consent = await consentWithPayment(app, database);
    const registered = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: consent.client.authorization },
      payload: { url: hooksUrl },
    });
    expect(registered.statusCode).toBe(201);
    const paid = await payByCard(app, consent, 'pin_only');
    expect(paid.statusCode).toBe(200);
    const completed = () =>
      delivered.some((body) => (JSON.parse(body) as { type: string }).type === 'payment.completed');
    await expect.poll(completed, { timeout: 30_000 }).toBe(true);
    await tracing?.flush();

    const isDelivery = (span: TOtlpSpan) =>
      span.name === 'webhook deliver' &&
      attributesOf(span)['oya.webhook_event_type'] === 'payment.completed' &&
      attributesOf(span)['oya.payment_id'] === consent.paymentId;
    await expect.poll(() => spans.some(isDelivery)).toBe(true);
    const delivery = spans.find(isDelivery) as TOtlpSpan;
    expect(attributesOf(delivery)).toMatchObject({
      'oya.consent_id': consent.consentId,
      'oya.webhook_outcome': 'delivered',
    });
    // The request that paid, its job and the delivery: one trace.
    const request = spans.find(
      (span) =>
        attributesOf(span)['http.route'] === '/api/payments/card/public' &&
        attributesOf(span)['oya.payment_id'] === consent.paymentId,
    );
    expect(delivery.traceId).toBe(request?.traceId);
    const job = spans.find(
      (span) => span.name === 'job webhooks.deliver' && span.traceId === request?.traceId,
    );
    expect(job).toBeDefined();
    // The job carried the request's trace context: its span's parent is a span of the request.
    const parent = spans.find((span) => span.spanId === job?.parentSpanId);
    expect(parent?.traceId).toBe(request?.traceId);
  });
});

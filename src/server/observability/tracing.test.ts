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
// ids as attributes, and the request's log lines carry the same ids and the trace's id.

type TOtlpAttribute = { key: string; value: { stringValue?: string; intValue?: string } };
type TOtlpSpan = { name: string; traceId: string; attributes: TOtlpAttribute[] };
type TOtlpExport = {
  resourceSpans: Array<{ scopeSpans: Array<{ spans: TOtlpSpan[] }> }>;
};

const spans: TOtlpSpan[] = [];
const lines: string[] = [];
let receiver: Server;
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

const attributesOf = (span: TOtlpSpan) =>
  Object.fromEntries(
    span.attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue]),
  );

beforeAll(async () => {
  receiver = await otlpReceiver();
  const { port } = receiver.address() as AddressInfo;
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}/` });
  database = await openTestDatabase();
  app = await buildApp({
    config: { ...testConfig(), logLevel: 'info' },
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

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { callProvider } from '../providers/provider-call';
import { recordMerchantEvent } from '../services/change-records';
import { WEBHOOK_DELIVER_JOB } from '../services/merchants/webhooks';
import { consentWithPayment, payByCard } from '../testing/payments';
import { promtoolProblems } from '../testing/promlint';
import { startTestApp, useTestApp } from '../testing/test-app';

// GET /metrics (docs/operations.md): the operator's token opens it, and one card payment shows in
// the request, payment and provider metrics (and a provider's HTTP tries) beside the backlogs, streams and the pool; jobs and
// webhook deliveries are counted by kind and outcome with their durations; and the scrape is one
// `promtool check metrics` passes (its rules in testing/promlint.ts).

const OPERATOR_TOKEN = 'metrics-operator-token-0123456789abcdefghij';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

const test = useTestApp({
  operatorToken: OPERATOR_TOKEN,
  // A webhook to this machine, where nothing listens: its deliveries fail and are retried.
  env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
  // Two card charges from one address, then the limit: the third is refused.
  rateLimits: { cardChargesPerAddress: { max: 2, windowMs: 60_000 } },
});

const scrape = async () => {
  const response = await test.app.inject({ method: 'GET', url: '/metrics', headers: operator });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
};

/** The value of one sample line, by its name and labels as written. */
const sample = (text: string, series: string): number | null => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  it('opens with METRICS_TOKEN instead of the operator’s token when it is set', async () => {
    const metricsToken = 'metrics-scrape-token-0123456789abcdefghijk';
    const scraped = await startTestApp({
      operatorToken: OPERATOR_TOKEN,
      env: { METRICS_TOKEN: metricsToken },
    });
    try {
      const get = (token: string) =>
        scraped.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await get(metricsToken)).statusCode).toBe(200);
      expect((await get(OPERATOR_TOKEN)).statusCode).toBe(401);
    } finally {
      await scraped.close();
    }
  });

  it('refuses without the operator’s token, in the catalogue’s shape', async () => {
    const bare = await test.app.inject({ method: 'GET', url: '/metrics' });
    expect(bare.statusCode).toBe(401);
    expect(bare.json()).toMatchObject({ success: false, error: { code: 'INVALID_ADMIN_TOKEN' } });
    const wrong = await test.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('counts a card payment by route pattern, method and outcome, and its provider call', async () => {
    const consent = await consentWithPayment(test.app, test.database);
    const paid = await payByCard(test.app, consent, 'pin_only');
    expect(paid.statusCode).toBe(200);
    const declined = await payByCard(
      test.app,
      await consentWithPayment(test.app, test.database),
      'declined',
    );
    expect(declined.statusCode).toBeLessThan(500);
    const refused = await payByCard(test.app, await consentWithPayment(test.app, test.database));
    expect(refused.statusCode).toBe(429);

    const text = await scrape();
    // The first scrape already has what is read at scrape time, the backlog and its age.
    expect(sample(text, 'oya_webhook_deliveries{status="pending"}')).toBe(0);
    expect(sample(text, 'oya_webhook_oldest_pending_seconds')).toBe(0);
    const route = 'route="/api/payments/card/public"';
    expect(
      sample(text, `oya_http_request_duration_seconds_count{method="POST",${route},status="200"}`),
    ).toBeGreaterThanOrEqual(1);
    // The route's pattern, never the raw URL with its ids.
    expect(text).toContain('route="/api/consent/:consentId"');
    expect(text).not.toContain(consent.consentId);
    expect(sample(text, `oya_rate_limit_refusals_total{${route}}`)).toBe(1);
    expect(sample(text, 'oya_payment_attempts{method="card",status="completed"}')).toBe(1);
    expect(sample(text, 'oya_payment_attempts{method="card",status="failed"}')).toBe(1);
    expect(
      sample(
        text,
        'oya_provider_calls_total{provider="sandbox",operation="chargeCard",outcome="ok"}',
      ),
    ).toBe(2);
    expect(
      sample(
        text,
        'oya_provider_call_duration_seconds_count{provider="sandbox",operation="chargeCard"}',
      ),
    ).toBe(2);
  });

  it('counts each try of a call to a provider over HTTP by provider, call and outcome', async () => {
    let tries = 0;
    const provider = createServer((_request, response) => {
      tries += 1;
      response
        .writeHead(tries === 1 ? 503 : 200, { 'content-type': 'application/json' })
        .end('{"ok":true}');
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = provider.address() as AddressInfo;
      const answer = await callProvider({
        provider: 'testpay',
        call: 'transaction/verify/*',
        method: 'GET',
        url: `http://127.0.0.1:${port}/transaction/verify/att_1`,
        retryDelaysMs: [10],
        read: (response) => ({ outcome: 'answered', data: response.json }),
      });
      expect(answer).toMatchObject({ outcome: 'answered' });
    } finally {
      provider.closeAllConnections();
      provider.close();
    }
    const text = await scrape();
    const labels = 'provider="testpay",call="transaction/verify/*"';
    expect(sample(text, `oya_provider_http_calls_total{${labels},outcome="no_answer"}`)).toBe(1);
    expect(sample(text, `oya_provider_http_calls_total{${labels},outcome="answered"}`)).toBe(1);
    expect(sample(text, `oya_provider_http_call_duration_seconds_count{${labels}}`)).toBe(2);
  });

  it('reports the webhook backlog, open streams, the database pool and the process', async () => {
    const text = await scrape();
    expect(sample(text, 'oya_webhook_deliveries{status="pending"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'oya_webhook_oldest_pending_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'oya_event_streams_open')).toBe(0);
    const kind = test.database.kind;
    expect(sample(text, `oya_database_info{kind="${kind}"}`)).toBe(1);
    expect(sample(text, 'oya_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    if (kind === 'postgres') expect(text).toContain('oya_db_pool_connections{state="waiting"}');
    expect(text).toContain('# TYPE oya_jobs gauge');
    expect(text).toContain('process_resident_memory_bytes');
  });
});

describe('GET /metrics of background work', () => {
  it('counts jobs by kind and outcome, and webhook tries by event type and outcome, with durations', async () => {
    const consent = await consentWithPayment(test.app, test.database);
    const registered = await test.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: consent.client.authorization },
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(registered.statusCode).toBe(201);
    // An event of the consent's payment, written as the payment's completion writes it.
    await test.database.db.transaction((tx) =>
      recordMerchantEvent(test.app.jobs, tx, {
        clientId: consent.client.clientId,
        consentId: consent.consentId,
        type: 'payment.completed',
        data: {
          consentId: consent.consentId,
          paymentId: consent.paymentId,
          amount: consent.amount,
          method: 'card',
          executedAt: new Date().toISOString(),
        },
        now: new Date(),
      }),
    );
    // A job that throws: it names no delivery the database can read.
    await test.database.db.transaction((tx) =>
      test.app.jobs.enqueue(tx, WEBHOOK_DELIVER_JOB, { deliveryId: 'not a delivery' }),
    );
    await test.app.jobs.drain([WEBHOOK_DELIVER_JOB]);

    const deliver = 'kind="webhooks.deliver"';
    const tried = 'event_type="payment.completed",outcome="retrying"';
    await expect
      .poll(async () => {
        const text = await scrape();
        return [
          sample(text, `oya_job_duration_seconds_count{${deliver},outcome="ok"}`),
          sample(text, `oya_job_duration_seconds_count{${deliver},outcome="error"}`),
          sample(text, `oya_webhook_delivery_duration_seconds_count{${tried}}`),
        ].map((count) => (count ?? 0) >= 1);
      })
      .toEqual([true, true, true]);
    const text = await scrape();
    expect(text).toContain('# TYPE oya_job_duration_seconds histogram');
    expect(text).toMatch(/^oya_job_duration_seconds_bucket\{le="0\.005",kind="webhooks\.deliver"/m);
    expect(text).toContain('# TYPE oya_webhook_delivery_duration_seconds histogram');
  });

  it('passes promtool check metrics: no problem under its linter’s rules', async () => {
    expect(promtoolProblems(await scrape())).toEqual([]);
  });
});

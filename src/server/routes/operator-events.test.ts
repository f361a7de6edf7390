// The operator's calls on a client's events (docs/webhooks.md, "Events on your machine"): the
// list `npm run client:listen` polls, and the test events `npm run client:trigger` fires on a
// sandbox server, each recorded as every event is: listed, and owed to the client's webhooks.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../domain/errors';
import { WEBHOOK_EVENT_DATA } from '../../domain/schemas/webhook-events';
import { WEBHOOK_EVENT_TYPES, type TWebhookPayload } from '../../domain/schemas/webhooks';
import { TEST_ID_MARK } from '../../domain/test-events';
import { buildApp } from '../app';
import type { TDatabase } from '../db/database';
import { PUBLIC_TEST_ADDRESS, testHostResolver } from '../testing/host-resolver';
import { openApiPath } from '../testing/openapi-answers';
import {
  createTestClient,
  openTestDatabase,
  RELAXED_RATE_LIMITS,
  startTestApp,
  testClock,
  testConfig,
} from '../testing/test-app';

const OPERATOR_TOKEN = 'operator-token-for-operator-events-0123456789';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const EVENTS_URL = '/api/operator/clients/:clientId/events';
const eventsOf = (clientId: string) => `/api/operator/clients/${clientId}/events`;

const clock = testClock('2026-11-23T10:00:00Z');
let ctx: Awaited<ReturnType<typeof startTestApp>>;
let merchant: Awaited<ReturnType<typeof createTestClient>>;
let other: Awaited<ReturnType<typeof createTestClient>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock, webhookDelivery: 'manual', operatorToken: OPERATOR_TOKEN });
  merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
  other = await createTestClient(ctx.database, { name: 'Other Stores' });
  const hook = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { authorization: merchant.authorization },
    payload: { url: `https://${PUBLIC_TEST_ADDRESS}/hooks` },
  });
  expect(hook.statusCode).toBe(201);
});
afterAll(() => ctx.close());

const fire = (clientId: string, type: string, headers: Record<string, string> = operator) =>
  ctx.app.inject({ method: 'POST', url: eventsOf(clientId), headers, payload: { type } });

const list = async (clientId: string, query = '') => {
  const response = await ctx.app.inject({
    url: `${eventsOf(clientId)}${query}`,
    headers: operator,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ events: TWebhookPayload[]; nextCursor: string | null }>();
};

describe('the operator’s calls on a client’s events', () => {
  it('refuse a call without the operator’s token, or with another', async () => {
    const refused: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${OPERATOR_TOKEN}x` },
      { authorization: merchant.authorization },
    ];
    for (const headers of refused) {
      const listed = await ctx.app.inject({ url: eventsOf(merchant.clientId), headers });
      expect(listed.statusCode).toBe(401);
      expect(listed.json()).toEqual(errorBody('INVALID_ADMIN_TOKEN'));
      const fired = await fire(merchant.clientId, 'payment.completed', headers);
      expect(fired.statusCode).toBe(401);
      expect(fired.json()).toEqual(errorBody('INVALID_ADMIN_TOKEN'));
    }
    expect((await list(merchant.clientId)).events).toEqual([]);
  });

  it('fires a test event of every type, its data valid for its type, ids marked as a test’s, the echo empty', async () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      clock.advance(1_000);
      const response = await fire(merchant.clientId, type);
      expect(response.statusCode, type).toBe(201);
      const { event } = response.json<{ event: TWebhookPayload }>();
      expect(event).toMatchObject({ type, createdAt: clock.now().toISOString() });
      expect(event.id).toMatch(/^evt_/);
      const parsed = WEBHOOK_EVENT_DATA[type].safeParse(event.data);
      expect(parsed.error, type).toBeUndefined();
      // Nothing the type's schema does not name.
      expect(parsed.data, type).toEqual(event.data);
      expect(event.data).toMatchObject({ reference: null, metadata: {} });
      expect(event.data.consentId).toMatch(new RegExp(`^cns_${TEST_ID_MARK}`));
    }
    // Listed as GET /api/v1/events lists them, newest first, and to the client itself.
    const listed = await list(merchant.clientId, '?limit=100');
    expect(listed.events.map((e) => e.type)).toEqual([...WEBHOOK_EVENT_TYPES].reverse());
    const own = await ctx.app.inject({
      url: '/api/v1/events?limit=100',
      headers: { authorization: merchant.authorization },
    });
    expect(own.json().events).toEqual(listed.events);
    // Each is owed to the client's webhook, as a real event is.
    const deliveries = await ctx.app.inject({
      url: '/api/v1/webhooks/deliveries?limit=100',
      headers: { authorization: merchant.authorization },
    });
    expect(
      deliveries.json<{ deliveries: Array<{ eventId: string; consentId: string | null }> }>()
        .deliveries,
    ).toEqual(
      expect.arrayContaining(
        listed.events.map((e) => expect.objectContaining({ eventId: e.id, consentId: null })),
      ),
    );
    expect(deliveries.json().deliveries).toHaveLength(WEBHOOK_EVENT_TYPES.length);
  });

  it('gives each test event ids of its own', async () => {
    const first = (await fire(merchant.clientId, 'payment.completed')).json();
    const second = (await fire(merchant.clientId, 'payment.completed')).json();
    expect(first.event.id).not.toBe(second.event.id);
    expect(first.event.data.paymentId).not.toBe(second.event.data.paymentId);
  });

  it('lists a client’s events only, by the query GET /api/v1/events takes', async () => {
    expect((await fire(other.clientId, 'refund.failed')).statusCode).toBe(201);
    const others = await list(other.clientId);
    expect(others.events.map((e) => e.type)).toEqual(['refund.failed']);
    const mine = await list(merchant.clientId, '?limit=100');
    expect(mine.events.map((e) => e.id)).not.toContain(others.events[0]?.id);
    expect(mine.events.some((e) => e.type === 'refund.failed')).toBe(true);

    const failed = await list(merchant.clientId, '?type=refund.failed');
    expect(failed.events).toHaveLength(1);
    // Cursor pages: every event once, in the order of the whole list.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(
        merchant.clientId,
        `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      paged.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(mine.events.map((e) => e.id));
  });

  it('answers the first event again to a retry with its Idempotency-Key', async () => {
    const before = (await list(merchant.clientId, '?limit=100')).events.length;
    const headers = { ...operator, 'idempotency-key': 'trigger-once-0001' };
    const first = await fire(merchant.clientId, 'consent.granted', headers);
    const again = await fire(merchant.clientId, 'consent.granted', headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().event).toEqual(first.json().event);
    expect((await list(merchant.clientId, '?limit=100')).events).toHaveLength(before + 1);
  });

  it('refuses a client that does not exist, and a type that is not one', async () => {
    for (const response of [
      await ctx.app.inject({ url: eventsOf('cli_nobody'), headers: operator }),
      await fire('cli_nobody', 'payment.completed'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(errorBody('CLIENT_NOT_FOUND'));
    }
    const unknown = await fire(merchant.clientId, 'payment.done');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('are in the OpenAPI document, with the operator’s token', () => {
    const document = ctx.app.swagger() as unknown as {
      paths: Record<string, Record<string, { operationId?: string; security?: unknown }>>;
    };
    const path = document.paths[openApiPath(EVENTS_URL)];
    expect(path?.get).toMatchObject({
      operationId: 'listMerchantClientEvents',
      security: [{ operatorBearer: [] }],
    });
    expect(path?.post).toMatchObject({
      operationId: 'createMerchantClientTestEvent',
      security: [{ operatorBearer: [] }],
    });
  });
});

describe('test events on a server whose money is real', () => {
  let database: TDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase();
    // Paystack's test mode: the sandbox network's own routes are off (context.ts). Nothing here
    // asks Paystack anything, so its URL answers nothing.
    app = await buildApp({
      config: testConfig({
        PAYMENT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: 'sk_test_operator_events',
        PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
      }),
      database,
      logger: false,
      rateLimits: RELAXED_RATE_LIMITS,
      operatorToken: OPERATOR_TOKEN,
      providers: { dns: testHostResolver() },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('refuses to fire one, and records nothing; the list still answers', async () => {
    const client = await createTestClient(database, { name: 'Real Money Stores' });
    const fired = await app.inject({
      method: 'POST',
      url: eventsOf(client.clientId),
      headers: operator,
      payload: { type: 'payment.completed' },
    });
    expect(fired.statusCode).toBe(403);
    expect(fired.json()).toEqual(errorBody('TEST_EVENTS_SANDBOX_ONLY'));
    const listed = await app.inject({ url: eventsOf(client.clientId), headers: operator });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ success: true, events: [], nextCursor: null });
  });
});

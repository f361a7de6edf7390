import { eq, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZMerchantPaymentsResponse } from '../../domain/schemas/collections';
import { ZMerchantConsentResponse } from '../../domain/schemas/merchant-api';
import { ZMerchantEventsResponse } from '../../domain/schemas/webhooks';
import { consents, merchantEvents, payments } from '../db/schema';
import { pruneMerchantEvents } from '../services/merchants/merchant-events';
import { payByCard, payByTransfer } from '../testing/payments';
import { createTestClient, startTestApp } from '../testing/test-app';

/*
 * What a merchant matches its orders by (docs/merchant-clients.md "Your reference"): its
 * reference and metadata on a consent, echoed on every read and event; the return URL of a
 * standalone page; and the lists of payments and events it catches up from.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let shop: Awaited<ReturnType<typeof createTestClient>>;
let other: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  ctx = await startTestApp();
  shop = await createTestClient(ctx.database, {
    name: 'Iya Basira Kitchen',
    origins: ['https://kitchen.example'],
  });
  other = await createTestClient(ctx.database, { name: 'Other Shop' });
});
afterAll(() => ctx.close());

const orderBody = (reference: string, amount = 150_000) => ({
  payments: [{ type: 'immediate', amount, narration: `Order ${reference}` }],
  reference,
  metadata: { orderId: reference, channel: 'web' },
});

const create = (body: object, who = shop) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: who.authorization },
    payload: body,
  });

const get = (url: string, who = shop) =>
  ctx.app.inject({ method: 'GET', url, headers: { authorization: who.authorization } });

async function created(body: object, who = shop): Promise<string> {
  const response = await create(body, who);
  expect(response.statusCode).toBe(201);
  return response.json<{ consentId: string }>().consentId;
}

async function immediatePaymentOf(consentId: string): Promise<string> {
  const [row] = await ctx.database.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.consentId, consentId));
  if (!row) throw new Error(`consent ${consentId} has no payment`);
  return row.id;
}

describe('a consent’s reference', () => {
  it('answers a second create with the same reference and body with the first consent', async () => {
    const first = await create(orderBody('ORD-1001'));
    expect(first.statusCode).toBe(201);
    const again = await create(orderBody('ORD-1001'));
    expect(again.statusCode).toBe(200);
    expect(again.json().consentId).toBe(first.json().consentId);
    const rows = await ctx.database.db
      .select({ id: consents.id })
      .from(consents)
      .where(eq(consents.reference, 'ORD-1001'));
    expect(rows).toHaveLength(1);
  });

  it('refuses the reference with another request, and lets another client use it', async () => {
    await created(orderBody('ORD-1002'));
    const changed = await create(orderBody('ORD-1002', 999_00));
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toEqual({
      success: false,
      error: {
        code: 'REFERENCE_REUSED',
        message: 'This reference was already used for a different consent',
      },
    });
    expect((await create(orderBody('ORD-1002'), other)).statusCode).toBe(201);
  });

  it('makes one consent of many creates with one reference at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => create(orderBody('ORD-1003'))),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().consentId)).size).toBe(1);
  });

  it('echoes the reference and metadata on the consent read and finds it by reference', async () => {
    const consentId = await created(orderBody('ORD-1004'));
    const read = await get(`/api/v1/consents/${consentId}`);
    expect(read.statusCode).toBe(200);
    const { consent } = ZMerchantConsentResponse.parse(read.json());
    expect(consent).toMatchObject({
      reference: 'ORD-1004',
      metadata: { orderId: 'ORD-1004', channel: 'web' },
      returnUrl: null,
    });
    const found = await get('/api/v1/consents?reference=ORD-1004');
    expect(found.json().consents.map((c: { consentId: string }) => c.consentId)).toEqual([
      consentId,
    ]);
    // Another merchant's reference finds nothing of this one's.
    expect((await get('/api/v1/consents?reference=ORD-1004', other)).json().consents).toEqual([]);
  });

  it('refuses a reference, metadata or return URL out of bounds, naming the field', async () => {
    const bad = async (body: object) => {
      const response = await create(body);
      expect(response.statusCode).toBe(400);
      return response.json<{ error: { code: string; message: string } }>().error;
    };
    const base = orderBody('ORD-1005');
    expect((await bad({ ...base, reference: 'has space' })).message).toMatch(/reference/);
    expect((await bad({ ...base, reference: 'x'.repeat(101) })).message).toMatch(/reference/);
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    expect((await bad({ ...base, metadata: tooMany })).message).toMatch(/metadata/);
    expect((await bad({ ...base, metadata: { note: 'x'.repeat(501) } })).message).toMatch(
      /metadata/,
    );
    expect((await bad({ ...base, metadata: { note: 7 } })).message).toMatch(/metadata/);
    expect((await bad({ ...base, returnUrl: 'javascript:alert(1)' })).message).toMatch(/returnUrl/);
    expect((await bad({ ...base, returnUrl: 'https://evil.example/back' })).message).toBe(
      'returnUrl: its origin is not registered for this client (npm run client:origins)',
    );
    // Within bounds: 20 keys of 500 characters.
    const most = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v'.repeat(500)]),
    );
    expect((await create({ ...base, metadata: most })).statusCode).toBe(201);
  });

  it('keeps a return URL on a registered origin, which the page reads', async () => {
    const consentId = await created({
      ...orderBody('ORD-1006'),
      returnUrl: 'https://kitchen.example/orders/1006',
    });
    expect((await get(`/api/v1/consents/${consentId}`)).json().consent.returnUrl).toBe(
      'https://kitchen.example/orders/1006',
    );
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/api/consent/${consentId}?clientId=${shop.clientId}`,
    });
    expect(page.json().returnUrl).toBe('https://kitchen.example/orders/1006');
    // The page's read carries no metadata: it is the merchant's, not the payer's.
    expect(page.body).not.toContain('channel');
  });
});

describe('GET /api/v1/payments', () => {
  let byCard: { consentId: string; paymentId: string };
  let byTransfer: { consentId: string; paymentId: string };
  let unpaid: { consentId: string; paymentId: string };
  let startedAt: string;

  beforeAll(async () => {
    startedAt = new Date(Date.now() - 1_000).toISOString();
    const consentOf = async (reference: string) => {
      const consentId = await created(orderBody(reference));
      return { consentId, paymentId: await immediatePaymentOf(consentId) };
    };
    byCard = await consentOf('PAY-CARD');
    byTransfer = await consentOf('PAY-TRANSFER');
    unpaid = await consentOf('PAY-UNPAID');
    expect((await payByCard(ctx.app, byCard)).json()).toMatchObject({
      message: 'Payment successful',
    });
    expect((await payByTransfer(ctx.app, byTransfer)).json()).toMatchObject({
      outcome: 'credited',
    });
    await created(orderBody('PAY-OTHER'), other);
  });

  const listed = async (query: string, who = shop) => {
    const response = await get(`/api/v1/payments${query}`, who);
    expect(response.statusCode).toBe(200);
    return ZMerchantPaymentsResponse.parse(response.json());
  };
  const ids = (page: { payments: { paymentId: string }[] }) =>
    page.payments.map((p) => p.paymentId);

  it('lists the merchant’s payments newest first, each as its read answers it', async () => {
    const page = await listed(`?createdFrom=${encodeURIComponent(startedAt)}`);
    expect(ids(page).slice(0, 3)).toEqual([
      unpaid.paymentId,
      byTransfer.paymentId,
      byCard.paymentId,
    ]);
    const single = await get(`/api/v1/payments/${byCard.paymentId}`);
    expect(page.payments.find((p) => p.paymentId === byCard.paymentId)).toEqual(
      single.json().payment,
    );
    expect(single.json().payment).toMatchObject({
      method: 'card',
      status: 'executed',
      reference: 'PAY-CARD',
      metadata: { orderId: 'PAY-CARD', channel: 'web' },
    });
    // Another merchant's payments are not among them, nor are this one's among its.
    const theirs = await listed('', other);
    expect(ids(theirs)).not.toContain(byCard.paymentId);
    expect(theirs.payments.map((p) => p.reference)).toContain('PAY-OTHER');
    expect(theirs.payments.map((p) => p.reference)).not.toContain('PAY-CARD');
  });

  it('filters by status, method, reference, consent and time', async () => {
    expect(ids(await listed('?method=card'))).toEqual([byCard.paymentId]);
    expect(ids(await listed('?method=bank_transfer'))).toEqual([byTransfer.paymentId]);
    expect(ids(await listed('?reference=PAY-UNPAID'))).toEqual([unpaid.paymentId]);
    expect(ids(await listed(`?consentId=${byTransfer.consentId}`))).toEqual([byTransfer.paymentId]);
    const executed = ids(await listed('?status=executed&limit=100'));
    expect(executed).toEqual(expect.arrayContaining([byCard.paymentId, byTransfer.paymentId]));
    expect(executed).not.toContain(unpaid.paymentId);
    expect(
      ids(await listed(`?createdTo=${encodeURIComponent(startedAt)}&reference=PAY-CARD`)),
    ).toEqual([]);
  });

  it('pages with a cursor, losing and repeating nothing', async () => {
    const all = ids(await listed('?limit=100'));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listed>> = await listed(
        `?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.payments.length).toBeLessThanOrEqual(2);
      seen.push(...ids(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it('refuses a filter it cannot read, naming it', async () => {
    for (const query of [
      '?method=cash',
      '?status=paid',
      '?createdFrom=yesterday',
      '?cursor=nope',
    ]) {
      const response = await get(`/api/v1/payments${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('GET /api/v1/events', () => {
  it('lists what the webhooks carried, with the reference and metadata, by type', async () => {
    const consentId = await created(orderBody('EVT-1'));
    const paymentId = await immediatePaymentOf(consentId);
    expect((await payByCard(ctx.app, { consentId, paymentId })).json()).toMatchObject({
      message: 'Payment successful',
    });
    const response = await get('/api/v1/events?type=payment.completed');
    expect(response.statusCode).toBe(200);
    const { events } = ZMerchantEventsResponse.parse(response.json());
    const mine = events.find((e) => e.data.paymentId === paymentId);
    expect(mine).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'payment.completed',
      data: {
        consentId,
        paymentId,
        method: 'card',
        reference: 'EVT-1',
        metadata: { orderId: 'EVT-1', channel: 'web' },
      },
    });
    expect(events.every((e) => e.type === 'payment.completed')).toBe(true);
    expect((await get('/api/v1/events', other)).json().events).not.toContainEqual(
      expect.objectContaining({ id: mine?.id }),
    );
  });

  it('lists the last 30 days only, in cursor pages', async () => {
    const before = ZMerchantEventsResponse.parse((await get('/api/v1/events?limit=100')).json());
    expect(before.events.length).toBeGreaterThan(1);
    const [oldest] = before.events.slice(-1);
    await ctx.database.db
      .update(merchantEvents)
      .set({ createdAt: new Date(Date.now() - 31 * 24 * 60 * 60 * 1_000) })
      .where(eq(merchantEvents.publicId, oldest?.id ?? ''));
    const after = ZMerchantEventsResponse.parse((await get('/api/v1/events?limit=100')).json());
    expect(after.events.map((e) => e.id)).toEqual(before.events.slice(0, -1).map((e) => e.id));
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ReturnType<typeof ZMerchantEventsResponse.parse> = ZMerchantEventsResponse.parse(
        (await get(`/api/v1/events?limit=1${cursor ? `&cursor=${cursor}` : ''}`)).json(),
      );
      paged.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(after.events.map((e) => e.id));
  });

  it('deletes events past 30 days, with their deliveries, and keeps the rest', async () => {
    const [kept] = (await get('/api/v1/events?limit=1')).json().events;
    const old = await ctx.database.db
      .select({ id: merchantEvents.id })
      .from(merchantEvents)
      .where(lt(merchantEvents.createdAt, new Date(Date.now() - 30 * 24 * 60 * 60 * 1_000)));
    expect(old.length).toBeGreaterThan(0);
    expect(await pruneMerchantEvents(ctx.database.db, new Date())).toBe(old.length);
    expect(await pruneMerchantEvents(ctx.database.db, new Date())).toBe(0);
    const left = await ctx.database.db
      .select({ id: merchantEvents.publicId })
      .from(merchantEvents)
      .where(eq(merchantEvents.publicId, kept.id));
    expect(left).toHaveLength(1);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ZCreateConsentResponse,
  ZMerchantConsentResponse,
  ZMerchantConsentsResponse,
} from '../../domain/schemas/merchant-api';
import { consents, dataSharingItems, payments } from '../db/schema';
import { createTestClient, startTestApp } from '../testing/test-app';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let client: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  ctx = await startTestApp();
  client = await createTestClient(ctx.database, { name: 'Mama Put Foods' });
});
afterAll(() => ctx.close());

const validBody = {
  payments: [
    { type: 'immediate', amount: 250_000, narration: 'Order 17' },
    {
      type: 'future',
      amount: 100_000,
      amountType: 'fixed',
      narration: 'Subscription',
      frequency: 'monthly',
      interval: 1,
      dueDate: '2027-01-01T09:00:00.000Z',
    },
  ],
  dataSharing: { bvnData: true, ninData: ['nin', 'photo'] },
};

const post = (body: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: client.authorization, ...headers },
    payload: body as object,
  });

const countRows = async () => {
  const [row] = await ctx.database.db
    .select({
      consents: sql<number>`(select count(*)::int from ${consents})`,
      payments: sql<number>`(select count(*)::int from ${payments})`,
      items: sql<number>`(select count(*)::int from ${dataSharingItems})`,
    })
    .from(sql`(select 1) as one`);
  return row;
};

describe('POST /api/v1/consents', () => {
  it('creates a consent and answers its id and hosted URL', async () => {
    const response = await post(validBody);
    expect(response.statusCode).toBe(201);
    const body = ZCreateConsentResponse.parse(response.json());
    expect(body.url).toBe(`http://localhost:3999/r/${body.consentId}?clientId=${client.clientId}`);
    const expires = new Date(body.expiresAt).getTime() - Date.now();
    expect(expires).toBeGreaterThan(86_400_000 - 60_000); // spec §9: 24 h by default
    expect(expires).toBeLessThanOrEqual(86_400_000);
  });

  it('refuses a wrong secret with 401 and writes nothing', async () => {
    const before = await countRows();
    const wrong = `Basic ${Buffer.from(`${client.clientId}:sk_wrong`).toString('base64')}`;
    const response = await post(validBody, { authorization: wrong });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      success: false,
      error: { code: 'INVALID_CLIENT_CREDENTIALS', message: 'Invalid client credentials' },
    });
    expect(await countRows()).toEqual(before);
  });

  it.each([
    ['no credentials', undefined],
    ['a bearer token', 'Bearer abc'],
    ['an unknown client', `Basic ${Buffer.from('cli_nobody:sk_x').toString('base64')}`],
  ])('refuses %s with 401', async (_label, authorization) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: authorization ? { authorization } : {},
      payload: validBody,
    });
    expect(response.statusCode).toBe(401);
  });

  it.each([
    [
      'a fractional amount',
      { payments: [{ type: 'immediate', amount: 10.5, narration: 'x' }] },
      'payments.0.amount',
    ],
    [
      'a negative amount',
      { payments: [{ type: 'immediate', amount: -1, narration: 'x' }] },
      'payments.0.amount',
    ],
    [
      'an unknown frequency',
      { payments: [{ ...validBody.payments[1], frequency: 'hourly' }] },
      'payments.0.frequency',
    ],
    [
      'a frequency without interval',
      { payments: [{ ...validBody.payments[1], interval: undefined }] },
      'payments.0.interval',
    ],
    ['an unknown field', { ...validBody, surprise: true }, 'body'],
    [
      'two immediate payments',
      { payments: [validBody.payments[0], validBody.payments[0]] },
      'payments',
    ],
    [
      'an empty narration',
      { payments: [{ type: 'immediate', amount: 5, narration: '  ' }] },
      'payments.0.narration',
    ],
    [
      'a control character',
      { payments: [{ type: 'immediate', amount: 5, narration: 'a\u0000b' }] },
      'payments.0.narration',
    ],
    ['an expiry in the past', { ...validBody, expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
  ])('answers 400 naming the field for %s, and writes nothing', async (_label, body, field) => {
    const before = await countRows();
    const response = await post(body);
    expect(response.statusCode).toBe(400);
    const json = response.json();
    expect(json.success).toBe(false);
    expect(json.error.code).toBe('VALIDATION_FAILED');
    expect(json.error.message.startsWith(`${field}:`)).toBe(true);
    expect(await countRows()).toEqual(before);
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: client.authorization, 'content-type': 'application/json' },
      payload: '{"payments": [',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
  });

  it('answers a retry with the same Idempotency-Key with the first consent', async () => {
    const first = await post(validBody, { 'idempotency-key': 'order-17' });
    const before = await countRows();
    const again = await post(validBody, { 'idempotency-key': 'order-17' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json().consentId).toBe(first.json().consentId);
    expect(await countRows()).toEqual(before);
  });

  it('writes nothing at all when a part of the consent fails to be stored', async () => {
    // A fault injected in the database: the data-sharing rows, written last, are refused.
    await ctx.database.db.execute(sql`
      create function refuse_item() returns trigger language plpgsql as $$
      begin raise exception 'refused by test'; end $$`);
    await ctx.database.db.execute(sql`
      create trigger refuse_item before insert on data_sharing_items
      for each row execute function refuse_item()`);
    try {
      const before = await countRows();
      const response = await post(validBody);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        success: false,
        error: { code: 'API_REQUEST_FAILED', message: 'API request failed' },
      });
      expect(await countRows()).toEqual(before);
    } finally {
      await ctx.database.db.execute(sql`drop trigger refuse_item on data_sharing_items`);
      await ctx.database.db.execute(sql`drop function refuse_item`);
    }
  });
});

describe('formCompletion (spec §3)', () => {
  it('keeps the values of the form placeholders, read back on the consent', async () => {
    const response = await post({
      formId: 'frm_membership',
      formCompletion: { templateLiteralValues: { clubName: 'Lekki Gym', planName: 'Gold' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { consentId } = response.json<{ consentId: string }>();
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/consent/${consentId}?clientId=${client.clientId}`,
    });
    expect(read.json().consent.formCompletion).toEqual({
      templateLiteralValues: { clubName: 'Lekki Gym', planName: 'Gold' },
    });
  });

  it('refuses values without a form, and names that are not placeholder names', async () => {
    const noForm = await post({
      ...validBody,
      formCompletion: { templateLiteralValues: { clubName: 'Lekki Gym' } },
    });
    expect(noForm.statusCode).toBe(400);
    expect(noForm.json().error.message).toMatch(/^formCompletion: formCompletion needs a formId/);
    const badName = await post({
      formId: 'frm_membership',
      formCompletion: { templateLiteralValues: { '{{club}}': 'x' } },
    });
    expect(badName.statusCode).toBe(400);
  });
});

describe('GET /api/v1/consents (the merchant list)', () => {
  const listAs = (authorization: string, query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/consents${query}`, headers: { authorization } });

  it(
    'pages through the merchant’s own consents newest first, each once, of one status when asked',
    { tags: ['postgres'] },
    async () => {
      const own = await createTestClient(ctx.database, { name: 'Iya Basira Kitchen' });
      const other = await createTestClient(ctx.database, { name: 'Another Shop' });
      const create = async (authorization: string) => {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/consents',
          headers: { authorization },
          payload: validBody,
        });
        return ZCreateConsentResponse.parse(response.json()).consentId;
      };
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) ids.push(await create(own.authorization));
      await create(other.authorization);
      // Three created within one millisecond (microseconds apart): the cursor's time is to the
      // millisecond, so the id decides between them and none is skipped or repeated.
      for (const [index, at] of [
        '2026-01-01T10:00:00.123456Z',
        '2026-01-01T10:00:00.123001Z',
        '2026-01-01T10:00:00.123999Z',
      ].entries()) {
        await ctx.database.db.execute(
          sql`update ${consents} set created_at = ${at}::timestamptz where id = ${ids[index]}`,
        );
      }
      await ctx.database.db.execute(
        sql`update ${consents} set status = 'granted', granted_at = now() where id = ${ids[4]}`,
      );

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await listAs(
          own.authorization,
          `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(response.statusCode).toBe(200);
        const body = ZMerchantConsentsResponse.parse(response.json());
        expect(body.consents.length).toBeLessThanOrEqual(2);
        seen.push(...body.consents.map((c) => c.consentId));
        cursor = body.nextCursor;
        pages += 1;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      // The two left at their creation time first (newest first), then the three at 10:00:00.123
      // by id, descending.
      const sameMs = [ids[0], ids[1], ids[2]].sort().reverse();
      expect(seen).toEqual([ids[4], ids[3], ...sameMs]);

      const granted = ZMerchantConsentsResponse.parse(
        (await listAs(own.authorization, '?status=granted')).json(),
      );
      expect(granted.consents.map((c) => [c.consentId, c.status])).toEqual([[ids[4], 'granted']]);
      expect(granted.nextCursor).toBeNull();
      // Each entry is the single read's consent: payments and data sharing with it.
      expect(granted.consents[0]?.payments).toHaveLength(2);
      expect(granted.consents[0]?.revokedAt).toBeNull();
    },
  );

  it(
    'answers each consent of a page exactly as its single read does',
    { tags: ['postgres'] },
    async () => {
      const shop = await createTestClient(ctx.database, { name: 'Buka Express' });
      const bodies = [
        validBody,
        { payments: [{ type: 'immediate', amount: 5_000, narration: 'Suya' }] },
        { dataSharing: { bankAccounts: true } },
        { payments: [validBody.payments[1]], dataSharing: { bvnData: true } },
      ];
      const created: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/consents',
          headers: { authorization: shop.authorization },
          payload: bodies[i % bodies.length] as object,
        });
        created.push(ZCreateConsentResponse.parse(response.json()).consentId);
      }
      const page = ZMerchantConsentsResponse.parse(
        (await listAs(shop.authorization, '?limit=100')).json(),
      );
      expect(page.consents.map((c) => c.consentId)).toEqual([...created].reverse());
      for (const consent of page.consents) {
        const single = await ctx.app.inject({
          method: 'GET',
          url: `/api/v1/consents/${consent.consentId}`,
          headers: { authorization: shop.authorization },
        });
        expect(consent).toEqual(ZMerchantConsentResponse.parse(single.json()).consent);
      }
      expect(page.consents.map((c) => c.payments.length)).toEqual(
        created.map((_, i) => (bodies[i % bodies.length]?.payments ?? []).length).reverse(),
      );
    },
  );

  it('refuses a cursor it did not give, an unknown status and a page too large, in the catalogue shape', async () => {
    for (const query of ['?cursor=bm90LWEtY3Vyc29y', '?status=lost', '?limit=101', '?limit=0']) {
      const response = await listAs(client.authorization, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_FAILED' },
      });
    }
    expect((await listAs('Basic bm9ib2R5Om5vdGhpbmc=')).statusCode).toBe(401);
  });
});

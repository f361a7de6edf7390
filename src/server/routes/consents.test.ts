import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZConsentReadResponse } from '../../domain/schemas/consent';
import { rowsOf } from '../db/database';
import { consents, dataSharingItems, payments } from '../db/schema';
import { originForLink } from '../services/consents/consent-read-answer';
import { loadConsent } from '../services/consents/consents';
import { EVERY_FIELD_CONSENT } from '../testing/consents';
import { createTestClient, startTestApp } from '../testing/test-app';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let owner: Awaited<ReturnType<typeof createTestClient>>;
let stranger: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  ctx = await startTestApp();
  owner = await createTestClient(ctx.database, {
    name: 'Owner Stores',
    origins: ['https://shop.owner.example'],
  });
  stranger = await createTestClient(ctx.database, { name: 'Someone Else' });
});
afterAll(() => ctx.close());

async function createConsent(authorization: string, body: object): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization },
    payload: body,
  });
  expect(response.statusCode).toBe(201);
  return response.json().consentId;
}

const read = (consentId: string, clientId?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}${clientId === undefined ? '' : `?clientId=${clientId}`}`,
  });

describe('GET /api/consent/{id}?clientId=', () => {
  it('answers the consent with every field of the spec entity', async () => {
    const id = await createConsent(owner.authorization, {
      payments: [
        { type: 'immediate', amount: 123_456, narration: 'Order 9' },
        { type: 'future', amount: 5_000, narration: 'Plan', frequency: 'weekly', interval: 2 },
      ],
      dataSharing: { bvnData: true, bankAccounts: ['primary'] },
      formId: 'form_1',
      requirements: { requiresAuth: true },
      actOnBehalfOf: { role: { name: 'Agent' }, fullName: 'Ade Bello', name: 'Ade', image: null },
    });
    const response = await read(id, owner.clientId);
    expect(response.statusCode).toBe(200);
    const { consent, embedOrigins } = ZConsentReadResponse.parse(response.json());
    expect(embedOrigins).toEqual(['https://shop.owner.example']);
    expect(consent).toMatchObject({
      consentId: id,
      status: 'pending',
      grantedAt: null,
      counterparty: {
        name: 'Owner Stores',
        type: 'merchant',
        merchantId: owner.merchantId,
        merchantColours: { primaryColour: '#FE7048', secondaryColour: '#1f2937' },
      },
      dataSharing: { bvnData: true, bankAccounts: ['primary'] },
      formId: 'form_1',
      requirements: { requiresAuth: true, requiresAccount: false },
      actOnBehalfOf: { fullName: 'Ade Bello', role: { name: 'Agent' } },
    });
    expect(consent.payments).toMatchObject([
      {
        type: 'immediate',
        amount: 123_456,
        status: 'pending',
        shieldWallet: { bankName: 'Rubies MFB' },
      },
      {
        type: 'future',
        amount: 5_000,
        frequency: 'weekly',
        interval: 2,
        amountType: 'fixed',
        shieldWallet: null,
      },
    ]);
  });

  it('sends the JSON the declared schema makes of the loaded consent, every field set', async () => {
    const id = await createConsent(owner.authorization, EVERY_FIELD_CONSENT);
    const db = ctx.database.db;
    // Microseconds, which both sides truncate to milliseconds.
    await db
      .update(consents)
      .set({
        status: 'granted',
        grantedAt: sql`'2026-11-24 10:00:00.123999+00'`,
        partyImage: 'https://img.example/party.png',
        formResponseId: 'frs_1',
        formUpdateToken: 'tok_1',
        attestDiscoveryId: 'dsc_1',
        authAppId: 'app_1',
        returnUrl: 'https://shop.owner.example/orders/7?from=consent',
      })
      .where(eq(consents.id, id));
    await db
      .update(payments)
      .set({
        // Not 'executed': the app's close proves every executed payment is in the books.
        status: 'cancelled',
        // Text the JSON must escape, written past the request's checks.
        narration: 'Till "3"\n\t\u0001 \\ \u00e9\u{1F600}\u2028',
        executedAt: sql`'2026-11-24 10:00:01.000999+00'`,
        origin: {
          paymentMethod: 'card',
          maskedCardNumber: '5399 **** 1234',
          isNewCard: true,
          integrations: { scheme: { id: 7, tags: ['a'] } },
        },
      })
      .where(eq(payments.type, 'immediate'));
    // A category asked for as a whole and by name at once lists its names (toDataSharing).
    await db.insert(dataSharingItems).values({ consentId: id, category: 'ninData', item: null });

    const response = await read(id, owner.clientId);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const sent = response.json();
    const loaded = await loadConsent(db, id);
    if (!loaded) throw new Error('the consent was not loaded');
    const { consent, embedOrigins } = loaded;
    // Anyone with the link reads it: how each payment was paid, not where from (its payer reads
    // that from the payment).
    const seen = consent.payments.map((p) => ({
      ...p,
      origin: p.origin && originForLink(p.origin),
    }));
    const serialised = ZConsentReadResponse.parse({
      success: true,
      consent: { ...consent, payments: seen },
      embedOrigins,
      returnUrl: loaded.returnUrl,
    });
    expect(sent.returnUrl).toBe('https://shop.owner.example/orders/7?from=consent');
    expect(sent).toEqual(JSON.parse(JSON.stringify(serialised)));
    expect(sent.consent.payments[0].origin).not.toHaveProperty('integrations');
    // Nothing the schema would have dropped or changed.
    expect(ZConsentReadResponse.parse(sent)).toEqual(sent);
    expect(sent.consent.grantedAt).toBe('2026-11-24T10:00:00.123Z');
    expect(sent.consent.dataSharing).toEqual({
      bvnData: true,
      ninData: ['nin_slip'],
      bankAccounts: ['primary', 'savings'],
    });
  });

  it('answers a consent with no payments and no data sharing as the schema makes it', async () => {
    const id = await createConsent(owner.authorization, { formId: 'form_3' });
    const response = await read(id, owner.clientId);
    expect(response.statusCode).toBe(200);
    const loaded = await loadConsent(ctx.database.db, id);
    if (!loaded) throw new Error('the consent was not loaded');
    const { consent, embedOrigins } = loaded;
    expect(response.json()).toEqual(
      JSON.parse(
        JSON.stringify(
          ZConsentReadResponse.parse({ success: true, consent, embedOrigins, returnUrl: null }),
        ),
      ),
    );
    expect(response.json().consent).toMatchObject({ payments: [], dataSharing: null });
  });

  it('answers 404 with the spec message for an unknown consent', async () => {
    const response = await read('cns_unknown', owner.clientId);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      error: { code: 'CONSENT_NOT_FOUND', message: 'Consent not found or has expired' },
    });
  });

  it("answers 403 with the spec message for another client's consent", async () => {
    const id = await createConsent(owner.authorization, { dataSharing: { ninData: true } });
    const response = await read(id, stranger.clientId);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({
      code: 'CONSENT_FORBIDDEN',
      message: 'Unauthorized: This clientId is not authorized to access this consent',
    });
  });

  it('answers 404 once the consent has expired', async () => {
    const id = await createConsent(owner.authorization, { dataSharing: { ninData: true } });
    await ctx.database.db
      .update(consents)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(consents.id, id));
    const response = await read(id, owner.clientId);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('Consent not found or has expired');
  });

  it('treats an immediate payment without a shield wallet as not found (spec §5)', async () => {
    const walletless = await createTestClient(ctx.database, {
      name: 'No Wallet',
      walletBankName: null,
    });
    const id = await createConsent(walletless.authorization, {
      payments: [{ type: 'immediate', amount: 1_000, narration: 'x' }],
    });
    const response = await read(id, walletless.clientId);
    expect(response.statusCode).toBe(404);
  });

  it('answers 400 when the clientId is missing', async () => {
    const id = await createConsent(owner.authorization, { dataSharing: { ninData: true } });
    for (const clientId of [undefined, '']) {
      const response = await read(id, clientId);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('MISSING_CLIENT_ID');
    }
  });
});

describe('a created consent as stored', () => {
  // Its rows are written by prepared inserts whose values go to the driver as they are: an absent
  // value must be SQL NULL, not JSON null, and JSON must be stored as JSON, not as text.
  it('stores what was not given as NULL, and metadata and dates as what they are', async () => {
    const bare = await createConsent(owner.authorization, {
      payments: [{ type: 'immediate', amount: 1_000, narration: 'Bare' }],
    });
    const full = await createConsent(owner.authorization, {
      payments: [
        { type: 'future', amount: 2_000, narration: 'Due', dueDate: '2031-01-15T00:00:00.000Z' },
      ],
      metadata: { orderId: 'A-1' },
      formId: 'form_meta',
      formCompletion: { templateLiteralValues: { name: 'Ada' } },
    });
    const kinds = async (consentId: string) => {
      const result = await ctx.database.db.execute(sql`
        select jsonb_typeof(c.metadata) as metadata, jsonb_typeof(c.form_template_values) as form,
               c.reference is null as no_reference, p.due_date
        from consents c join payments p on p.consent_id = c.id where c.id = ${consentId}`);
      return rowsOf<Record<string, unknown>>(result)[0];
    };
    expect(await kinds(bare)).toMatchObject({
      metadata: null,
      form: null,
      no_reference: true,
      due_date: null,
    });
    const stored = await kinds(full);
    expect(stored).toMatchObject({ metadata: 'object', form: 'object', no_reference: true });
    expect(new Date(stored?.due_date as string).toISOString()).toBe('2031-01-15T00:00:00.000Z');
  });
});

describe('GET /api/health', () => {
  it('answers 200 when the database is ready', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: ctx.database.kind });
  });
});

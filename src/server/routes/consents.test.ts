import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZConsentReadResponse } from '../../domain/schemas/consent';
import { consents } from '../db/schema';
import { createTestClient, startTestApp } from '../test-support';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let owner: Awaited<ReturnType<typeof createTestClient>>;
let stranger: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  ctx = await startTestApp();
  owner = await createTestClient(ctx.database, {
    name: 'Owner Stores',
    origins: ['https://shop.owner.example/checkout'],
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

describe('GET /api/health', () => {
  it('answers 200 when the database is ready', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: ctx.database.kind });
  });
});

// The embed script's question before it loads the consent page (docs/sdk.md "Origins"): may a
// page of this origin frame this consent? The answer is the page's own frame-ancestors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEmbedCheckResponse } from '../../domain/schemas/embed-check';
import { expectRateLimited } from '../testing/rate-limits';
import { createTestClient, startTestApp } from '../testing/test-app';

const SHOP = 'https://shop.owner.example';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let owner: Awaited<ReturnType<typeof createTestClient>>;
let other: Awaited<ReturnType<typeof createTestClient>>;
let consentId: string;

beforeAll(async () => {
  ctx = await startTestApp({
    rateLimits: { embedChecksPerAddress: { max: 3, windowMs: 60_000 } },
  });
  owner = await createTestClient(ctx.database, { name: 'Owner Stores', origins: [SHOP] });
  other = await createTestClient(ctx.database, {
    name: 'Other Stores',
    origins: ['https://shop.other.example'],
  });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: owner.authorization },
    payload: { payments: [{ type: 'immediate', amount: 10_000, narration: 'Order 1' }] },
  });
  expect(created.statusCode).toBe(201);
  consentId = created.json().consentId;
});
afterAll(() => ctx.close());

let addressSeq = 0;
const check = (query: Record<string, string>, id = consentId) => {
  addressSeq += 1;
  return ctx.app.inject({
    method: 'GET',
    url: `/api/consent/${id}/embed-check`,
    query,
    // Each call from an address of its own: only the rate-limit test counts.
    remoteAddress: `10.9.0.${addressSeq}`,
  });
};
const allowed = async (query: Record<string, string>, id?: string) => {
  const response = await check(query, id);
  expect(response.statusCode).toBe(200);
  return ZEmbedCheckResponse.parse(response.json()).allowed;
};

describe('GET /api/consent/{id}/embed-check', () => {
  it('allows an origin the consent owner registered, readable from any origin and never cached', async () => {
    const response = await check({ clientId: owner.clientId, origin: SHOP });
    expect(response.json()).toEqual({ success: true, allowed: true });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses an origin the owner did not register: another host, scheme or port', async () => {
    for (const origin of [
      'http://127.0.0.1:3918',
      'http://shop.owner.example',
      'https://shop.owner.example:8443',
      'https://shop.other.example',
      'null',
    ]) {
      expect(await allowed({ clientId: owner.clientId, origin }), origin).toBe(false);
    }
  });

  it('refuses every origin to a client that does not own the consent, its own included', async () => {
    expect(await allowed({ clientId: other.clientId, origin: 'https://shop.other.example' })).toBe(
      false,
    );
    expect(await allowed({ clientId: 'cli_nobody', origin: SHOP })).toBe(false);
  });

  it("answers an unknown consent as the page frames it: with the client's origins, to show Consent not found", async () => {
    expect(await allowed({ clientId: owner.clientId, origin: SHOP }, 'cns_missing')).toBe(true);
    expect(
      await allowed({ clientId: owner.clientId, origin: 'https://evil.example' }, 'cns_missing'),
    ).toBe(false);
  });

  it('answers 400 in the catalogue shape without a client id or an origin', async () => {
    for (const query of [{ origin: SHOP }, { clientId: owner.clientId }] as Record<
      string,
      string
    >[]) {
      const response = await check(query);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_FAILED' },
      });
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('counts checks per address, and its 429 is readable cross-origin too', async () => {
    const send = () =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/consent/${consentId}/embed-check`,
        query: { clientId: owner.clientId, origin: SHOP },
        remoteAddress: '10.9.1.1',
      });
    for (let i = 0; i < 3; i += 1) expect((await send()).statusCode).toBe(200);
    const refused = await send();
    expectRateLimited(refused, 60_000);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });
});

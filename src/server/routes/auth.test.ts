import { eq } from 'drizzle-orm';
import { ALL_CAPABILITIES_ON } from '../../domain/capabilities';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIRST_PARTY_CLIENT_ID } from '../../domain/schemas/auth';
import { consents } from '../db/schema';
import { addMerchantAgent } from '../services/merchants/merchant-agents';
import { createTestClient, startTestApp } from '../testing/test-app';
import {
  addPasskey,
  openDiscovery,
  signInOptions,
  signUp,
  softAuthenticatorFor,
  testPhone,
} from '../testing/identity';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let merchant: Awaited<ReturnType<typeof createTestClient>>;
let consentId: string;

beforeAll(async () => {
  ctx = await startTestApp();
  merchant = await createTestClient(ctx.database, {
    name: 'Tola Stores',
    origins: ['https://shop.tola.example'],
  });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: { dataSharing: { bvnData: true }, requirements: { requiresAuth: true } },
  });
  consentId = created.json().consentId;
});
afterAll(() => ctx.close());
afterEach(() => vi.useRealTimers());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function passkeyLogin(
  response: unknown,
  discovery: { discoveryId?: string; clientId?: string } = {},
) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: {
      method: 'passkey',
      clientId: discovery.clientId ?? FIRST_PARTY_CLIENT_ID,
      discoveryId: discovery.discoveryId ?? (await openDiscovery(ctx.app)),
      response,
    },
  });
}

describe('POST /api/auth/discovery', () => {
  it('opens a discovery for a consent the clientId may read', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/discovery',
      payload: { consentId, clientId: merchant.clientId },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().discoveryId).toMatch(/^dsc_/);
  });

  it('answers the consent read errors: missing clientId, unknown consent, another client', async () => {
    const post = (payload: object) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/discovery', payload });
    const missing = await post({ consentId });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('clientId URL parameter is required');
    const unknown = await post({ consentId: 'cns_nope', clientId: merchant.clientId });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Consent not found or has expired');
    const other = await createTestClient(ctx.database, { name: 'Other' });
    const forbidden = await post({ consentId, clientId: other.clientId });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe('CONSENT_FORBIDDEN');
    const stranger = await post({ clientId: 'cli_unknown' });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error.code).toBe('CLIENT_NOT_RECOGNISED');
  });
});

describe('POST /api/auth/login', () => {
  it("refuses a login without a discovery id with the spec's message", async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: {
        method: 'phone-code',
        clientId: FIRST_PARTY_CLIENT_ID,
        phone: '08031234567',
        code: '123456',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'DISCOVERY_ID_REQUIRED',
      message: 'Discovery ID is required for authentication',
    });
  });

  it('refuses a login without a clientId', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { method: 'phone-code', discoveryId: 'dsc_x', phone: '08031234567', code: '123456' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('MISSING_CLIENT_ID');
  });

  it('signs up by code, adds passkeys, and signs in with a passkey for a consent', async () => {
    const soft = softAuthenticatorFor(ctx.config);
    const phone = testPhone();
    const { token, user } = await signUp(ctx.app, phone, 'Bola Ahmed');
    expect((await addPasskey(ctx.app, token, soft)).passkeyCount).toBe(1);
    expect((await addPasskey(ctx.app, token, soft)).passkeyCount).toBe(2);

    const discoveryId = await openDiscovery(ctx.app, { consentId, clientId: merchant.clientId });
    const options = await signInOptions(ctx.app);
    const response = await passkeyLogin(
      soft.assert(options.challenge, { credential: soft.credentials[1] }),
      {
        discoveryId,
        clientId: merchant.clientId,
      },
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      user: { userId: user.userId, fullName: 'Bola Ahmed' },
    });
    expect(body.passkeyCount).toBe(2);
    // The consent now names the authentication session (spec §3 attestDiscoveryId).
    const [row] = await ctx.database.db.select().from(consents).where(eq(consents.id, consentId));
    expect(row?.attestDiscoveryId).toBe(discoveryId);

    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(body.token),
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.phoneNumber).toMatch(/^\+234/);
  });

  it('uses a sign-in challenge once: the same assertion again is refused', async () => {
    const soft = softAuthenticatorFor(ctx.config);
    const { token } = await signUp(ctx.app, testPhone());
    await addPasskey(ctx.app, token, soft);
    const assertion = soft.assert((await signInOptions(ctx.app)).challenge);
    expect((await passkeyLogin(assertion)).statusCode).toBe(200);
    const replay = await passkeyLogin(assertion);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().error.code).toBe('TEMPORARY_KEY_USED');
  });

  it(
    'accepts one of two racing assertions that carry the same signature counter (a clone)',
    { tags: ['postgres'] },
    async () => {
      const soft = softAuthenticatorFor(ctx.config);
      const { token } = await signUp(ctx.app, testPhone());
      await addPasskey(ctx.app, token, soft);
      const credential = soft.credentials[0];
      if (!credential) throw new Error('no passkey');
      credential.counter = 41;
      const [first, second] = await Promise.all([signInOptions(ctx.app), signInOptions(ctx.app)]);
      const original = soft.assert(first.challenge);
      credential.counter = 41; // the clone signs with the same counter
      const clone = soft.assert(second.challenge);
      const answers = await Promise.all([passkeyLogin(original), passkeyLogin(clone)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    },
  );

  it("refuses an expired challenge with 'Temporary key expired'", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-05-01T09:00:00Z'));
    const soft = softAuthenticatorFor(ctx.config);
    const { token } = await signUp(ctx.app, testPhone());
    await addPasskey(ctx.app, token, soft);
    const { challenge } = await signInOptions(ctx.app);
    vi.setSystemTime(new Date('2031-05-01T09:05:01Z'));
    const response = await passkeyLogin(soft.assert(challenge));
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toEqual({
      code: 'TEMPORARY_KEY_EXPIRED',
      message: 'Temporary key expired',
    });
  });

  it('refuses a challenge the server never issued, and an assertion from another origin', async () => {
    const soft = softAuthenticatorFor(ctx.config);
    const { token } = await signUp(ctx.app, testPhone());
    await addPasskey(ctx.app, token, soft);
    const invented = await passkeyLogin(soft.assert('aW52ZW50ZWQtY2hhbGxlbmdlLXZhbHVl'));
    expect(invented.json().error.message).toBe('Temporary key expired');
    const { challenge } = await signInOptions(ctx.app);
    const phished = await passkeyLogin(soft.assert(challenge, { origin: 'https://evil.example' }));
    expect(phished.statusCode).toBe(401);
    expect(phished.json().error.message).toBe('Authentication failed. Please try again.');
  });

  it("accepts a passkey used inside the merchant's registered iframe, and no other framer", async () => {
    const soft = softAuthenticatorFor(ctx.config);
    const { token } = await signUp(ctx.app, testPhone());
    await addPasskey(ctx.app, token, soft);
    const framed = async (topOrigin: string) =>
      passkeyLogin(soft.assert((await signInOptions(ctx.app)).challenge, { topOrigin }), {
        discoveryId: await openDiscovery(ctx.app, { consentId, clientId: merchant.clientId }),
        clientId: merchant.clientId,
      });
    expect((await framed('https://shop.tola.example')).statusCode).toBe(200);
    const stranger = await framed('https://evil.example');
    expect(stranger.statusCode).toBe(401);
    expect(stranger.json().error.code).toBe('AUTHENTICATION_FAILED_RETRY');
  });

  it('refuses a passkey without user verification (the login is biometric)', async () => {
    const soft = softAuthenticatorFor(ctx.config);
    const { token } = await signUp(ctx.app, testPhone());
    await addPasskey(ctx.app, token, soft);
    const { challenge } = await signInOptions(ctx.app);
    const response = await passkeyLogin(soft.assert(challenge, { userVerified: false }));
    expect(response.json().error.code).toBe('AUTHENTICATION_FAILED_RETRY');
  });

  it('refuses a passkey the server does not know', async () => {
    const stranger = softAuthenticatorFor(ctx.config);
    stranger.register({
      challenge: 'c3RyYW5nZXItY2hhbGxlbmdl',
      user: { id: Buffer.from('usr_nobody').toString('base64url') },
    });
    const { challenge } = await signInOptions(ctx.app);
    const response = await passkeyLogin(stranger.assert(challenge));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('PASSKEY_NOT_RECOGNISED');
  });

  it('signs in once per discovery; a used one is a temporary key expired', async () => {
    const soft = softAuthenticatorFor(ctx.config);
    const { token } = await signUp(ctx.app, testPhone());
    await addPasskey(ctx.app, token, soft);
    const discoveryId = await openDiscovery(ctx.app);
    expect(
      (await passkeyLogin(soft.assert((await signInOptions(ctx.app)).challenge), { discoveryId }))
        .statusCode,
    ).toBe(200);
    const again = await passkeyLogin(soft.assert((await signInOptions(ctx.app)).challenge), {
      discoveryId,
    });
    expect(again.json().error.message).toBe('Temporary key expired');
  });

  it('refuses a passkey registration replayed with its used challenge', async () => {
    const soft = softAuthenticatorFor(ctx.config);
    const { token } = await signUp(ctx.app, testPhone());
    const options = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys/registration-options',
      headers: bearer(token),
    });
    const registration = soft.register(options.json().options);
    const post = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/passkeys',
        headers: bearer(token),
        payload: { response: registration },
      });
    expect((await post()).statusCode).toBe(201);
    const replay = await post();
    expect(replay.statusCode).toBe(409);
    expect(replay.json().error.code).toBe('TEMPORARY_KEY_USED');
  });

  it('leaves a registration challenge intact when another payer tries to use it', async () => {
    const soft = softAuthenticatorFor(ctx.config);
    const owner = await signUp(ctx.app, testPhone());
    const intruder = await signUp(ctx.app, testPhone());
    const options = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys/registration-options',
      headers: bearer(owner.token),
    });
    const registration = soft.register(options.json().options);
    const postAs = (token: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/passkeys',
        headers: bearer(token),
        payload: { response: registration },
      });
    const stolen = await postAs(intruder.token);
    expect(stolen.statusCode).toBeGreaterThanOrEqual(400);
    expect(stolen.statusCode).toBeLessThan(500);
    expect(stolen.json().error.code).toBe('AUTHENTICATION_FAILED_RETRY');
    expect((await postAs(owner.token)).statusCode).toBe(201);
  });
});

describe('bearer tokens', () => {
  it('answers 401 AUTH_TOKEN_UNAVAILABLE without a token and AUTHENTICATION_FAILED for a forged one, each with the Bearer challenge', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.message).toBe('Authentication token not available');
    expect(none.headers['www-authenticate']).toBe('Bearer realm="Oya"');
    const { token } = await signUp(ctx.app, testPhone());
    const [head, payload] = token.split('.');
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(`${head}.${payload}.${'A'.repeat(43)}`),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.code).toBe('AUTHENTICATION_FAILED');
    expect(forged.headers['www-authenticate']).toBe('Bearer realm="Oya", error="invalid_token"');
  });

  it('expires a token after its lifetime with 401 TOKEN_EXPIRED', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-06-01T09:00:00Z'));
    const { token } = await signUp(ctx.app, testPhone());
    vi.setSystemTime(new Date(Date.UTC(2031, 5, 1, 9, 0, ctx.config.authTokenTtlSeconds - 1)));
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
    vi.setSystemTime(new Date(Date.UTC(2031, 5, 1, 9, 0, ctx.config.authTokenTtlSeconds + 1)));
    const expired = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(token),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toEqual({
      code: 'TOKEN_EXPIRED',
      message: 'Token expired - redirecting to login',
    });
    expect(expired.headers['www-authenticate']).toBe('Bearer realm="Oya", error="invalid_token"');
  });

  it('revokes the token on sign-out', async () => {
    const { token } = await signUp(ctx.app, testPhone());
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(token),
    });
    expect(out.statusCode).toBe(200);
    const after = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(token),
    });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('TOKEN_EXPIRED');
  });
});

describe('x-identify-to (spec §6 merchant or agent mode)', () => {
  it('acts for a merchant whose agent the payer is, and refuses any other', async () => {
    const { token, user } = await signUp(ctx.app, testPhone());
    await addMerchantAgent(ctx.database.db, {
      merchantId: merchant.merchantId,
      payerId: user.userId,
      role: 'Cashier',
    });
    const session = (identifyTo?: string) =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { ...bearer(token), ...(identifyTo ? { 'x-identify-to': identifyTo } : {}) },
      });
    expect((await session()).json().identifiedTo).toBeNull();
    expect((await session(merchant.merchantId)).json().identifiedTo).toEqual({
      merchantId: merchant.merchantId,
      merchantName: 'Tola Stores',
      role: 'Cashier',
    });
    const other = await createTestClient(ctx.database, { name: 'Not Mine' });
    const refused = await session(other.merchantId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('IDENTIFY_TO_FORBIDDEN');
  });

  it('is ignored by auth/me, which always describes the person', async () => {
    const { token, user } = await signUp(ctx.app, testPhone());
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { ...bearer(token), 'x-identify-to': 'mer_someone_else' },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.userId).toBe(user.userId);
  });
});

describe('GET /api/public-config', () => {
  it("answers the product name the auth prompt shows, that testers' tools are off, the sandbox network on and every capability", async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/public-config' });
    expect(response.json()).toEqual({
      success: true,
      productName: ctx.config.productName,
      debugTools: false,
      sandbox: true,
      capabilities: ALL_CAPABILITIES_ON,
      terminal: 'reader',
    });
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantSigningMessage, type TGrantPayload } from '../../domain/schemas/auth';
import { createTestClient, startTestApp } from '../testing/test-app';
import { addPasskey, signUp, softAuthenticatorFor, testPhone } from '../testing/identity';
import type { SoftAuthenticator } from '../testing/soft-authenticator';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let consentId: string;
let payer: { token: string; soft: SoftAuthenticator };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  ctx = await startTestApp();
  const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: [
        { type: 'future', amount: 1_500_000, narration: 'Gym', frequency: 'monthly', interval: 1 },
      ],
      requirements: { requiresAuth: true },
    },
  });
  consentId = created.json().consentId;
  const soft = softAuthenticatorFor(ctx.config);
  const { token } = await signUp(ctx.app, testPhone());
  await addPasskey(ctx.app, token, soft);
  payer = { token, soft };
});
afterAll(() => ctx.close());

const payload: TGrantPayload = {
  attestDiscoveryId: 'dsc_1',
  futurePayments: { granted: true, selectedAccounts: ['acc_1'], paymentMethods: [] },
  dataSharing: { granted: false, dataTypes: [] },
};

async function challenge(token = payer.token) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/grant-challenges',
    headers: bearer(token),
    payload: { consentId },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ nonce: string; options: { allowCredentials: Array<{ id: string }> } }>();
}

/** What the page does: SHA-256 of the canonical message is the WebAuthn challenge. */
function sign(nonce: string, signedPayload: TGrantPayload, soft = payer.soft) {
  const digest = createHash('sha256')
    .update(grantSigningMessage({ consentId, nonce, payload: signedPayload }))
    .digest('base64url');
  return soft.assert(digest);
}

const verify = (body: object, token = payer.token) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/grant-signatures/verify',
    headers: bearer(token),
    payload: body,
  });

describe('signed grants', () => {
  it("verifies a payload signed by the payer's passkey", async () => {
    const { nonce, options } = await challenge();
    expect(options.allowCredentials.map((c) => c.id)).toEqual([
      Buffer.from(payer.soft.credentials[0]!.id).toString('base64url'),
    ]);
    // Key order does not matter: the digest is over canonical JSON.
    const reordered = {
      dataSharing: payload.dataSharing,
      futurePayments: payload.futurePayments,
      attestDiscoveryId: 'dsc_1',
    };
    const response = await verify({
      consentId,
      nonce,
      payload: reordered,
      response: sign(nonce, payload),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, verified: true });
  });

  it('refuses a payload altered after signing', async () => {
    const { nonce } = await challenge();
    const assertion = sign(nonce, payload);
    const altered = {
      ...payload,
      futurePayments: { granted: true, selectedAccounts: ['acc_evil'], paymentMethods: [] },
    };
    const response = await verify({ consentId, nonce, payload: altered, response: assertion });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'GRANT_SIGNATURE_INVALID',
      message: 'The biometric approval does not match this grant',
    });
    // The honest signature still goes through: a tampered try does not burn the nonce.
    expect((await verify({ consentId, nonce, payload, response: assertion })).statusCode).toBe(200);
  });

  it('refuses the same signature sent twice', async () => {
    const { nonce } = await challenge();
    const body = { consentId, nonce, payload, response: sign(nonce, payload) };
    expect((await verify(body)).statusCode).toBe(200);
    const replay = await verify(body);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().error.code).toBe('GRANT_SIGNATURE_REPLAYED');
  });

  it('refuses a signature under another consent id, and a nonce issued to someone else', async () => {
    const { nonce } = await challenge();
    const moved = await verify({
      consentId: 'cns_other',
      nonce,
      payload,
      response: sign(nonce, payload),
    });
    expect(moved.json().error.code).toBe('GRANT_SIGNATURE_INVALID');

    const otherSoft = softAuthenticatorFor(ctx.config);
    const other = await signUp(ctx.app, testPhone());
    await addPasskey(ctx.app, other.token, otherSoft);
    const stolen = await verify(
      { consentId, nonce, payload, response: sign(nonce, payload, otherSoft) },
      other.token,
    );
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.code).toBe('GRANT_SIGNATURE_INVALID');
  });

  it("refuses another payer's passkey signing with this payer's nonce", async () => {
    const otherSoft = softAuthenticatorFor(ctx.config);
    const other = await signUp(ctx.app, testPhone());
    await addPasskey(ctx.app, other.token, otherSoft);
    const { nonce } = await challenge();
    const response = await verify({
      consentId,
      nonce,
      payload,
      response: sign(nonce, payload, otherSoft),
    });
    expect(response.json().error.code).toBe('GRANT_SIGNATURE_INVALID');
  });

  it('asks a payer without a passkey to add one first', async () => {
    const bare = await signUp(ctx.app, testPhone());
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/grant-challenges',
      headers: bearer(bare.token),
      payload: { consentId },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('PASSKEY_REQUIRED');
  });

  it('answers a payer without a passkey the same for an unknown consent id as for a real one', async () => {
    const bare = await signUp(ctx.app, testPhone());
    const ask = (id: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/grant-challenges',
        headers: bearer(bare.token),
        payload: { consentId: id },
      });
    const [real, unknown] = await Promise.all([ask(consentId), ask('cns_doesnotexist')]);
    expect(unknown.statusCode).toBe(real.statusCode);
    expect(unknown.json()).toEqual(real.json());
  });

  it('answers a payer with a passkey alike for an unknown consent id and a real one; the unknown one cannot be granted', async () => {
    const ask = (id: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/grant-challenges',
        headers: bearer(payer.token),
        payload: { consentId: id },
      });
    const [real, unknown] = await Promise.all([ask(consentId), ask('cns_doesnotexist')]);
    expect(unknown.statusCode).toBe(200);
    expect(real.statusCode).toBe(200);
    const shape = (body: { nonce: string; expiresAt: string; options: object }) => ({
      keys: Object.keys(body).sort(),
      nonce: body.nonce.length,
      options: body.options,
    });
    expect(shape(unknown.json())).toEqual(shape(real.json()));
    const grant = await ctx.app.inject({
      method: 'POST',
      url: '/api/consent/cns_doesnotexist/grant',
      headers: bearer(payer.token),
      payload: {
        originalRequestId: null,
        consentData: { consentId: 'cns_doesnotexist' },
        userAuthenticated: true,
        attestDiscoveryId: null,
      },
    });
    expect(grant.statusCode).toBe(404);
  });
});

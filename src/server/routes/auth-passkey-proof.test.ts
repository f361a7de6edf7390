// Sensitive actions need the passkey, not a phone code (docs/identity.md "Actions and the proof
// they need"): a session signed in by an SMS code alone reads and revokes (and the payer is told
// by SMS), but removes no trusted passkey at once (the removal waits 24 h, with a cancel link),
// grants nothing (data sharing included) and releases no pending payment, until one of the
// payer's trusted passkeys proves it (a sign-in, a grant signature, or the step-up).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatLagosDateTime } from '../../domain/payment-date';
import { revocationSigningMessage } from '../../domain/schemas/payer-consents';
import {
  addPasskey,
  codeSession,
  signedGrant,
  signUp,
  softAuthenticatorFor,
  stepUp,
  testPhone,
} from '../testing/identity';
import type { SoftAuthenticator } from '../testing/soft-authenticator';
import { createTestClient, useTestApp, testClock } from '../testing/test-app';

const DAY = 24 * 60 * 60_000;
const PROOF_REQUIRED = {
  success: false,
  error: {
    code: 'PASSKEY_PROOF_REQUIRED',
    message: 'Confirm it is you with your passkey to do this. A code sent by SMS is not enough.',
  },
};

const clock = testClock('2031-05-04T09:00:00Z');
const ctx = useTestApp({ clock });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The victim: signed up on `phone`, with their first (trusted) passkey on their own phone. */
async function victim() {
  const phone = testPhone();
  const device = softAuthenticatorFor(ctx.config);
  const { token, user } = await signUp(ctx.app, phone);
  const passkey = await addPasskey(ctx.app, token, device);
  return { phone, userId: user.userId, token, device, passkeyId: passkey.passkeyId };
}

const messagesTo = async (phone: string) => {
  const outbox = await ctx.app.inject({
    method: 'GET',
    url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  });
  return outbox.json<{ messages: Array<{ body: string }> }>().messages.map((m) => m.body);
};

const me = async (token: string) => {
  const answer = await ctx.app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: bearer(token),
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ passkeyProven: boolean }>();
};

const removePasskey = (token: string, passkeyId: string) =>
  ctx.app.inject({
    method: 'DELETE',
    url: `/api/auth/passkeys/${encodeURIComponent(passkeyId)}`,
    headers: bearer(token),
  });

const devices = async (token: string) => {
  const answer = await ctx.app.inject({
    method: 'GET',
    url: '/api/auth/passkeys',
    headers: bearer(token),
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ passkeys: Array<{ passkeyId: string; removalDueAt: string | null }> }>()
    .passkeys;
};

/** A passkey sign-in with `device`: the login's answer. */
async function passkeySignIn(device: SoftAuthenticator) {
  const options = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/passkeys/sign-in-options',
  });
  const discovery = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/discovery',
    payload: { clientId: 'oya-web' },
  });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: {
      method: 'passkey',
      clientId: 'oya-web',
      discoveryId: discovery.json<{ discoveryId: string }>().discoveryId,
      response: device.assert(options.json<{ options: { challenge: string } }>().options.challenge),
    },
  });
}

/** A merchant's consent asking only to share the payer's BVN and NIN data. */
async function dataSharingConsent() {
  const merchant = await createTestClient(ctx.database, { name: 'Kola Lenders' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      dataSharing: { bvnData: true, ninData: true },
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ consentId: string }>().consentId;
}

const dataSharingGrant = (consentId: string) => ({
  originalRequestId: null,
  consentData: { consentId },
  userAuthenticated: true,
  attestDiscoveryId: null,
  dataSharing: { granted: true, dataTypes: ['bvnData' as const, 'ninData' as const] },
});

async function grant(token: string, device: SoftAuthenticator, consentId: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: bearer(token),
    payload: await signedGrant(ctx.app, device, token, consentId, dataSharingGrant(consentId)),
  });
}

describe("a session's proof", () => {
  it('is none for a code, and a trusted passkey gives it: a sign-in or the step-up', async () => {
    const payer = await victim();
    const byCode = await codeSession(ctx.app, payer.phone);
    expect(await me(byCode)).toMatchObject({ passkeyProven: false });

    const signedIn = await passkeySignIn(payer.device);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(await me(signedIn.json<{ token: string }>().token)).toMatchObject({
      passkeyProven: true,
    });

    const steppedUp = await stepUp(ctx.app, byCode, payer.device);
    expect(steppedUp.statusCode, steppedUp.body).toBe(200);
    expect(steppedUp.json()).toEqual({
      success: true,
      passkeyProvenAt: clock.now().toISOString(),
    });
    expect(await me(byCode)).toMatchObject({ passkeyProven: true });
  });

  it('is not given by a passkey added after a code alone, until its 24 h have passed', async () => {
    const payer = await victim();
    const attacker = await codeSession(ctx.app, payer.phone);
    const intruder = softAuthenticatorFor(ctx.config);
    const added = await addPasskey(ctx.app, attacker, intruder);
    expect(added.approval).toBe('none');

    const refused = await stepUp(ctx.app, attacker, intruder);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('PASSKEY_NOT_YET_TRUSTED');
    expect(await me(attacker)).toMatchObject({ passkeyProven: false });

    const signedIn = await passkeySignIn(intruder);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(await me(signedIn.json<{ token: string }>().token)).toMatchObject({
      passkeyProven: false,
    });
  });
});

describe('removing a passkey', () => {
  it('from a session signed in by code alone waits 24 h, and the payer gets a cancel link', async () => {
    const payer = await victim();
    const attacker = await codeSession(ctx.app, payer.phone);
    const askedAt = clock.now();

    const asked = await removePasskey(attacker, payer.passkeyId);
    expect(asked.statusCode, asked.body).toBe(202);
    const dueAt = new Date(askedAt.getTime() + DAY);
    expect(asked.json()).toEqual({
      success: true,
      passkeyId: payer.passkeyId,
      removalDueAt: dueAt.toISOString(),
      passkeyCount: 1,
    });
    const [sms] = await messagesTo(payer.phone);
    const token = /cancelRemoval=([\w-]+)#devices$/.exec(sms ?? '')?.[1] ?? '';
    expect(sms).toBe(
      `A passkey is to be removed from your Oya Money account on ${formatLagosDateTime(dueAt)}, ` +
        `asked for on ${formatLagosDateTime(askedAt)} from a session signed in by SMS code. ` +
        `If it was not you, cancel it now: ${ctx.config.publicUrl.replace(/\/$/, '')}` +
        `/consents?cancelRemoval=${token}#devices`,
    );
    expect(await devices(attacker)).toEqual([
      expect.objectContaining({ passkeyId: payer.passkeyId, removalDueAt: dueAt.toISOString() }),
    ]);

    // Until it is due, the victim still signs in with it, and that session is proven.
    clock.advance(DAY - 60_000);
    const victimBack = await passkeySignIn(payer.device);
    expect(victimBack.statusCode, victimBack.body).toBe(200);

    clock.advance(60_000);
    const gone = await passkeySignIn(payer.device);
    expect(gone.statusCode).toBe(401);
    expect(gone.json().error.code).toBe('PASSKEY_NOT_RECOGNISED');
    expect(await devices(await codeSession(ctx.app, payer.phone))).toEqual([]);
  });

  it("is cancelled by the SMS's link once, with no session", async () => {
    const payer = await victim();
    const attacker = await codeSession(ctx.app, payer.phone);
    expect((await removePasskey(attacker, payer.passkeyId)).statusCode).toBe(202);
    const [sms] = await messagesTo(payer.phone);
    const token = /cancelRemoval=([\w-]+)#devices$/.exec(sms ?? '')?.[1] ?? '';

    const cancel = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/passkeys/removals/cancel',
        payload: { token },
      });
    const cancelled = await cancel();
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ success: true, passkeyId: payer.passkeyId });
    const again = await cancel();
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({
      success: false,
      error: {
        code: 'PASSKEY_REMOVAL_CANCEL_INVALID',
        message:
          'This link no longer cancels a removal: it was used, or the removal already happened.',
      },
    });

    clock.advance(DAY + 60_000);
    expect(await devices(await codeSession(ctx.app, payer.phone))).toEqual([
      expect.objectContaining({ passkeyId: payer.passkeyId, removalDueAt: null }),
    ]);
    expect((await passkeySignIn(payer.device)).statusCode).toBe(200);
  });

  it("is not cancelled by the SMS's link once the removal is due, nor by a token of another", async () => {
    const payer = await victim();
    const attacker = await codeSession(ctx.app, payer.phone);
    expect((await removePasskey(attacker, payer.passkeyId)).statusCode).toBe(202);
    const [sms] = await messagesTo(payer.phone);
    const token = /cancelRemoval=([\w-]+)#devices$/.exec(sms ?? '')?.[1] ?? '';
    expect(token).toMatch(/^[\w-]{43}$/);
    const cancel = (value: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/passkeys/removals/cancel',
        payload: { token: value },
      });
    // A guessed token of the right shape cancels nothing.
    const guessed = await cancel(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    expect(guessed.statusCode).toBe(404);

    clock.advance(DAY);
    const late = await cancel(token);
    expect(late.statusCode).toBe(404);
    expect(late.json().error.code).toBe('PASSKEY_REMOVAL_CANCEL_INVALID');
    expect(await devices(await codeSession(ctx.app, payer.phone))).toEqual([]);
  });

  it('is at once from a session a trusted passkey proved, which may also cancel a scheduled one', async () => {
    const payer = await victim();
    const second = softAuthenticatorFor(ctx.config);
    const approved = await addPasskey(ctx.app, payer.token, second, payer.device);
    expect(approved.approval).toBe('approved');
    const attacker = await codeSession(ctx.app, payer.phone);
    expect((await removePasskey(attacker, payer.passkeyId)).statusCode).toBe(202);

    const cancelByCode = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/auth/passkeys/${encodeURIComponent(payer.passkeyId)}/removal`,
      headers: bearer(attacker),
    });
    expect(cancelByCode.statusCode).toBe(403);
    expect(cancelByCode.json()).toEqual(PROOF_REQUIRED);

    const owner = await passkeySignIn(payer.device);
    const ownerToken = owner.json<{ token: string }>().token;
    const kept = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/auth/passkeys/${encodeURIComponent(payer.passkeyId)}/removal`,
      headers: bearer(ownerToken),
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await devices(ownerToken)).map((d) => d.removalDueAt)).toEqual([null, null]);

    const removed = await removePasskey(ownerToken, approved.passkeyId);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ success: true, passkeyCount: 1 });
  });

  it('that cannot approve payments yet is at once, from any session', async () => {
    const payer = await victim();
    const session = await codeSession(ctx.app, payer.phone);
    const added = await addPasskey(ctx.app, session, softAuthenticatorFor(ctx.config));
    expect(added.approval).toBe('none');
    const removed = await removePasskey(session, added.passkeyId);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ success: true, passkeyCount: 1 });
  });
});

describe('granting', () => {
  it('data sharing from a session signed in by code alone is refused unless a trusted passkey signs it', async () => {
    const payer = await victim();
    const attacker = await codeSession(ctx.app, payer.phone);
    const intruder = softAuthenticatorFor(ctx.config);
    await addPasskey(ctx.app, attacker, intruder);
    const consentId = await dataSharingConsent();

    const refused = await grant(attacker, intruder, consentId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.code).toBe('PASSKEY_NOT_YET_TRUSTED');
    const pending = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/consents`,
      headers: bearer(attacker),
    });
    expect(pending.json<{ consents: unknown[] }>().consents).toEqual([]);

    // The payer's own trusted passkey signs it: granted, and that proves the session.
    const byCode = await codeSession(ctx.app, payer.phone);
    const granted = await grant(byCode, payer.device, consentId);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ status: 'granted' });
    expect(await me(byCode)).toMatchObject({ passkeyProven: true });
  });
});

describe('releasing pending payments', () => {
  it('is refused to a session signed in by code alone, and allowed once the step-up proves it', async () => {
    const payer = await victim();
    const session = await codeSession(ctx.app, payer.phone);
    const release = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/payments/release-pending',
        headers: bearer(session),
        payload: { destinationAccountId: 'acc_unknown' },
      });
    const refused = await release();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(PROOF_REQUIRED);

    expect((await stepUp(ctx.app, session, payer.device)).statusCode).toBe(200);
    const checked = await release();
    // Proven, the release reaches its own checks: this account is none of the payer's.
    expect(checked.statusCode).toBe(404);
    expect(checked.json().error.code).toBe('PAYOUT_ACCOUNT_NOT_LINKED');
  });
});

describe('revoking', () => {
  it('is allowed to a session signed in by code alone, and the payer is told by SMS', async () => {
    const payer = await victim();
    const consentId = await dataSharingConsent();
    expect((await grant(payer.token, payer.device, consentId)).statusCode).toBe(200);

    const attacker = await codeSession(ctx.app, payer.phone);
    const intruder = softAuthenticatorFor(ctx.config);
    await addPasskey(ctx.app, attacker, intruder);
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/consents/${consentId}/revocation-challenges`,
      headers: bearer(attacker),
    });
    const { nonce } = issued.json<{ nonce: string }>();
    const digest = createHash('sha256')
      .update(revocationSigningMessage({ consentId, nonce }))
      .digest('base64url');
    const revoked = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/consents/${consentId}/revoke`,
      headers: bearer(attacker),
      payload: { nonce, response: intruder.assert(digest) },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ consent: { status: 'revoked' } });
    const [sms] = await messagesTo(payer.phone);
    expect(sms).toBe(
      `Your consent to Kola Lenders was revoked on your Oya Money account on ` +
        `${formatLagosDateTime(clock.now())}, from a session signed in by SMS code. ` +
        `If it was not you, check your account: ${ctx.config.publicUrl.replace(/\/$/, '')}/consents#devices`,
    );
  });

  it('by a session a trusted passkey proved sends no such SMS', async () => {
    const payer = await victim();
    const consentId = await dataSharingConsent();
    expect((await grant(payer.token, payer.device, consentId)).statusCode).toBe(200);
    const before = await messagesTo(payer.phone);
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/consents/${consentId}/revocation-challenges`,
      headers: bearer(payer.token),
    });
    const { nonce } = issued.json<{ nonce: string }>();
    const digest = createHash('sha256')
      .update(revocationSigningMessage({ consentId, nonce }))
      .digest('base64url');
    const revoked = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/consents/${consentId}/revoke`,
      headers: bearer(payer.token),
      payload: { nonce, response: payer.device.assert(digest) },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await messagesTo(payer.phone)).toEqual(before);
  });
});

// When a passkey may authorise money (docs/identity.md "When a passkey is trusted"): a new payer's
// first passkey signs at once; a later one signs at once when one of the payer's trusted passkeys
// approves it, and otherwise (added after a phone code alone) signs no debit, mandate or debit of
// a new link for 24 h; the payer's number is told of every device added; and the payer lists and
// removes their own passkeys, which then sign nothing.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UNAPPROVED_PASSKEY_WAIT_MS } from '../../domain/passkey-trust';
import { formatLagosDateTime } from '../../domain/payment-date';
import { passkeyApprovalMessage } from '../../domain/schemas/auth';
import { payers, passkeys, payments } from '../db/schema';
import { DEMO_PAYER, seedDemo } from '../services/demo/demo-seed';
import {
  addPasskey,
  latestCode,
  loginWithCode,
  passkeyRegistration,
  sendCode,
  signedGrant,
  signUp,
  softAuthenticatorFor,
  testPhone,
} from '../testing/identity';
import { linkByTestTransfer, sandboxBalanceOf } from '../testing/payments';
import type { SoftAuthenticator } from '../testing/soft-authenticator';
import { createTestClient, useTestApp, testClock } from '../testing/test-app';

const clock = testClock(new Date());
const ctx = useTestApp({ clock });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A payer signed up on `phone` with a first passkey on their own phone (`device`). */
async function payerWithPhone() {
  const phone = testPhone();
  const device = softAuthenticatorFor(ctx.config);
  const { token, user } = await signUp(ctx.app, phone);
  const first = await addPasskey(ctx.app, token, device);
  return { phone, userId: user.userId, token, device, first };
}

/** A new session of the payer of `phone`, proven by a phone code alone. */
async function codeSession(phone: string): Promise<string> {
  expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
  const login = await loginWithCode(ctx.app, { phone, code: await latestCode(ctx.app, phone) });
  expect(login.statusCode, login.body).toBe(200);
  return login.json<{ token: string }>().token;
}

/** A consent asking for an immediate payment, or for future payments only (a mandate). */
async function consent(kind: 'debit' | 'mandate') {
  const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments:
        kind === 'debit'
          ? [{ type: 'immediate', amount: 250_000, narration: 'Order #1042' }]
          : [{ type: 'future', amount: 1_500_000, amountType: 'fixed', narration: 'Membership' }],
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ consentId: string }>().consentId;
}

/** The grant of a 'debit' consent from `accountId` (OneTap), or of a mandate on it. */
const grantData = (consentId: string, kind: 'debit' | 'mandate', accountId: string) => ({
  originalRequestId: null,
  consentData: { consentId },
  userAuthenticated: true,
  attestDiscoveryId: null,
  ...(kind === 'debit'
    ? {
        immediatePayments: {
          granted: true,
          selectedAccounts: [accountId],
          paymentMethods: [{ type: 'account' as const, accountId }],
        },
      }
    : {
        futurePayments: {
          granted: true,
          selectedAccounts: [accountId],
          paymentMethods: [{ type: 'account' as const, accountId }],
        },
      }),
});

/** A grant of a fresh consent of `kind`, signed by the first passkey on `device`. */
async function grant(
  token: string,
  device: SoftAuthenticator,
  kind: 'debit' | 'mandate',
  accountId: string,
) {
  const consentId = await consent(kind);
  const data = grantData(consentId, kind, accountId);
  const answer = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: bearer(token),
    payload: await signedGrant(ctx.app, device, token, consentId, data),
  });
  return { answer, consentId };
}

const messagesTo = async (phone: string) => {
  const outbox = await ctx.app.inject({
    method: 'GET',
    url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  });
  return outbox.json<{ messages: Array<{ body: string }> }>().messages.map((m) => m.body);
};

describe("a new payer's first passkey", () => {
  it('signs a OneTap debit at once, and the payer gets no new-device SMS for it', async () => {
    const payer = await payerWithPhone();
    expect(payer.first).toMatchObject({ approval: 'not-needed', passkeyCount: 1 });
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const { answer } = await grant(payer.token, payer.device, 'debit', accountId);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ status: 'granted', paymentResults: { succeeded: 1 } });
    expect((await messagesTo(payer.phone)).some((m) => m.startsWith('A new device'))).toBe(false);
  });

  it("is the demo payer's too, whose account the seed linked before any passkey", async () => {
    await seedDemo(ctx.database.db, ctx.config, clock.now());
    const token = await codeSession(DEMO_PAYER.phone);
    const made = await addPasskey(ctx.app, token, softAuthenticatorFor(ctx.config));
    expect(made).toMatchObject({ approval: 'not-needed' });
    // Any other payer who linked an account before their first passkey waits for it.
    const other = testPhone();
    const { token: otherToken } = await signUp(ctx.app, other);
    await linkByTestTransfer(ctx.app, otherToken, 'links_by_test_transfer');
    const late = await addPasskey(ctx.app, otherToken, softAuthenticatorFor(ctx.config));
    expect(late).toMatchObject({ approval: 'none' });
    const [vouched] = await ctx.database.db
      .select({ trusts: payers.trustsFirstPasskey })
      .from(payers)
      .where(eq(payers.id, DEMO_PAYER.id));
    expect(vouched?.trusts).toBe(true);
  });
});

describe('a passkey added after a phone code alone', () => {
  it('cannot sign a OneTap debit, a mandate or a debit of a new link for 24 h; then it can', async () => {
    const payer = await payerWithPhone();
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    // Someone with the payer's SMS code signs in and adds a passkey of their own.
    const token = await codeSession(payer.phone);
    const intruder = softAuthenticatorFor(ctx.config);
    const registration = await passkeyRegistration(ctx.app, token, intruder);
    expect(registration.approval).toMatchObject({
      needed: true,
      allowCredentials: [{ id: payer.first.passkeyId }],
    });
    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys',
      headers: bearer(token),
      payload: { response: registration.response },
    });
    expect(added.statusCode, added.body).toBe(201);
    const addedAt = clock.now();
    const signsFrom = new Date(addedAt.getTime() + UNAPPROVED_PASSKEY_WAIT_MS);
    expect(added.json()).toMatchObject({
      approval: 'none',
      passkeyCount: 2,
      signsFrom: signsFrom.toISOString(),
    });
    // An account linked in that session is no way round it.
    const newLink = await linkByTestTransfer(ctx.app, token, 'insufficient_funds');
    const balance = await sandboxBalanceOf(ctx.database, 'links_by_test_transfer');

    const refusal = {
      success: false,
      error: {
        code: 'PASSKEY_NOT_YET_TRUSTED',
        message: `Added without approval, this passkey can approve payments and mandates from ${formatLagosDateTime(signsFrom)}.`,
      },
    };
    const debit = await grant(token, intruder, 'debit', accountId);
    expect(debit.answer.statusCode).toBe(409);
    expect(debit.answer.json()).toEqual(refusal);
    const mandate = await grant(token, intruder, 'mandate', accountId);
    expect(mandate.answer.statusCode).toBe(409);
    expect(mandate.answer.json()).toEqual(refusal);
    const linked = await grant(token, intruder, 'debit', newLink);
    expect(linked.answer.json()).toEqual(refusal);
    // Nothing was debited, nothing granted.
    expect(await sandboxBalanceOf(ctx.database, 'links_by_test_transfer')).toBe(balance);
    const [unpaid] = await ctx.database.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.consentId, debit.consentId));
    expect(unpaid?.status).toBe('pending');
    // The payer's own first passkey still signs in that same session.
    expect((await grant(token, payer.device, 'mandate', accountId)).answer.statusCode).toBe(200);

    // A second short of 24 h: still refused.
    clock.advance(UNAPPROVED_PASSKEY_WAIT_MS - 1_000);
    const nearly = await grant(await codeSession(payer.phone), intruder, 'debit', accountId);
    expect(nearly.answer.json()).toEqual(refusal);
    // 24 h after it was added: it signs.
    clock.advance(1_000);
    const later = await codeSession(payer.phone);
    const signed = await grant(later, intruder, 'debit', accountId);
    expect(signed.answer.statusCode, signed.answer.body).toBe(200);
    expect((await grant(later, intruder, 'mandate', accountId)).answer.statusCode).toBe(200);
  });

  it('tells the payer at once by SMS: "A new device was added …", when, and where to remove it', async () => {
    const payer = await payerWithPhone();
    await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const token = await codeSession(payer.phone);
    const added = await addPasskey(ctx.app, token, softAuthenticatorFor(ctx.config));
    const now = clock.now();
    const [latest] = await messagesTo(payer.phone);
    expect(latest).toBe(
      `A new device was added to your Oya Money account on ${formatLagosDateTime(now)}. It can sign you in, and can approve payments, mandates and account links from ${formatLagosDateTime(new Date(added.signsFrom))}. If it was not you, remove it now on your account page: http://localhost:3999/consents#devices`,
    );
  });
});

describe('a passkey approved by one the payer has', () => {
  it('signs a OneTap debit at once, and the payer is told of it', async () => {
    const payer = await payerWithPhone();
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    // A new phone, after a code; the old phone approves it.
    const token = await codeSession(payer.phone);
    const phone2 = softAuthenticatorFor(ctx.config);
    const added = await addPasskey(ctx.app, token, phone2, payer.device);
    expect(added).toMatchObject({ approval: 'approved', signsFrom: clock.now().toISOString() });
    const [row] = await ctx.database.db
      .select({ approvedBy: passkeys.approvedBy })
      .from(passkeys)
      .where(eq(passkeys.id, added.passkeyId));
    expect(row?.approvedBy).toBe(payer.first.passkeyId);
    const { answer } = await grant(token, phone2, 'debit', accountId);
    expect(answer.statusCode, answer.body).toBe(200);
    // Told once (the grant's receipt comes after it).
    const told =
      /^A new device was added to your Oya Money account on .+, approved with one of your passkeys\. If it was not you, remove it on your account page: http:\/\/localhost:3999\/consents#devices$/;
    await expect
      .poll(async () => (await messagesTo(payer.phone)).filter((m) => told.test(m)).length)
      .toBe(1);
  });

  it('is refused when the approver is a passkey still waiting out its 24 h', async () => {
    const payer = await payerWithPhone();
    await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const token = await codeSession(payer.phone);
    const waiting = softAuthenticatorFor(ctx.config);
    await addPasskey(ctx.app, token, waiting);
    const made = await passkeyRegistration(
      ctx.app,
      token,
      softAuthenticatorFor(ctx.config),
      waiting,
    );
    // Only trusted passkeys are offered as approvers.
    expect(made.approval.allowCredentials.map((c) => c.id)).toEqual([payer.first.passkeyId]);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys',
      headers: bearer(token),
      payload: { response: made.response, ...made.body },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('PASSKEY_NOT_YET_TRUSTED');
    expect(await passkeyIdsOf(token)).toHaveLength(2);
  });

  it('is refused when the approval was made for another registration', async () => {
    const payer = await payerWithPhone();
    const token = await codeSession(payer.phone);
    const made = await passkeyRegistration(ctx.app, token, softAuthenticatorFor(ctx.config));
    const otherDigest = createHash('sha256')
      .update(
        passkeyApprovalMessage({
          registrationChallenge: 'another-challenge-0123456789',
          credentialId: made.response.id,
        }),
      )
      .digest('base64url');
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys',
      headers: bearer(token),
      payload: { response: made.response, approval: payer.device.assert(otherDigest) },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('PASSKEY_APPROVAL_INVALID');
    expect(await passkeyIdsOf(token)).toEqual([payer.first.passkeyId]);
  });
});

async function passkeyIdsOf(token: string): Promise<string[]> {
  const listed = await ctx.app.inject({
    method: 'GET',
    url: '/api/auth/passkeys',
    headers: bearer(token),
  });
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<{ passkeys: Array<{ passkeyId: string }> }>().passkeys.map((p) => p.passkeyId);
}

describe("the payer's devices", () => {
  it('lists their own passkeys with whether each may approve payments yet', async () => {
    const payer = await payerWithPhone();
    await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    clock.advance(60_000);
    const token = await codeSession(payer.phone);
    const added = await addPasskey(ctx.app, token, softAuthenticatorFor(ctx.config));
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/passkeys',
      headers: bearer(payer.token),
    });
    expect(listed.json()).toEqual({
      success: true,
      passkeys: [
        {
          passkeyId: payer.first.passkeyId,
          createdAt: expect.any(String),
          lastUsedAt: null,
          synced: false,
          approval: 'not-needed',
          signsFrom: payer.first.signsFrom,
          canApprove: true,
          removalDueAt: null,
        },
        {
          passkeyId: added.passkeyId,
          createdAt: clock.now().toISOString(),
          lastUsedAt: null,
          synced: false,
          approval: 'none',
          signsFrom: added.signsFrom,
          canApprove: false,
          removalDueAt: null,
        },
      ],
    });
  });

  it("removes one of their own at once for grant signing, and cannot remove another payer's (404)", async () => {
    const payer = await payerWithPhone();
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const stranger = await payerWithPhone();
    const path = (id: string) => `/api/auth/passkeys/${encodeURIComponent(id)}`;

    const theirs = await ctx.app.inject({
      method: 'DELETE',
      url: path(payer.first.passkeyId),
      headers: bearer(stranger.token),
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({
      success: false,
      error: { code: 'PASSKEY_NOT_FOUND', message: 'No passkey of yours has this id' },
    });
    expect(await passkeyIdsOf(payer.token)).toEqual([payer.first.passkeyId]);

    // A signature made before the removal is sent after it: refused.
    const consentId = await consent('debit');
    const signed = await signedGrant(
      ctx.app,
      payer.device,
      payer.token,
      consentId,
      grantData(consentId, 'debit', accountId),
    );
    // Removing one's last passkey is allowed: a code still signs the payer in.
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: path(payer.first.passkeyId),
      headers: bearer(payer.token),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ success: true, passkeyCount: 0 });
    expect(await passkeyIdsOf(payer.token)).toEqual([]);
    const late = await ctx.app.inject({
      method: 'POST',
      url: `/api/consent/${consentId}/grant`,
      headers: bearer(payer.token),
      payload: signed,
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('GRANT_SIGNATURE_INVALID');
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: path(payer.first.passkeyId),
      headers: bearer(payer.token),
    });
    expect(again.statusCode).toBe(404);

    // With no passkey left, a new one on an account in use finds no approver and waits.
    const next = await passkeyRegistration(ctx.app, payer.token, softAuthenticatorFor(ctx.config));
    expect(next.approval).toMatchObject({ needed: true, allowCredentials: [] });
  });
});

describe('a payer who removed every passkey and account', () => {
  it('is not new when they granted a consent: a new passkey waits', async () => {
    const payer = await payerWithPhone();
    const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: merchant.authorization },
      payload: { dataSharing: { bvnData: true }, requirements: { requiresAuth: true } },
    });
    const { consentId } = created.json<{ consentId: string }>();
    const data = {
      originalRequestId: null,
      consentData: { consentId },
      userAuthenticated: true,
      attestDiscoveryId: null,
      dataSharing: { granted: true, dataTypes: ['bvnData' as const] },
    };
    // Signed by their first passkey, trusted at once: every grant needs a trusted passkey.
    const granted = await ctx.app.inject({
      method: 'POST',
      url: `/api/consent/${consentId}/grant`,
      headers: bearer(payer.token),
      payload: await signedGrant(ctx.app, payer.device, payer.token, consentId, data),
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/auth/passkeys/${payer.first.passkeyId}`,
      headers: bearer(payer.token),
    });
    expect(removed.json()).toEqual({ success: true, passkeyCount: 0 });
    const next = await addPasskey(ctx.app, payer.token, softAuthenticatorFor(ctx.config));
    expect(next).toMatchObject({ approval: 'none' });
  });
});

describe('two first passkeys registered at once', () => {
  it('only one signs at once', { tags: ['postgres'] }, async () => {
    const { token } = await signUp(ctx.app, testPhone());
    const made = await Promise.all(
      [1, 2].map(() => passkeyRegistration(ctx.app, token, softAuthenticatorFor(ctx.config))),
    );
    const saved = await Promise.all(
      made.map((m) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/auth/passkeys',
          headers: bearer(token),
          payload: { response: m.response },
        }),
      ),
    );
    expect(saved.map((s) => s.statusCode)).toEqual([201, 201]);
    expect(saved.map((s) => s.json().approval).sort()).toEqual(['none', 'not-needed']);
  });
});

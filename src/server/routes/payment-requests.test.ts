// Payment requests between payers (docs/payment-requests.md; spec §7 POST /api/consent,
// GET /api/consent/payment-request/{id}, POST /api/users/decline-invitation/{id}): a signed-in
// payer asks another for a consent to pay them; the request is a consent whose counterparty is
// the requester (api_user), opened on /r/{id} and granted there by the payer asked, or declined
// by them as the page's 'Decline' does, once.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CONSENT_EXPIRY_MS } from '../../domain/constants';
import { consentEvents, consents, merchantEvents, merchants } from '../db/schema';
import { createTestClient, startTestApp, useTestApp, testClock } from '../testing/test-app';
import {
  payerWithPasskey,
  signedGrant,
  signedUpPayer,
  type TSignedUpPayer,
} from '../testing/identity';
import { linkByTestTransfer } from '../testing/payments';

const HOUR = 60 * 60 * 1_000;

const clock = testClock('2031-05-04T10:00:00Z');
const ctx = useTestApp({ clock, webhookDelivery: 'manual' });

type TPayer = TSignedUpPayer;

const aPayer = (fullName = 'Chinedu Eze') => signedUpPayer(ctx.app, fullName);

const expiresIn = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

const FUTURE = { type: 'future', amount: 150_000, narration: 'Rent share', amountType: 'variable' };

const ask = (
  requester: TPayer,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/consent',
    headers: { ...requester.headers, ...headers },
    payload: { paymentConsents: [FUTURE], expiresAt: expiresIn(24 * HOUR), ...body },
  });

/** A payment request from `requester` to `invitee`, created. */
async function requested(requester: TPayer, invitee: TPayer, body: Record<string, unknown> = {}) {
  const response = await ask(requester, { userId: invitee.userId, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ consentId: string; url: string }>();
}

const decline = (payer: TPayer, id: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/users/decline-invitation/${id}`,
    headers: payer.headers,
  });

const readRequest = (id: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/consent/payment-request/${id}` });

async function statusOf(consentId: string) {
  const [row] = await ctx.database.db
    .select({ status: consents.status })
    .from(consents)
    .where(eq(consents.id, consentId));
  return row?.status;
}

/** The consent's audit rows of one type. */
const auditOf = (consentId: string, type: string) =>
  ctx.database.db
    .select()
    .from(consentEvents)
    .where(and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, type)));

/** consent.declined as the audit trail and the requester's webhook outbox hold it. */
async function declinedEvents(consentId: string) {
  const outbox = await ctx.database.db
    .select()
    .from(merchantEvents)
    .where(
      and(eq(merchantEvents.consentId, consentId), eq(merchantEvents.type, 'consent.declined')),
    );
  return { audit: await auditOf(consentId, 'consent.declined'), outbox };
}

/** The consent page's grant by `invitee` (a passkey and a linked account to repay from). */
async function grantAsInvited(consentId: string, invitee: Awaited<ReturnType<typeof invited>>) {
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    futurePayments: {
      granted: true,
      selectedAccounts: [invitee.accountId],
      paymentMethods: [{ type: 'account' as const, accountId: invitee.accountId }],
    },
  };
  return ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: invitee.headers,
    payload: await signedGrant(ctx.app, invitee.soft, invitee.token, consentId, data),
  });
}

/** A payer who can grant on the consent page: a passkey and a linked account. */
async function invited() {
  const payer = await payerWithPasskey(ctx.app, ctx.config);
  const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: payer.headers });
  const userId = me.json<{ user: { userId: string } }>().user.userId;
  const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
  return { ...payer, userId, accountId };
}

describe('POST /api/consent', () => {
  it('needs a signed-in payer', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/consent',
      payload: { userId: 'usr_x', paymentConsents: [FUTURE], expiresAt: expiresIn(HOUR) },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });

  it('asks another payer for a consent whose counterparty is the requester, opening on the consent page', async () => {
    const requester = await aPayer('Chinedu Eze');
    const invitee = await aPayer('Ngozi Obi');
    const response = await ask(requester, {
      userId: invitee.userId,
      paymentConsents: [{ type: 'immediate', amount: 500_000, narration: 'Dinner' }, FUTURE],
    });
    expect(response.statusCode, response.body).toBe(201);
    const { consentId, url } = response.json<{ success: true; consentId: string; url: string }>();
    const clientId = `cli_${requester.userId}`;
    expect(url).toBe(`${ctx.config.publicUrl}/r/${consentId}?clientId=${clientId}`);

    const page = await ctx.app.inject({
      method: 'GET',
      url: `/api/consent/${consentId}?clientId=${clientId}`,
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().consent).toMatchObject({
      consentId,
      status: 'pending',
      expiresAt: expiresIn(24 * HOUR),
      counterparty: {
        name: 'Chinedu Eze',
        type: 'api_user',
        merchantId: `mer_${requester.userId}`,
      },
      requirements: { requiresAuth: true, requiresAccount: false },
      payments: [
        { type: 'immediate', amount: 500_000, shieldWallet: { bankName: 'Rubies MFB' } },
        { type: 'future', amount: 150_000, amountType: 'variable' },
      ],
    });
    const [created] = await auditOf(consentId, 'consent.created');
    expect(created).toMatchObject({
      actor: `payer:${requester.userId}`,
      data: { requestedBy: requester.userId, requestedOf: invitee.userId },
    });
  });

  it('makes the requesting payer a counterparty once: later requests share its merchant', async () => {
    const requester = await aPayer();
    const [first, second] = [await aPayer(), await aPayer()];
    await requested(requester, first);
    await requested(requester, second);
    const rows = await ctx.database.db
      .select()
      .from(merchants)
      .where(eq(merchants.id, `mer_${requester.userId}`));
    expect(rows).toHaveLength(1);
    const mine = await ctx.database.db
      .select()
      .from(consents)
      .where(eq(consents.merchantId, `mer_${requester.userId}`));
    expect(mine).toHaveLength(2);
  });

  it('refuses an unknown userId (404) and the requester themself (400)', async () => {
    const requester = await aPayer();
    const unknown = await ask(requester, { userId: 'usr_nobody' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      success: false,
      error: { code: 'PAYMENT_REQUEST_PAYER_NOT_FOUND', message: 'No payer has this userId' },
    });
    const self = await ask(requester, { userId: requester.userId });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.code).toBe('PAYMENT_REQUEST_TO_SELF');
  });

  it('refuses an expiresAt in the past or more than 24 h ahead, allowing a few minutes of clock drift', async () => {
    const [requester, invitee] = [await aPayer(), await aPayer()];
    const at = async (ms: number) =>
      ask(requester, { userId: invitee.userId, expiresAt: expiresIn(ms) });
    for (const ms of [0, -1_000, 24 * HOUR + 10 * 60_000, 48 * HOUR]) {
      const response = await at(ms);
      expect(response.statusCode, `${ms}`).toBe(400);
      expect(response.json().error).toEqual({
        code: 'PAYMENT_REQUEST_EXPIRY_INVALID',
        message: 'expiresAt must be in the future and at most 24 hours ahead',
      });
    }
    expect((await at(1_000)).statusCode).toBe(201);
    expect((await at(CONSENT_EXPIRY_MS + 60_000)).statusCode).toBe(201);
  });

  it('answers a retry with the same Idempotency-Key with the first consent; the key with another body is 409', async () => {
    const [requester, invitee] = [await aPayer(), await aPayer()];
    const key = { 'idempotency-key': 'rent-may-2031' };
    const body = { userId: invitee.userId, expiresAt: expiresIn(12 * HOUR) };
    const first = await ask(requester, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await ask(requester, body, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual(first.json());
    const mine = await ctx.database.db
      .select()
      .from(consents)
      .where(eq(consents.merchantId, `mer_${requester.userId}`));
    expect(mine).toHaveLength(1);

    const other = await ask(requester, { ...body, expiresAt: expiresIn(6 * HOUR) }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Another payer's key of the same name is theirs alone.
    const someoneElse = await ask(await aPayer(), body, key);
    expect(someoneElse.statusCode).toBe(201);
    expect(someoneElse.json().consentId).not.toBe(first.json().consentId);
  });
});

describe('GET /api/consent/payment-request/{id}', () => {
  it('answers who asked: the requesting payer as counterparty, without sign-in', async () => {
    const requester = await aPayer('Tunde Bakare');
    const { consentId } = await requested(requester, await aPayer());
    const response = await readRequest(consentId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        counterparty: {
          name: 'Tunde Bakare',
          image: null,
          tag: null,
          type: 'api_user',
          merchantId: `mer_${requester.userId}`,
          merchantColours: expect.any(Object),
        },
      },
    });
  });

  it("is 404 for an unknown id and for a merchant's consent", async () => {
    const merchant = await createTestClient(ctx.database, { name: 'Ada Foods' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: merchant.authorization },
      payload: { payments: [FUTURE] },
    });
    expect(created.statusCode, created.body).toBe(201);
    for (const id of ['cns_nope', created.json<{ consentId: string }>().consentId]) {
      const response = await readRequest(id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        success: false,
        error: {
          code: 'NO_CONSENT_DATA',
          message: 'No consent data available for this payment request',
        },
      });
    }
  });
});

describe('the grant of a payment request', () => {
  it('is made on the consent page by the payer asked, like any consent', async () => {
    const requester = await aPayer('Bola Ade');
    const invitee = await invited();
    const { consentId } = await requested(requester, invitee);
    const granted = await grantAsInvited(consentId, invitee);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({
      status: 'granted',
      consent: { counterparty: { name: 'Bola Ade', type: 'api_user' } },
    });
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/consents',
      headers: invitee.headers,
    });
    expect(listed.json().consents).toEqual([
      expect.objectContaining({
        consentId,
        merchant: expect.objectContaining({ name: 'Bola Ade' }),
      }),
    ]);
  });

  it("is refused to any payer but the one asked, and so is the page's Decline; then the payer asked grants it", async () => {
    const requester = await aPayer('Bola Ade');
    const invitee = await invited();
    const stranger = await invited();
    const { consentId } = await requested(requester, invitee);
    const byStranger = await grantAsInvited(consentId, stranger);
    expect(byStranger.statusCode).toBe(403);
    expect(byStranger.json().error.code).toBe('PAYMENT_REQUEST_FORBIDDEN');
    const declinedByStranger = await ctx.app.inject({
      method: 'POST',
      url: `/api/consent/${consentId}/decline`,
      headers: stranger.headers,
    });
    expect(declinedByStranger.statusCode).toBe(403);
    expect(await statusOf(consentId)).toBe('pending');
    const granted = await grantAsInvited(consentId, invitee);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(await statusOf(consentId)).toBe('granted');
  });
});

describe('POST /api/users/decline-invitation/{id}', () => {
  it('needs a signed-in payer', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/decline-invitation/cns_x',
    });
    expect(response.statusCode).toBe(401);
  });

  it("declines the request as the page's Decline does: declined, one consent.declined to the requester's outbox", async () => {
    const requester = await aPayer();
    const invitee = await aPayer();
    const { consentId, url } = await requested(requester, invitee);
    const response = await decline(invitee, consentId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, consentId, status: 'declined' });
    expect(await statusOf(consentId)).toBe('declined');
    const { audit, outbox } = await declinedEvents(consentId);
    expect(audit).toEqual([
      expect.objectContaining({
        actor: `payer:${invitee.userId}`,
        data: { reason: 'Consent was rejected by user' },
      }),
    ]);
    expect(outbox).toEqual([
      expect.objectContaining({ clientId: `cli_${requester.userId}`, consentId }),
    ]);
    // The page shows 'Consent Declined'.
    const clientId = new URL(url).searchParams.get('clientId');
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/api/consent/${consentId}?clientId=${clientId}`,
    });
    expect(page.json().consent.status).toBe('declined');

    const again = await decline(invitee, consentId);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ success: true, consentId, status: 'declined' });
    const after = await declinedEvents(consentId);
    expect([after.audit.length, after.outbox.length]).toEqual([1, 1]);
  });

  it('is refused to every payer but the one asked (403), and is 404 for what is no payment request', async () => {
    const requester = await aPayer();
    const invitee = await aPayer();
    const { consentId } = await requested(requester, invitee);
    for (const other of [requester, await aPayer()]) {
      const response = await decline(other, consentId);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({
        code: 'PAYMENT_REQUEST_FORBIDDEN',
        message: 'Only the payer this payment request was sent to can answer it',
      });
    }
    expect(await statusOf(consentId)).toBe('pending');
    const unknown = await decline(invitee, 'cns_nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NO_CONSENT_DATA');
  });

  it('refuses a granted request and an expired one (409), changing nothing', async () => {
    const requester = await aPayer();
    const invitee = await invited();
    const { consentId } = await requested(requester, invitee);
    expect((await grantAsInvited(consentId, invitee)).statusCode).toBe(200);
    const granted = await decline(invitee, consentId);
    expect(granted.statusCode).toBe(409);
    expect(granted.json().error).toEqual({
      code: 'PAYMENT_REQUEST_GRANTED',
      message: 'This payment request was already granted and can no longer be declined',
    });
    expect(await statusOf(consentId)).toBe('granted');

    const soon = await requested(requester, invitee, { expiresAt: expiresIn(1_000) });
    clock.advance(2_000);
    const expired = await decline(invitee, soon.consentId);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().error).toEqual({
      code: 'PAYMENT_REQUEST_EXPIRED',
      message: 'This payment request has expired and can no longer be declined',
    });
    expect(await statusOf(soon.consentId)).toBe('pending');
    expect((await declinedEvents(soon.consentId)).outbox).toEqual([]);
  });

  it(
    'declined twice at once: the state changes once, one event is written, both answer success',
    { tags: ['postgres'] },
    async () => {
      const requester = await aPayer();
      const invitee = await aPayer();
      const { consentId } = await requested(requester, invitee);
      const answers = await Promise.all([decline(invitee, consentId), decline(invitee, consentId)]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      expect(await statusOf(consentId)).toBe('declined');
      const { audit, outbox } = await declinedEvents(consentId);
      expect([audit.length, outbox.length]).toEqual([1, 1]);
    },
  );
});

describe('payment request rate limit', () => {
  it('counts what one payer asks and declines; past the limit it is 429 with Retry-After', async () => {
    const limited = await startTestApp({
      clock,
      rateLimits: { paymentRequestsPerPayer: { max: 2, windowMs: 60_000 } },
    });
    try {
      const [requester, invitee] = [
        await signedUpPayer(limited.app),
        await signedUpPayer(limited.app),
      ];
      const post = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/consent',
          headers: requester.headers,
          payload: {
            userId: invitee.userId,
            paymentConsents: [FUTURE],
            expiresAt: expiresIn(HOUR),
          },
        });
      expect((await post()).statusCode).toBe(201);
      expect((await post()).statusCode).toBe(201);
      const third = await post();
      expect(third.statusCode).toBe(429);
      expect(third.json().error.code).toBe('RATE_LIMITED');
      expect(third.headers['retry-after']).toBeDefined();
      // Another payer has their own count.
      const theirs = await limited.app.inject({
        method: 'POST',
        url: '/api/consent',
        headers: invitee.headers,
        payload: {
          userId: requester.userId,
          paymentConsents: [FUTURE],
          expiresAt: expiresIn(HOUR),
        },
      });
      expect(theirs.statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

// The grant (spec §7 POST /api/consent/{consentId}/grant): once the immediate payment is paid the
// consent becomes granted, once, with its audit row; a signed-in payer's passkey signs exactly
// what is granted; anonymous payers grant only what spec §6 lets them.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { consentEvents, consents } from '../db/schema';
import { createTestClient, useTestApp } from '../testing/test-app';
import { payerWithPasskey, signedGrant, signUp, testPhone } from '../testing/identity';
import { consentWithPayment, payByCard } from '../testing/payments';

const ctx = useTestApp();

const grantBody = (consentId: string, extra: Record<string, unknown> = {}) => ({
  originalRequestId: null,
  consentData: { consentId },
  userAuthenticated: false,
  attestDiscoveryId: null,
  immediatePayments: { granted: true, selectedAccounts: [], paymentMethods: [] },
  ...extra,
});

const grant = (consentId: string, body: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers,
    payload: body,
  });

async function pay(consent: { paymentId: string; consentId: string }) {
  const paid = await payByCard(ctx.app, consent);
  expect(paid.statusCode).toBe(200);
}

describe('granting a consent with an immediate payment, without sign-in', () => {
  it('reports the unpaid payment as failed and leaves the consent pending', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const answer = await grant(consent.consentId, grantBody(consent.consentId));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      success: true,
      status: 'pending',
      paymentResults: { total: 1, succeeded: 0, failed: 1 },
      error: 'Payment failed',
    });
  });

  it('grants once the payment is paid; a retry answers the same; the audit row is written once', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await pay(consent);
    const answer = await grant(consent.consentId, grantBody(consent.consentId));
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({
      success: true,
      status: 'granted',
      paymentResults: { total: 1, succeeded: 1, failed: 0 },
      consent: { status: 'granted', grantedAt: expect.any(String) },
    });
    expect(body.consent.payments[0]).toMatchObject({ status: 'executed' });
    const again = await grant(consent.consentId, grantBody(consent.consentId));
    expect(again.json()).toMatchObject({ status: 'granted' });
    expect(again.json().consent.grantedAt).toBe(body.consent.grantedAt);
    const audit = await ctx.database.db
      .select()
      .from(consentEvents)
      .where(
        and(
          eq(consentEvents.consentId, consent.consentId),
          eq(consentEvents.type, 'consent.granted'),
        ),
      );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'payer:anonymous' });
  });

  it('ten grants at once make one grant', { tags: ['postgres'] }, async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await pay(consent);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => grant(consent.consentId, grantBody(consent.consentId))),
    );
    expect(new Set(answers.map((a) => a.json().consent.grantedAt)).size).toBe(1);
    const audit = await ctx.database.db
      .select()
      .from(consentEvents)
      .where(
        and(
          eq(consentEvents.consentId, consent.consentId),
          eq(consentEvents.type, 'consent.granted'),
        ),
      );
    expect(audit).toHaveLength(1);
  });

  it('refuses a consent that asks for sign-in, and a grant naming accounts', async () => {
    const guarded = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const refused = await grant(guarded.consentId, grantBody(guarded.consentId));
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('SIGN_IN_REQUIRED');

    const open = await consentWithPayment(ctx.app, ctx.database);
    const naming = await grant(
      open.consentId,
      grantBody(open.consentId, {
        immediatePayments: {
          granted: true,
          selectedAccounts: ['acc_1'],
          paymentMethods: [{ type: 'account', accountId: 'acc_1' }],
        },
      }),
    );
    // Accounts are a signed-in payer's: anonymous, a grant naming one is asked to sign in.
    expect(naming.statusCode).toBe(401);
    expect(naming.json().error.code).toBe('SIGN_IN_REQUIRED');
    const mismatch = await grant(open.consentId, grantBody('cns_other'));
    expect(mismatch.statusCode).toBe(400);
  });
});

describe('granting data sharing as a signed-in payer', () => {
  async function dataSharingConsent() {
    const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: merchant.authorization },
      payload: {
        payments: [],
        dataSharing: { bvnData: true },
        requirements: { requiresAuth: true },
      },
    });
    return created.json<{ consentId: string }>().consentId;
  }

  it('grants with the passkey’s signature over exactly the body, and keeps the signature', async () => {
    const consentId = await dataSharingConsent();
    const { token, soft, headers } = await payerWithPasskey(ctx.app, ctx.config);
    const body = grantBody(consentId, {
      userAuthenticated: true,
      immediatePayments: undefined,
      dataSharing: { granted: true, dataTypes: ['bvnData'] },
    });
    delete (body as Record<string, unknown>).immediatePayments;

    // Signed for one thing, sent with another: refused.
    const tampered = await grant(
      consentId,
      await signedGrant(ctx.app, soft, token, consentId, body, {
        ...body,
        dataSharing: { granted: true, dataTypes: [] },
      }),
      headers,
    );
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().error.code).toBe('GRANT_SIGNATURE_INVALID');
    // No signature at all: refused.
    expect((await grant(consentId, body, headers)).statusCode).toBe(400);
    // Anonymous: refused (the consent shares data).
    expect((await grant(consentId, body)).statusCode).toBe(401);

    const answer = await grant(
      consentId,
      await signedGrant(ctx.app, soft, token, consentId, body),
      headers,
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ status: 'granted' });
    const [audit] = await ctx.database.db
      .select()
      .from(consentEvents)
      .where(
        and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, 'consent.granted')),
      );
    expect(audit?.data).toMatchObject({
      dataTypes: ['bvnData'],
      signature: { digest: expect.any(String), credentialId: expect.any(String) },
    });
  });
});

describe('a grant and a Decline at once', () => {
  it(
    'answer what happened: the grant succeeds only when the consent ends granted',
    { tags: ['postgres'] },
    async () => {
      const payer = await signUp(ctx.app, testPhone());
      const outcomes: string[] = [];
      for (let n = 0; n < 8; n += 1) {
        const consent = await consentWithPayment(ctx.app, ctx.database);
        await pay(consent);
        const [granted, declined] = await Promise.all([
          grant(consent.consentId, grantBody(consent.consentId)),
          ctx.app.inject({
            method: 'POST',
            url: `/api/consent/${consent.consentId}/decline`,
            headers: { authorization: `Bearer ${payer.token}` },
          }),
        ]);
        const [row] = await ctx.database.db
          .select({ status: consents.status })
          .from(consents)
          .where(eq(consents.id, consent.consentId));
        outcomes.push(row?.status ?? 'missing');
        if (row?.status === 'granted') {
          expect(granted.json()).toMatchObject({ success: true, status: 'granted' });
          expect(declined.statusCode).toBeGreaterThanOrEqual(400);
        } else {
          expect(row?.status).toBe('declined');
          expect(declined.statusCode).toBe(200);
          // Never 'Consent granted' for a consent that the Decline won.
          expect(granted.statusCode, granted.body).toBe(409);
          expect(granted.json().error.code).toBe('CONSENT_REJECTED');
        }
      }
      expect(outcomes.every((status) => status === 'granted' || status === 'declined')).toBe(true);
    },
  );
});

// What a merchant learns of its consents beyond the grant (docs/webhooks.md): 'consent.failed'
// when a consent expires unanswered (swept by the runner on the test clock, once, however many
// runners), 'mandate.active' once per chosen account's mandate with the grant, and the consent
// read's mandates and form response. The accounts linked are the payer's own: their sandbox
// person's, whose BVN they verified (docs/accounts.md "Ownership").
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ZMerchantConsentResponse,
  ZMerchantConsentsResponse,
} from '../../domain/schemas/merchant-api';
import { consentEvents, merchantEvents } from '../db/schema';
import { SANDBOX_PAPER_APPROVAL_MS } from '../sandbox/sandbox-provider';
import type { TAccountScenario } from '../sandbox/fixtures';
import { runCollections } from '../services/payments/collection-runner';
import { createTestClient, testClock, useTestApp } from '../testing/test-app';
import { secondServer } from '../testing/second-server';
import { ownAccount } from '../testing/bvn';
import { payerWithPasskey, signedGrant } from '../testing/identity';
import { consentWithPayment, linkByTestTransfer, payByTransfer } from '../testing/payments';

const MINUTE = 60_000;
const clock = testClock('2031-03-02T09:00:00Z');
// Its webhook endpoint is this machine's discard port (nothing is delivered here): the
// operator's flag lets a webhook point there.
const ctx = useTestApp({
  clock,
  webhookDelivery: 'manual',
  env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
});

type TMerchant = Awaited<ReturnType<typeof createTestClient>>;

async function createConsent(merchant: TMerchant, body: Record<string, unknown>) {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: body,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ consentId: string }>().consentId;
}

const FUTURE = { type: 'future', amount: 250_000, narration: 'Gym membership' };

/** A payment-only consent that expires `minutes` from now. */
const expiringConsent = (merchant: TMerchant, minutes: number) =>
  createConsent(merchant, {
    payments: [{ type: 'immediate', amount: 50_000, narration: 'Joining fee' }],
    expiresAt: new Date(clock.now().getTime() + minutes * MINUTE).toISOString(),
  });

async function eventsOf(consentId: string, type?: string) {
  const rows = await ctx.database.db
    .select({ type: merchantEvents.type, data: merchantEvents.data })
    .from(merchantEvents)
    .where(
      and(
        eq(merchantEvents.consentId, consentId),
        type ? eq(merchantEvents.type, type) : undefined,
      ),
    )
    .orderBy(merchantEvents.id);
  return rows;
}

async function readAsMerchant(merchant: TMerchant, consentId: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/consents/${consentId}`,
    headers: { authorization: merchant.authorization },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, consent: ZMerchantConsentResponse.parse(response.json()).consent };
}

const run = () => runCollections(ctx.context);

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>>;

/** The payer's signed grant of `consentId`, with what it grants besides (`extra`). */
async function grantAs(payer: TPayer, consentId: string, extra: Record<string, unknown>) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(ctx.app, payer.soft, payer.token, consentId, {
      originalRequestId: null,
      consentData: { consentId },
      userAuthenticated: true,
      attestDiscoveryId: null,
      ...extra,
    }),
  });
}

const SHARE_BVN = { dataSharing: { granted: true, dataTypes: ['bvnData'] } };

describe("'consent.failed': a consent that expires unanswered", () => {
  it('is failed by the runner once its expiry passes, with one event, and never again', async () => {
    const merchant = await createTestClient(ctx.database, { name: 'Ikeja Gym' });
    const consentId = await expiringConsent(merchant, 30);
    const expiresAt = new Date(clock.now().getTime() + 30 * MINUTE).toISOString();

    clock.advance(29 * MINUTE);
    await run();
    expect((await readAsMerchant(merchant, consentId)).consent.status).toBe('pending');
    expect(await eventsOf(consentId, 'consent.failed')).toEqual([]);

    clock.advance(MINUTE);
    expect((await run()).expired).toBe(1);
    expect((await readAsMerchant(merchant, consentId)).consent.status).toBe('failed');
    expect(await eventsOf(consentId, 'consent.failed')).toEqual([
      {
        type: 'consent.failed',
        data: {
          consentId,
          failedAt: expiresAt,
          code: 'CONSENT_EXPIRED',
          reason: 'The consent expired before the payer answered it',
          paidPaymentIds: [],
          reference: null,
          metadata: {},
        },
      },
    ]);
    const audit = await ctx.database.db
      .select({ type: consentEvents.type, actor: consentEvents.actor })
      .from(consentEvents)
      .where(and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, 'consent.failed')));
    expect(audit).toEqual([{ type: 'consent.failed', actor: 'system:expiry' }]);

    clock.advance(MINUTE);
    expect((await run()).expired).toBe(0);
    expect(await eventsOf(consentId, 'consent.failed')).toHaveLength(1);
  });

  it('names the payment paid before the expiry, which stays paid', async () => {
    // It asks for future payments too: paid, it still waits for the payer's grant.
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    const paid = await payByTransfer(ctx.app, consent);
    expect(paid.statusCode, paid.body).toBe(200);
    clock.advance(24 * 60 * MINUTE + MINUTE);
    expect((await run()).expired).toBeGreaterThanOrEqual(1);
    const [failed] = await eventsOf(consent.consentId, 'consent.failed');
    expect(failed?.data).toMatchObject({ paidPaymentIds: [consent.paymentId] });
    expect(await eventsOf(consent.consentId, 'payment.completed')).toHaveLength(1);
  });

  it("queues a delivery to each of the merchant's endpoints and lists it under status=failed", async () => {
    const merchant = await createTestClient(ctx.database, { name: 'Yaba Books' });
    const registered = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: merchant.authorization },
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(registered.statusCode).toBe(201);
    const consentId = await expiringConsent(merchant, 5);
    clock.advance(5 * MINUTE);
    await run();

    const deliveries = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/webhooks/deliveries',
      headers: { authorization: merchant.authorization },
    });
    expect(deliveries.json<{ deliveries: unknown[] }>().deliveries).toEqual([
      expect.objectContaining({ eventType: 'consent.failed', consentId, status: 'pending' }),
    ]);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/consents?status=failed',
      headers: { authorization: merchant.authorization },
    });
    const page = ZMerchantConsentsResponse.parse(listed.json());
    expect(page.consents.map((c) => c.consentId)).toEqual([consentId]);
  });

  it('leaves granted and declined consents alone, and a consent not yet expired', async () => {
    const merchant = await createTestClient(ctx.database, { name: 'Surulere Stores' });
    const payer = await payerWithPasskey(ctx.app, ctx.config, false);
    const expiresAt = new Date(clock.now().getTime() + 10 * MINUTE).toISOString();
    const sharing = { dataSharing: { bvnData: true }, requirements: { requiresAuth: true } };
    const granted = await createConsent(merchant, { ...sharing, expiresAt });
    const declined = await expiringConsent(merchant, 10);
    const later = await expiringConsent(merchant, 60);
    const decline = await ctx.app.inject({
      method: 'POST',
      url: `/api/consent/${declined}/decline`,
      headers: payer.headers,
    });
    expect(decline.statusCode, decline.body).toBe(200);
    expect((await grantAs(payer, granted, SHARE_BVN)).json()).toMatchObject({ status: 'granted' });

    clock.advance(10 * MINUTE);
    await run();
    expect((await readAsMerchant(merchant, granted)).consent.status).toBe('granted');
    expect((await readAsMerchant(merchant, declined)).consent.status).toBe('declined');
    expect((await readAsMerchant(merchant, later)).consent.status).toBe('pending');
    for (const id of [granted, declined, later]) {
      expect(await eventsOf(id, 'consent.failed')).toEqual([]);
    }
  });

  it(
    'is sent once when runners in two servers sweep at the same time',
    { tags: ['postgres'] },
    async () => {
      const merchant = await createTestClient(ctx.database, { name: 'Lekki Mart' });
      const ids: string[] = [];
      for (let i = 0; i < 30; i += 1) ids.push(await expiringConsent(merchant, 2));

      const other = await secondServer(ctx, clock);
      try {
        clock.advance(2 * MINUTE);
        const runs = await Promise.all([
          ctx.app.collections.runDue(),
          other.app.collections.runDue(),
          run(),
          runCollections(other.app.appContext),
        ]);
        expect(runs.reduce((sum, r) => sum + r.expired, 0)).toBe(30);
      } finally {
        await other.close();
      }
      const failed = await ctx.database.db
        .select({ consentId: merchantEvents.consentId })
        .from(merchantEvents)
        .where(
          and(inArray(merchantEvents.consentId, ids), eq(merchantEvents.type, 'consent.failed')),
        );
      expect(failed.map((e) => e.consentId).sort()).toEqual([...ids].sort());
    },
  );
});

/**
 * A paper mandate for the payer of `token` on their own paper-mandate account, approved by the
 * sandbox bank; its account's id.
 */
async function linkByPaperMandate(token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const { accountNumber, institutionCode, accountName } = await ownAccount(
    ctx.app,
    token,
    'paper_mandate',
  );
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/account-links/create',
    headers,
    payload: { accountNumber, institutionCode, accountName, bankName: 'Any Bank' },
  });
  expect(created.statusCode, created.body).toBe(200);
  const linkId = created.json<{ accountLink: { id: string } }>().accountLink.id;
  clock.advance(SANDBOX_PAPER_APPROVAL_MS);
  const approved = await ctx.app.inject({
    method: 'POST',
    url: `/api/account-links/confirm-payment/${linkId}`,
    headers,
  });
  expect(approved.json()).toMatchObject({ success: true, status: 'completed' });
  const listed = await ctx.app.inject({ method: 'GET', url: '/api/accounts/user', headers });
  const account = listed
    .json<{ accounts: Array<{ bankId?: string; accountNumber: string | null }> }>()
    .accounts.find((a) => a.accountNumber === accountNumber);
  if (!account?.bankId) throw new Error('the paper mandate account is not listed');
  return account.bankId;
}

const SIMPLE_FORM = {
  title: 'Membership',
  sections: [
    {
      id: 'about',
      title: 'About you',
      fields: [{ id: 'fullName', kind: 'short_text', label: 'Full name', required: true }],
    },
  ],
};

/**
 * A signed-in payer with their own accounts linked by `scenarios` (and a paper mandate when asked), and a
 * consent of a new merchant asking for a future payment and answers to a one-field form, which
 * the payer fills in.
 */
async function consentToGrant(scenarios: TAccountScenario[], paper = false) {
  const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
  const payer = await payerWithPasskey(ctx.app, ctx.config, false);
  const accountIds: string[] = [];
  for (const scenario of scenarios) {
    accountIds.push(await linkByTestTransfer(ctx.app, payer.token, scenario));
  }
  if (paper) accountIds.push(await linkByPaperMandate(payer.token));
  const form = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/forms',
    headers: { authorization: merchant.authorization },
    payload: SIMPLE_FORM,
  });
  expect(form.statusCode, form.body).toBe(201);
  const formId = form.json<{ formId: string }>().formId;
  const consentId = await createConsent(merchant, {
    payments: [FUTURE],
    formId,
    requirements: { requiresAuth: true },
  });
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: '/api/form/sections/about',
    payload: { consentId, clientId: merchant.clientId, answers: { fullName: 'Ada Obi' } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const formResponseId = saved.json<{ formResponseId: string }>().formResponseId;
  const grant = () =>
    grantAs(payer, consentId, {
      futurePayments: {
        granted: true,
        selectedAccounts: accountIds,
        paymentMethods: accountIds.map((accountId) => ({ type: 'account' as const, accountId })),
      },
    });
  return { merchant, payer, consentId, formId, formResponseId, accountIds, grant };
}

async function mandateOf(accountId: string) {
  const rows = await ctx.database.db.query.accountLinks.findFirst({
    where: (link, { and: all, eq: is }) =>
      all(is(link.accountId, accountId), is(link.state, 'active')),
  });
  if (!rows) throw new Error(`no active mandate for ${accountId}`);
  return rows;
}

describe("'mandate.active': each chosen account's mandate, once, with the grant", () => {
  it('is written after consent.granted for every chosen account, in the order chosen', async () => {
    const granting = await consentToGrant(['links_by_test_transfer', 'insufficient_funds'], true);
    const granted = await granting.grant();
    expect(granted.statusCode, granted.body).toBe(200);

    const events = await eventsOf(granting.consentId);
    expect(events.map((e) => e.type)).toEqual([
      'form.completed',
      'consent.granted',
      'mandate.active',
      'mandate.active',
      'mandate.active',
    ]);
    const banks = ['Guaranty Trust Bank', 'Zenith Bank', 'Stanbic IBTC Bank'];
    const expected = await Promise.all(
      granting.accountIds.map(async (accountId, i) => {
        const link = await mandateOf(accountId);
        return {
          consentId: granting.consentId,
          mandateId: link.id,
          accountId,
          bankName: banks[i],
          mandateType: link.route === 'paper' ? 'paper' : 'otp',
          activatedAt: link.activatedAt?.toISOString(),
          reference: null,
          metadata: {},
        };
      }),
    );
    expect(events.filter((e) => e.type === 'mandate.active').map((e) => e.data)).toEqual(expected);
    expect(expected.map((e) => e.mandateType)).toEqual(['otp', 'otp', 'paper']);
  });

  it(
    'is not written again by a retried grant, nor by grants at once',
    { tags: ['postgres'] },
    async () => {
      const granting = await consentToGrant(['links_by_test_transfer']);
      const answers = await Promise.all([granting.grant(), granting.grant(), granting.grant()]);
      expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThan(0);
      expect((await granting.grant()).json()).toMatchObject({ status: 'granted' });
      expect(await eventsOf(granting.consentId, 'mandate.active')).toHaveLength(1);
      expect(await eventsOf(granting.consentId, 'consent.granted')).toHaveLength(1);
    },
  );

  it('is not written for a consent that asks for no future payment', async () => {
    const merchant = await createTestClient(ctx.database, { name: 'Data Only' });
    const payer = await payerWithPasskey(ctx.app, ctx.config, false);
    await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const consentId = await createConsent(merchant, {
      dataSharing: { bvnData: true },
      requirements: { requiresAuth: true },
    });
    const granted = await grantAs(payer, consentId, SHARE_BVN);
    expect(granted.statusCode, granted.body).toBe(200);
    expect((await eventsOf(consentId)).map((e) => e.type)).toEqual(['consent.granted']);
  });
});

describe('GET /api/v1/consents/{id}: mandates and form response', () => {
  it('shows the form response before the grant, then the mandates and its submission', async () => {
    const granting = await consentToGrant(['links_by_test_transfer', 'insufficient_funds']);
    const before = (await readAsMerchant(granting.merchant, granting.consentId)).consent;
    expect(before.mandates).toEqual([]);
    expect(before.formResponse).toEqual({
      formId: granting.formId,
      formResponseId: granting.formResponseId,
      submittedAt: null,
    });

    expect((await granting.grant()).statusCode).toBe(200);
    const { body, consent } = await readAsMerchant(granting.merchant, granting.consentId);
    const first = await ownAccount(ctx.app, granting.payer.token, 'links_by_test_transfer');
    const second = await ownAccount(ctx.app, granting.payer.token, 'insufficient_funds');
    expect(consent.mandates).toEqual([
      {
        mandateId: (await mandateOf(granting.accountIds[0]!)).id,
        accountId: granting.accountIds[0],
        bankName: 'Guaranty Trust Bank',
        accountNumberLast4: first.accountNumber.slice(-4),
        mandateType: 'otp',
        status: 'active',
      },
      {
        mandateId: (await mandateOf(granting.accountIds[1]!)).id,
        accountId: granting.accountIds[1],
        bankName: 'Zenith Bank',
        accountNumberLast4: second.accountNumber.slice(-4),
        mandateType: 'otp',
        status: 'active',
      },
    ]);
    expect(consent.formResponse).toEqual({
      formId: granting.formId,
      formResponseId: granting.formResponseId,
      submittedAt: clock.now().toISOString(),
    });
    // The account numbers themselves, and the answers, are not in the read.
    expect(body).not.toContain(first.accountNumber);
    expect(body).not.toContain(second.accountNumber);
    expect(body).not.toContain('Ada Obi');
    // Nor the payer's form-save token, which the page holds.
    expect(body).not.toContain('formUpdateToken');

    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/consents',
      headers: { authorization: granting.merchant.authorization },
    });
    const page = ZMerchantConsentsResponse.parse(listed.json());
    expect(page.consents).toEqual([consent]);
  });

  it('has no mandates and no form response for a consent that asks for neither', async () => {
    const merchant = await createTestClient(ctx.database, { name: 'Plain Pay' });
    const consentId = await expiringConsent(merchant, 60);
    const { consent } = await readAsMerchant(merchant, consentId);
    expect(consent).toMatchObject({ mandates: [], formResponse: null });
  });
});

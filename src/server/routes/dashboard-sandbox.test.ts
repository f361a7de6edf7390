// The dashboard's Sandbox tools (docs/dashboard.md "Sandbox tools"): a transfer sent by the
// sandbox bank to one of the merchant's payments, a 3-D Secure check answered through the sandbox
// card network, a test event fired at the merchant's webhooks; each for the merchant's own
// payments only, owner and developer only, written to the audit log, and absent from a server
// whose payments are not the sandbox's.
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStaffRole } from '../../domain/dashboard-roles';
import { errorBody } from '../../domain/errors';
import { TEST_ID_MARK } from '../../domain/test-events';
import { buildApp } from '../app';
import { apiClients } from '../db/schema';
import {
  dashboardCall,
  staffMember,
  type TDashboardApp,
  type TStaffSession,
} from '../testing/dashboard';
import { PUBLIC_TEST_ADDRESS, testHostResolver } from '../testing/host-resolver';
import { consentWithPayment, payByCard } from '../testing/payments';
import {
  createTestClient,
  openTestDatabase,
  RELAXED_RATE_LIMITS,
  useTestApp,
  testClock,
  testConfig,
} from '../testing/test-app';

const clock = testClock(new Date());

const ctx = useTestApp({ clock, webhookDelivery: 'manual' });

const call = (staff: TStaffSession | null, options: InjectOptions) =>
  dashboardCall(ctx, staff, options);
const staffOf = (merchantId: string, role: TStaffRole) =>
  staffMember(ctx, { merchantId, role }, clock.now());

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

/** A merchant's consent with a payment, and its owner. */
async function merchantWithPayment(amount = 250_000) {
  const consent = await consentWithPayment(ctx.app, ctx.database, { amount });
  const owner = await staffOf(consent.client.merchantId, 'owner');
  return { consent, owner };
}

/** Opens the payment's one-time account, as the payer's Pay by Transfer does. */
async function openTransferAccount(consent: { paymentId: string; consentId: string }) {
  const opened = await ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
  });
  expect(opened.statusCode, opened.body).toBe(200);
  return opened.json<{ transferDetails: { accountNumber: string } }>().transferDetails;
}

/** A consent of one of the merchant's clients, with the merchant's own reference. */
async function consentWithReference(
  client: Pick<TConsent['client'], 'authorization' | 'clientId'>,
  reference: string,
) {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: client.authorization },
    payload: {
      reference,
      payments: [{ type: 'immediate', amount: 120_000, narration: 'Order KF-7' }],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}?clientId=${client.clientId}`,
  });
  const [payment] = read.json<{ consent: { payments: Array<{ paymentId: string }> } }>().consent
    .payments;
  if (!payment) throw new Error('The consent has no payment');
  return { client, consentId, paymentId: payment.paymentId, amount: 120_000 };
}

const paymentStatus = async (staff: TStaffSession, paymentId: string) =>
  (await call(staff, { method: 'GET', url: `/api/dashboard/payments/${paymentId}` })).json<{
    payment: { status: string };
  }>().payment.status;

const auditActions = async (owner: TStaffSession) =>
  (await call(owner, { method: 'GET', url: '/api/dashboard/audit' })).json<{
    entries: Array<{ action: string; target: string; data: Record<string, unknown> }>;
  }>().entries;

const waiting = async (staff: TStaffSession) => {
  const answer = await call(staff, { method: 'GET', url: '/api/dashboard/sandbox' });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{
    transfers: Array<{ paymentId: string; amount: number; detail: string }>;
    challenges: Array<{ paymentId: string; amount: number; detail: string }>;
    activeWebhooks: number;
  }>();
};

describe('Send a transfer', () => {
  it('pays a waiting payment what it owes, once per Idempotency-Key, in the audit log', async () => {
    const { consent, owner } = await merchantWithPayment(250_000);
    const account = await openTransferAccount(consent);
    const listed = await waiting(owner);
    expect(listed.transfers).toEqual([
      expect.objectContaining({
        paymentId: consent.paymentId,
        amount: 250_000,
        detail: expect.stringContaining(account.accountNumber) as string,
      }),
    ]);

    const send = () =>
      call(owner, {
        method: 'POST',
        url: '/api/dashboard/sandbox/transfers',
        headers: { 'idempotency-key': `sbx-${consent.paymentId}` },
        payload: { payment: consent.paymentId },
      });
    const sent = await send();
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      success: true,
      paymentId: consent.paymentId,
      amount: 250_000,
      outcome: 'credited',
    });
    expect(await paymentStatus(owner, consent.paymentId)).toBe('executed');
    // The same key again is the same transfer: answered as the first, nothing sent twice.
    const again = await send();
    expect(again.json()).toEqual(sent.json());
    expect((await auditActions(owner)).filter((e) => e.action === 'sandbox.transfer_sent')).toEqual(
      [
        expect.objectContaining({
          target: consent.paymentId,
          data: { amount: 250_000, accountNumber: account.accountNumber, outcome: 'credited' },
        }),
      ],
    );
    expect((await waiting(owner)).transfers).toEqual([]);
    // A new key finds the payment paid.
    const paid = await call(owner, {
      method: 'POST',
      url: '/api/dashboard/sandbox/transfers',
      payload: { payment: consent.paymentId },
    });
    expect(paid.json()).toEqual(errorBody('PAYMENT_ALREADY_MADE'));
  });

  it('finds a payment by its reference; another amount goes back to the sender', async () => {
    const { consent, owner } = await merchantWithPayment();
    const ordered = await consentWithReference(consent.client, 'KF-7');
    await openTransferAccount(ordered);
    const short = await call(owner, {
      method: 'POST',
      url: '/api/dashboard/sandbox/transfers',
      payload: { payment: 'KF-7', amount: 100_000 },
    });
    expect(short.json()).toMatchObject({
      paymentId: ordered.paymentId,
      amount: 100_000,
      outcome: 'returned_wrong_amount',
    });
    expect(await paymentStatus(owner, ordered.paymentId)).toBe('pending');
    const exact = await call(owner, {
      method: 'POST',
      url: '/api/dashboard/sandbox/transfers',
      payload: { payment: ' KF-7 ' },
    });
    expect(exact.json()).toMatchObject({ amount: 120_000, outcome: 'credited' });
    expect(await paymentStatus(owner, ordered.paymentId)).toBe('executed');
  });

  it("acts on neither payment when two of the merchant's keys used the reference", async () => {
    const { consent, owner } = await merchantWithPayment();
    // A second key of the same merchant: the tables hold any number of keys a merchant.
    const second = await createTestClient(ctx.database, { name: 'Tola Stores, web shop' });
    await ctx.database.db
      .update(apiClients)
      .set({ merchantId: consent.client.merchantId })
      .where(eq(apiClients.clientId, second.clientId));
    const first = await consentWithReference(consent.client, 'KF-9');
    const other = await consentWithReference(second, 'KF-9');
    await openTransferAccount(first);
    await openTransferAccount(other);
    const named = await call(owner, {
      method: 'POST',
      url: '/api/dashboard/sandbox/transfers',
      payload: { payment: 'KF-9' },
    });
    expect(named.statusCode).toBe(409);
    expect(named.json()).toEqual(errorBody('PAYMENT_NAME_AMBIGUOUS'));
    expect(await paymentStatus(owner, first.paymentId)).toBe('pending');
    expect(await paymentStatus(owner, other.paymentId)).toBe('pending');
    const byId = await call(owner, {
      method: 'POST',
      url: '/api/dashboard/sandbox/transfers',
      payload: { payment: other.paymentId },
    });
    expect(byId.json()).toMatchObject({ paymentId: other.paymentId, outcome: 'credited' });
    expect(await paymentStatus(owner, first.paymentId)).toBe('pending');
  });

  it('says when the payment has no one-time account open, and refuses a bad body', async () => {
    const { consent, owner } = await merchantWithPayment();
    const none = await call(owner, {
      method: 'POST',
      url: '/api/dashboard/sandbox/transfers',
      payload: { payment: consent.paymentId },
    });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual(
      errorBody('NOT_FOUND', 'No one-time account is open for this payment'),
    );
    for (const payload of [{}, { payment: '' }, { payment: consent.paymentId, amount: 0 }]) {
      const bad = await call(owner, {
        method: 'POST',
        url: '/api/dashboard/sandbox/transfers',
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json<{ error: { code: string } }>().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('Answer a 3-D Secure check', () => {
  it.each([
    [true, 'completed', 'executed'],
    [false, 'failed', 'pending'],
  ] as const)(
    'approved=%s: the card network answers, the payment is %s',
    async (approved, status, paymentState) => {
      const { consent, owner } = await merchantWithPayment();
      const started = await payByCard(ctx.app, consent, 'three_ds');
      expect(started.json()).toMatchObject({ requires3DS: true });
      expect((await waiting(owner)).challenges).toEqual([
        expect.objectContaining({
          paymentId: consent.paymentId,
          detail: 'visa ending 3253',
        }),
      ]);
      const answered = await call(owner, {
        method: 'POST',
        url: '/api/dashboard/sandbox/challenges',
        headers: { 'idempotency-key': `3ds-${consent.paymentId}` },
        payload: { payment: consent.paymentId, approved },
      });
      expect(answered.statusCode, answered.body).toBe(200);
      expect(answered.json()).toMatchObject({ paymentId: consent.paymentId, status });
      expect(await paymentStatus(owner, consent.paymentId)).toBe(paymentState);
      expect((await waiting(owner)).challenges).toEqual([]);
      expect(
        (await auditActions(owner)).find((e) => e.action === 'sandbox.challenge_answered'),
      ).toMatchObject({ target: consent.paymentId, data: { approved, status } });
      // Answered once: nothing waits any more.
      const again = await call(owner, {
        method: 'POST',
        url: '/api/dashboard/sandbox/challenges',
        payload: { payment: consent.paymentId, approved: true },
      });
      expect(again.json()).toEqual(
        errorBody(approved ? 'PAYMENT_ALREADY_MADE' : 'NO_THREE_DS_CHALLENGE'),
      );
    },
  );
});

describe('Fire a webhook event', () => {
  it('records a test event for the merchant’s key, owed to its webhooks', async () => {
    const { consent, owner } = await merchantWithPayment();
    const hook = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: consent.client.authorization },
      payload: { url: `https://${PUBLIC_TEST_ADDRESS}/hooks` },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const developer = await staffOf(consent.client.merchantId, 'developer');
    expect((await waiting(developer)).activeWebhooks).toBe(1);
    const fired = await call(developer, {
      method: 'POST',
      url: '/api/dashboard/sandbox/events',
      payload: { type: 'payment.completed' },
    });
    expect(fired.statusCode, fired.body).toBe(201);
    const body = fired.json<{
      events: Array<{ clientId: string; event: { id: string; type: string; data: object } }>;
      activeWebhooks: number;
    }>();
    expect(body.activeWebhooks).toBe(1);
    expect(body.events).toHaveLength(1);
    const [first] = body.events;
    expect(first).toMatchObject({
      clientId: consent.client.clientId,
      event: { type: 'payment.completed', data: { amount: 250_000, method: 'card' } },
    });
    expect(JSON.stringify(first?.event.data)).toContain(`pay_${TEST_ID_MARK}`);
    const deliveries = await call(owner, {
      method: 'GET',
      url: '/api/dashboard/webhooks/deliveries',
    });
    expect(deliveries.json<{ deliveries: Array<{ eventId: string }> }>().deliveries).toEqual([
      expect.objectContaining({ eventId: first?.event.id }),
    ]);
    expect(
      (await auditActions(owner)).find((e) => e.action === 'sandbox.event_fired'),
    ).toMatchObject({ target: 'payment.completed', data: { eventIds: [first?.event.id] } });
    const unknown = await call(developer, {
      method: 'POST',
      url: '/api/dashboard/sandbox/events',
      payload: { type: 'payment.teleported' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ error: { code: string } }>().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('whose payments, and who', () => {
  it('answers another merchant’s payment 404 and lists none of it', async () => {
    const ours = await merchantWithPayment();
    const theirs = await merchantWithPayment();
    await openTransferAccount(theirs.consent);
    const other = await consentWithPayment(ctx.app, ctx.database);
    await payByCard(ctx.app, other, 'three_ds');
    const listed = await waiting(ours.owner);
    expect([...listed.transfers, ...listed.challenges]).toEqual([]);
    const transfer = await call(ours.owner, {
      method: 'POST',
      url: '/api/dashboard/sandbox/transfers',
      payload: { payment: theirs.consent.paymentId },
    });
    expect(transfer.statusCode).toBe(404);
    expect(transfer.json()).toEqual(errorBody('PAYMENT_NOT_FOUND'));
    const challenge = await call(ours.owner, {
      method: 'POST',
      url: '/api/dashboard/sandbox/challenges',
      payload: { payment: other.paymentId, approved: true },
    });
    expect(challenge.json()).toEqual(errorBody('PAYMENT_NOT_FOUND'));
    // Theirs still wait, untouched.
    const theirOwner = await staffOf(other.client.merchantId, 'owner');
    expect((await waiting(theirOwner)).challenges).toHaveLength(1);
    expect(await paymentStatus(theirs.owner, theirs.consent.paymentId)).toBe('pending');
  });

  it('refuses viewer and support, on the server', async () => {
    const { consent } = await merchantWithPayment();
    await openTransferAccount(consent);
    for (const role of ['viewer', 'support'] as const) {
      const staff = await staffOf(consent.client.merchantId, role);
      const session = await call(staff, { method: 'GET', url: '/api/dashboard/session' });
      expect(session.json()).toMatchObject({ sandbox: true, role });
      for (const [method, url, payload] of [
        ['GET', '/api/dashboard/sandbox', undefined],
        ['POST', '/api/dashboard/sandbox/transfers', { payment: consent.paymentId }],
        [
          'POST',
          '/api/dashboard/sandbox/challenges',
          { payment: consent.paymentId, approved: true },
        ],
        ['POST', '/api/dashboard/sandbox/events', { type: 'payment.completed' }],
      ] as const) {
        const answer = await call(staff, { method, url, ...(payload ? { payload } : {}) });
        expect(answer.statusCode, `${role} ${method} ${url}`).toBe(403);
        expect(answer.json()).toEqual(errorBody('DASHBOARD_ROLE_FORBIDDEN'));
      }
    }
    const owner = await staffOf(consent.client.merchantId, 'owner');
    expect(await paymentStatus(owner, consent.paymentId)).toBe('pending');
  });
});

describe('a server whose payments are not the sandbox’s', () => {
  let real: TDashboardApp;
  beforeAll(async () => {
    const database = await openTestDatabase();
    // Paystack's test mode: the sandbox network is off (context.ts). Nothing here asks Paystack
    // anything, so its URL answers nothing (and no books are compared with it at the end).
    const config = testConfig({
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_test_dashboard_sandbox',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
    });
    const app = await buildApp({
      config,
      database,
      logger: false,
      rateLimits: RELAXED_RATE_LIMITS,
      providers: { dns: testHostResolver() },
    });
    await app.ready();
    real = { app, config, database };
  });
  afterAll(async () => {
    await real.app.close();
    await real.database.close();
  });

  it('has no sandbox tools: the session says so and their routes do not exist', async () => {
    expect(
      real.app.routeTable.filter((route) => route.url.startsWith('/api/dashboard/sandbox')),
    ).toEqual([]);
    const client = await consentWithPayment(real.app, real.database);
    const owner = await staffMember(
      real,
      { merchantId: client.client.merchantId, role: 'owner' },
      new Date(),
    );
    const session = await dashboardCall(real, owner, {
      method: 'GET',
      url: '/api/dashboard/session',
    });
    expect(session.json()).toMatchObject({ sandbox: false, role: 'owner' });
    for (const [method, url] of [
      ['GET', '/api/dashboard/sandbox'],
      ['POST', '/api/dashboard/sandbox/transfers'],
      ['POST', '/api/dashboard/sandbox/challenges'],
      ['POST', '/api/dashboard/sandbox/events'],
    ] as const) {
      const answer = await dashboardCall(real, owner, {
        method,
        url,
        ...(method === 'POST' ? { payload: { payment: client.paymentId } } : {}),
      });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json()).toEqual(errorBody('NOT_FOUND'));
    }
  });
});

// Collecting granted future payments (docs/payments.md "Collecting future payments"): a fixed
// payment is debited on its due date by the runner, once, from the bound accounts first to last,
// with the payer's notice the day before; a dead runner's collection is taken over without a second
// debit; runners at once, in one process or two, collect once; and the merchant's collect call for
// variable and 'As needed' payments, with the read that shows failures. Each payer's accounts are
// their own: their sandbox person's, whose BVN they verified, so each test's balances are of
// accounts no other test debits.
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  consentEvents,
  futurePaymentCollections,
  merchantEvents,
  payments,
  sandboxDebits,
} from '../db/schema';
import type { TAccountScenario } from '../sandbox/fixtures';
import { listOutbox } from '../services/identity/sms-outbox';
import { runCollections, scheduleAndNotify } from '../services/payments/collection-runner';
import {
  claimDueCollections,
  debitReference,
  STALE_COLLECTION_MS,
} from '../services/payments/future-collections';
import { checkLedger } from '../services/payments/ledger';
import { createTestClient, useTestApp, testClock } from '../testing/test-app';
import { secondServer } from '../testing/second-server';
import { ownAccount } from '../testing/bvn';
import { payerWithPasskey, signedGrant } from '../testing/identity';
import {
  ledgerKinds,
  linkByTestTransfer,
  sandboxAccount,
  sandboxBalanceOf,
} from '../testing/payments';
import { usable } from '../providers/off';

const HOUR = 60 * 60 * 1_000;
const DAY = 24 * HOUR;

const clock = testClock('2031-01-10T09:00:00Z');
const ctx = useTestApp({ clock, webhookDelivery: 'manual' });

type TFuture = {
  amount: number;
  amountType?: 'fixed' | 'variable';
  /** Milliseconds from now; none: 'As needed'. */
  dueIn?: number;
  narration?: string;
};

/**
 * A signed-in payer who links their own accounts of `scenarios` and grants a consent of a new
 * merchant asking for `future`, bound to those accounts in that order.
 */
async function grantedConsent(scenarios: TAccountScenario[], future: TFuture[]) {
  const { token, soft } = await payerWithPasskey(ctx.app, ctx.config);
  const accountIds: string[] = [];
  for (const scenario of scenarios)
    accountIds.push(await linkByTestTransfer(ctx.app, token, scenario));
  const consent = await pendingConsent(future);
  const data = {
    originalRequestId: null,
    consentData: { consentId: consent.consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    futurePayments: {
      granted: true,
      selectedAccounts: accountIds,
      paymentMethods: accountIds.map((accountId) => ({ type: 'account' as const, accountId })),
    },
  };
  const granted = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consent.consentId}/grant`,
    headers: { authorization: `Bearer ${token}` },
    payload: await signedGrant(ctx.app, soft, token, consent.consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  expect(granted.json()).toMatchObject({ status: 'granted' });
  return { ...consent, accountIds, token };
}

/** A consent of a new merchant asking for `future`, not granted. */
async function pendingConsent(future: TFuture[]) {
  const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: future.map((f) => ({
        type: 'future',
        amount: f.amount,
        amountType: f.amountType ?? 'fixed',
        narration: f.narration ?? 'Membership',
        ...(f.dueIn === undefined
          ? {}
          : { dueDate: new Date(clock.now().getTime() + f.dueIn).toISOString() }),
      })),
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const rows = await ctx.database.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.consentId, consentId))
    .orderBy(payments.position);
  return { merchant, consentId, paymentIds: rows.map((r) => r.id) };
}

/** The payer's own account of `scenario` (the payer who granted `consent`). */
const accountOf = (consent: { token: string }, scenario: TAccountScenario) =>
  ownAccount(ctx.app, consent.token, scenario);

/** The sandbox bank's balance of the account of `scenario` of the payer who granted `consent`. */
const balanceOf = async (consent: { token: string }, scenario: TAccountScenario) =>
  sandboxBalanceOf(ctx.database, await accountOf(consent, scenario));

/** An account number as the merchant's read masks it: its last 4 digits. */
const maskedNumber = (account: { accountNumber: string }) =>
  `******${account.accountNumber.slice(-4)}`;

async function paymentOf(paymentId: string) {
  const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, paymentId));
  if (!row) throw new Error(`no payment ${paymentId}`);
  return row;
}

async function collectionsOf(paymentId: string) {
  return ctx.database.db
    .select()
    .from(futurePaymentCollections)
    .where(eq(futurePaymentCollections.paymentId, paymentId));
}

/** Succeeded debits the bank made for a collection's references. */
async function bankDebitsOf(collectionId: string) {
  const rows = await ctx.database.db
    .select()
    .from(sandboxDebits)
    .where(like(sandboxDebits.reference, `${collectionId}.%`));
  return rows.filter((r) => r.outcome === 'succeeded');
}

async function merchantEventTypes(consentId: string) {
  const rows = await ctx.database.db
    .select({ type: merchantEvents.type, data: merchantEvents.data })
    .from(merchantEvents)
    .where(eq(merchantEvents.consentId, consentId))
    .orderBy(merchantEvents.id);
  return rows;
}

const run = () => runCollections(ctx.context);

async function expectCleanBooks() {
  const report = await checkLedger(ctx.database.db);
  expect(report).toMatchObject({
    unbalanced: [],
    balanceMismatches: [],
    paymentsNotBookedOnce: [],
  });
}

describe('the runner collects a fixed future payment on its due date', () => {
  it('notices the payer the day before, once, and debits once on the due date with its books', async () => {
    const consent = await grantedConsent(
      ['links_by_test_transfer'],
      [{ amount: 1_500_000, dueIn: 3 * DAY, narration: 'Gym membership' }],
    );
    const paymentId = consent.paymentIds[0]!;
    const before = await balanceOf(consent, 'links_by_test_transfer');
    const notices = async () =>
      (await listOutbox(ctx.database.db, { limit: 1_000 })).filter(
        (sms) => sms.body.includes('Gym membership') && sms.body.includes('/debits/'),
      );

    await run();
    // The notice goes the lead (a day) and its margin (an hour) before the due date.
    clock.advance(2 * DAY - HOUR - 60_000);
    await run();
    expect(await notices()).toHaveLength(0);

    clock.advance(2 * 60_000);
    await run();
    await run();
    // The run queues the notice; the SMS job hands it to the sandbox's outbox after it.
    await expect.poll(notices).toHaveLength(1);
    const sent = await notices();
    const last4 = (await accountOf(consent, 'links_by_test_transfer')).accountNumber.slice(-4);
    expect(sent[0]?.body).toMatch(
      new RegExp(
        `^Oya Money: Tola Stores will debit ₦15,000\\.00 for Gym membership from your account ` +
          `\\*\\*\\*\\*${last4} on 13 Jan 2031\\. To skip it or stop all future payments: ` +
          `http\\S+/debits/col_\\S+$`,
      ),
    );

    // Not a millisecond before its due date.
    clock.advance(DAY + HOUR - 60_000 - 1);
    await run();
    expect((await paymentOf(paymentId)).status).toBe('pending');
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before);

    clock.advance(1);
    const collected = await run();
    expect(collected).toMatchObject({ collected: 1, failed: 0 });
    const paid = await paymentOf(paymentId);
    expect(paid).toMatchObject({
      status: 'executed',
      origin: expect.objectContaining({ bankId: consent.accountIds[0] }),
    });
    expect(paid.executedAt?.toISOString()).toBe(clock.now().toISOString());
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before - 1_500_000);
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['future_payment_debit']);
    const [collection] = await collectionsOf(paymentId);
    expect(collection).toMatchObject({ status: 'succeeded', accountId: consent.accountIds[0] });
    expect(await bankDebitsOf(collection!.id)).toHaveLength(1);
    const audit = await ctx.database.db
      .select()
      .from(consentEvents)
      .where(eq(consentEvents.consentId, consent.consentId));
    expect(audit.map((a) => a.type)).toContain('future_payment.collected');
    expect((await merchantEventTypes(consent.consentId)).map((e) => e.type)).toEqual([
      'consent.granted',
      'mandate.active',
      'future_payment.collected',
    ]);

    // Later runs debit nothing more, and the notice is not sent again.
    clock.advance(DAY);
    await run();
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before - 1_500_000);
    expect(await notices()).toHaveLength(1);
    await expectCleanBooks();
  });

  it('falls back to the next account when the first has too little money', async () => {
    const consent = await grantedConsent(
      ['insufficient_funds', 'links_by_test_transfer'],
      [{ amount: 700_000, dueIn: HOUR }],
    );
    const paymentId = consent.paymentIds[0]!;
    const poor = await balanceOf(consent, 'insufficient_funds');
    const rich = await balanceOf(consent, 'links_by_test_transfer');
    await run();
    clock.advance(DAY);
    await run();

    expect((await paymentOf(paymentId)).status).toBe('executed');
    expect(await balanceOf(consent, 'insufficient_funds')).toBe(poor);
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(rich - 700_000);
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/payments/${paymentId}`,
      headers: { authorization: consent.merchant.authorization },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().payment).toMatchObject({
      status: 'executed',
      collections: [
        {
          trigger: 'schedule',
          status: 'succeeded',
          amount: 700_000,
          account: {
            accountId: consent.accountIds[1],
            accountNumber: maskedNumber(await accountOf(consent, 'links_by_test_transfer')),
          },
          tries: [
            { position: 0, outcome: 'failed', reason: 'insufficient_funds' },
            { position: 1, outcome: 'succeeded', reason: null },
          ],
        },
      ],
    });
    await expectCleanBooks();
  });

  it('tries again a day, then three days later when every account is short of funds, then records a failure the merchant sees', async () => {
    // More than any account of the scenario opens with.
    const amount = sandboxAccount('links_by_test_transfer').balance + 1;
    const consent = await grantedConsent(
      ['insufficient_funds', 'links_by_test_transfer'],
      [{ amount, dueIn: HOUR }],
    );
    const paymentId = consent.paymentIds[0]!;
    // Its notice goes at once (it is due within the notice's lead), and the debit waits the lead.
    await run();
    clock.advance(DAY);
    const eventsBefore = (await merchantEventTypes(consent.consentId)).length;
    expect(await run()).toMatchObject({ collected: 0, retried: 1, failed: 0 });
    const retried = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/payments/${paymentId}`,
      headers: { authorization: consent.merchant.authorization },
    });
    expect(retried.json().payment.collections).toEqual([
      expect.objectContaining({ status: 'pending' }),
    ]);
    // Nothing for the merchant yet: the collection has not ended.
    expect(await merchantEventTypes(consent.consentId)).toHaveLength(eventsBefore);
    const audit = await ctx.database.db
      .select({ data: consentEvents.data })
      .from(consentEvents)
      .where(
        and(
          eq(consentEvents.consentId, consent.consentId),
          eq(consentEvents.type, 'future_payment.retry_scheduled'),
        ),
      );
    expect(audit.map((row) => row.data)).toEqual([
      expect.objectContaining({
        round: 1,
        dueAt: new Date(clock.now().getTime() + DAY).toISOString(),
        reason: 'insufficient_funds',
      }),
    ]);
    // The payer is noticed again at once, and the round waits the whole lead after the notice:
    // not a millisecond before it; then the second round.
    clock.advance(60_000);
    expect(await run()).toMatchObject({ notified: 1, retried: 0, failed: 0 });
    clock.advance(DAY - 1);
    expect(await run()).toMatchObject({ notified: 0, retried: 0, failed: 0 });
    clock.advance(1);
    expect(await run()).toMatchObject({ notified: 0, retried: 1, failed: 0 });
    // Three days later: noticed the lead and its margin before, then the last round.
    clock.advance(2 * DAY);
    expect(await run()).toMatchObject({ notified: 1, retried: 0, failed: 0 });
    clock.advance(DAY);
    expect(await run()).toMatchObject({ collected: 0, retried: 0, failed: 1 });
    // Each round asked the banks with references of its own (a bank answers a reference it saw
    // with what it did, so a retry under the first round's would only repeat the refusal).
    const [ended] = await ctx.database.db
      .select()
      .from(futurePaymentCollections)
      .where(eq(futurePaymentCollections.paymentId, paymentId));
    expect(ended?.rounds).toBe(2);
    expect(ended?.tries.map((t) => t.reference)).toEqual([
      `${ended?.id}.r2.0`,
      `${ended?.id}.r2.1`,
    ]);

    expect((await paymentOf(paymentId)).status).toBe('pending');
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual([]);
    const failed = (await merchantEventTypes(consent.consentId)).at(-1);
    expect(failed).toMatchObject({
      type: 'future_payment.failed',
      data: {
        paymentId,
        code: 'DIRECT_DEBIT_FAILED',
        message: 'Direct debit payment failed',
        rounds: 3,
        tries: [
          { position: 0, reason: 'insufficient_funds' },
          { position: 1, reason: 'insufficient_funds' },
        ],
      },
    });
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/payments/${paymentId}`,
      headers: { authorization: consent.merchant.authorization },
    });
    expect(read.json().payment).toMatchObject({
      status: 'pending',
      collections: [
        {
          status: 'failed',
          account: null,
          failure: {
            code: 'DIRECT_DEBIT_FAILED',
            message: 'Direct debit payment failed',
            reason: 'insufficient_funds',
          },
        },
      ],
    });
    // A failed collection is not tried again by the runner.
    clock.advance(DAY);
    expect(await run()).toMatchObject({ collected: 0, failed: 0 });
    await expectCleanBooks();
  });
});

describe('a runner that dies mid-collection', () => {
  it('is taken over past the stale age with the same reference: the bank debits once', async () => {
    const consent = await grantedConsent(
      ['links_by_test_transfer'],
      [{ amount: 90_000, dueIn: HOUR }],
    );
    const paymentId = consent.paymentIds[0]!;
    const before = await balanceOf(consent, 'links_by_test_transfer');
    // The runner that dies made the collection and its notice, and claims it when due (the whole
    // notice's lead after the notice)...
    await scheduleAndNotify(ctx.context);
    clock.advance(DAY);
    const claimed = (await claimDueCollections(ctx.database.db, clock.now(), DAY)).find(
      (c) => c.paymentId === paymentId,
    );
    expect(claimed).toBeDefined();
    // ...it asked the bank, which debited, and died before recording the answer.
    const account = await accountOf(consent, 'links_by_test_transfer');
    await usable(ctx.context.providers.payments.debits).debitAccount({
      reference: debitReference(claimed!.id, 0),
      mandateReference: 'alk_any',
      payerId: 'pyr_test',
      institutionCode: account.institutionCode,
      accountNumber: account.accountNumber,
      amount: claimed!.amount,
      narration: 'Membership',
    });
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before - 90_000);

    // Another runner leaves a fresh claim alone.
    clock.advance(60_000);
    await run();
    expect((await collectionsOf(paymentId))[0]?.status).toBe('collecting');
    expect((await paymentOf(paymentId)).status).toBe('pending');

    clock.advance(STALE_COLLECTION_MS);
    expect(await run()).toMatchObject({ collected: 1 });
    expect((await paymentOf(paymentId)).status).toBe('executed');
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before - 90_000);
    expect(await bankDebitsOf(claimed!.id)).toHaveLength(1);
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['future_payment_debit']);
    await expectCleanBooks();
  });

  it('leaves a collection whose bank did not answer to the next runner, without trying the next account', async () => {
    const consent = await grantedConsent(
      ['links_by_test_transfer', 'insufficient_funds'],
      [{ amount: 80_000, dueIn: HOUR }],
    );
    const paymentId = consent.paymentIds[0]!;
    const before = await balanceOf(consent, 'links_by_test_transfer');
    const real = usable(ctx.context.providers.payments.debits);
    // The bank debits, then the connection drops before its answer arrives (the debits port of
    // the provider the links name).
    const { registry } = ctx.context.providers;
    const debits = {
      ...real,
      debitAccount: async (request: Parameters<typeof real.debitAccount>[0]) => {
        await real.debitAccount(request);
        throw new Error('connection reset');
      },
    };
    const portOf = ((name: string, capability: Parameters<typeof registry.portOf>[1]) =>
      capability === 'debits' && name === real.provider
        ? debits
        : registry.portOf(name, capability)) as unknown as typeof registry.portOf;
    const silent = {
      ...ctx.context,
      providers: { ...ctx.context.providers, registry: { ...registry, portOf } },
    };
    await run();
    clock.advance(DAY);
    expect(await runCollections(silent)).toMatchObject({ collected: 0, failed: 0 });
    const [open] = await collectionsOf(paymentId);
    expect(open).toMatchObject({ status: 'collecting', tries: [] });
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before - 80_000);

    clock.advance(STALE_COLLECTION_MS + 1);
    expect(await run()).toMatchObject({ collected: 1 });
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before - 80_000);
    expect(await bankDebitsOf(open!.id)).toHaveLength(1);
    const asked = await ctx.database.db
      .select()
      .from(sandboxDebits)
      .where(like(sandboxDebits.reference, `${open!.id}.%`));
    expect(asked.map((d) => d.reference)).toEqual([debitReference(open!.id, 0)]);
    expect((await collectionsOf(paymentId))[0]).toMatchObject({
      status: 'succeeded',
      accountId: consent.accountIds[0],
      claims: 2,
    });
    await expectCleanBooks();
  });
});

describe('several runners at once', () => {
  it(
    'collect each due payment once, in one process or two on one database',
    { tags: ['postgres'] },
    async () => {
      const due = Array.from({ length: 4 }, (_, i) => ({ amount: 10_000 + i, dueIn: HOUR }));
      const first = await grantedConsent(['links_by_test_transfer'], due);
      const second = await grantedConsent(['links_by_test_transfer'], due);
      const paymentIds = [...first.paymentIds, ...second.paymentIds];
      // Each payer's own account: each pays its consent's due payments.
      const before = [
        await balanceOf(first, 'links_by_test_transfer'),
        await balanceOf(second, 'links_by_test_transfer'),
      ];
      const total = due.reduce((sum, p) => sum + p.amount, 0);

      const other = await secondServer(ctx, clock);
      try {
        await run();
        clock.advance(DAY);
        const runs = await Promise.all([
          ctx.app.collections.runDue(),
          other.app.collections.runDue(),
          run(),
          runCollections(other.app.appContext),
        ]);
        expect(runs.reduce((sum, r) => sum + r.collected, 0)).toBe(8);
      } finally {
        await other.close();
      }
      expect([
        await balanceOf(first, 'links_by_test_transfer'),
        await balanceOf(second, 'links_by_test_transfer'),
      ]).toEqual(before.map((balance) => balance - total));
      for (const paymentId of paymentIds) {
        const collections = await collectionsOf(paymentId);
        expect(collections.map((c) => c.status)).toEqual(['succeeded']);
        expect(await bankDebitsOf(collections[0]!.id)).toHaveLength(1);
        expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['future_payment_debit']);
      }
      await expectCleanBooks();
    },
  );
});

describe('POST /api/v1/payments/{paymentId}/collect', () => {
  const collect = (authorization: string, paymentId: string, amount: unknown, key?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${paymentId}/collect`,
      headers: { authorization, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { amount },
    });

  it('debits a variable payment the notice’s lead after the merchant asks, up to the consented amount, once per Idempotency-Key', async () => {
    const consent = await grantedConsent(
      ['links_by_test_transfer'],
      [{ amount: 500_000, amountType: 'variable', dueIn: 30 * DAY }],
    );
    const paymentId = consent.paymentIds[0]!;
    const auth = consent.merchant.authorization;
    const before = await balanceOf(consent, 'links_by_test_transfer');

    const above = await collect(auth, paymentId, 500_001, 'k-above');
    expect(above.statusCode).toBe(400);
    expect(above.json()).toEqual({
      success: false,
      error: {
        code: 'COLLECTION_AMOUNT_ABOVE_CONSENTED',
        message: 'The amount is above the ₦5,000.00 the payer consented to',
      },
    });
    for (const bad of [0, -5, 12.5, '100', null]) {
      const refused = await collect(auth, paymentId, bad);
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(refused.json().error.code).toBe('VALIDATION_FAILED');
    }

    const first = await collect(auth, paymentId, 320_000, 'k-1');
    expect(first.statusCode, first.body).toBe(202);
    // The payer is told now; it is debited no sooner than the notice's lead after.
    expect(first.json().collection).toMatchObject({
      trigger: 'merchant',
      status: 'pending',
      amount: 320_000,
      notifiedAt: clock.now().toISOString(),
      dueAt: new Date(clock.now().getTime() + DAY).toISOString(),
    });
    const again = await collect(auth, paymentId, 320_000, 'k-1');
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    const meanwhile = await collect(auth, paymentId, 1_000, 'k-0');
    expect(meanwhile.json().error.code).toBe('PAYMENT_IN_PROGRESS');
    clock.advance(DAY - 1);
    expect(await run()).toMatchObject({ collected: 0 });
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before);
    clock.advance(1);
    expect(await run()).toMatchObject({ collected: 1 });
    expect((await collectionsOf(paymentId))[0]).toMatchObject({
      status: 'succeeded',
      accountId: consent.accountIds[0],
    });
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before - 320_000);

    const reused = await collect(auth, paymentId, 1_000, 'k-1');
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const paid = await collect(auth, paymentId, 1_000, 'k-2');
    expect(paid.statusCode).toBe(409);
    expect(paid.json().error.code).toBe('PAYMENT_ALREADY_MADE');
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['future_payment_debit']);
    expect((await merchantEventTypes(consent.consentId)).at(-1)).toMatchObject({
      type: 'future_payment.collected',
      data: { paymentId, amount: 320_000, trigger: 'merchant' },
    });
    await expectCleanBooks();
  });

  it("answers another merchant's payment as absent, and refuses payments it may not collect", async () => {
    const consent = await grantedConsent(
      ['links_by_test_transfer'],
      [
        { amount: 100_000, dueIn: 10 * DAY },
        { amount: 100_000, narration: 'Top-up' },
      ],
    );
    const [scheduled, asNeeded] = consent.paymentIds as [string, string];
    const stranger = await createTestClient(ctx.database, { name: 'Other Shop' });

    for (const [method, url] of [
      ['POST', `/api/v1/payments/${asNeeded}/collect`],
      ['GET', `/api/v1/payments/${asNeeded}`],
      ['GET', '/api/v1/payments/pay_unknown'],
    ] as const) {
      const answer = await ctx.app.inject({
        method,
        url,
        headers: { authorization: stranger.authorization },
        ...(method === 'POST' ? { payload: { amount: 100 } } : {}),
      });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().error.code).toBe('PAYMENT_NOT_FOUND');
    }
    const fixed = await collect(consent.merchant.authorization, scheduled, 100);
    expect(fixed.statusCode).toBe(409);
    expect(fixed.json().error.code).toBe('FUTURE_PAYMENT_SCHEDULED');
    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${asNeeded}/collect`,
      payload: { amount: 100 },
    });
    expect(unsigned.statusCode).toBe(401);

    const pending = await pendingConsent([{ amount: 100_000 }]);
    const notGranted = await collect(pending.merchant.authorization, pending.paymentIds[0]!, 100);
    expect(notGranted.statusCode).toBe(409);
    expect(notGranted.json().error.code).toBe('FUTURE_PAYMENT_NOT_GRANTED');

    // The 'As needed' payment is collected whole.
    const whole = await collect(consent.merchant.authorization, asNeeded, 100_000);
    expect(whole.statusCode, whole.body).toBe(202);
  });

  it('fails the collection when every account refuses, with the tries on the read', async () => {
    const consent = await grantedConsent(['insufficient_funds'], [{ amount: 900_000 }]);
    const paymentId = consent.paymentIds[0]!;
    const asked = await collect(consent.merchant.authorization, paymentId, 900_000, 'k-f');
    expect(asked.statusCode, asked.body).toBe(202);
    clock.advance(DAY);
    expect(await run()).toMatchObject({ failed: 1 });
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/payments/${paymentId}`,
      headers: { authorization: consent.merchant.authorization },
    });
    expect(read.json().payment.collections).toEqual([
      expect.objectContaining({
        trigger: 'merchant',
        status: 'failed',
        failure: expect.objectContaining({ reason: 'insufficient_funds' }),
        tries: [
          expect.objectContaining({
            accountNumber: maskedNumber(await accountOf(consent, 'insufficient_funds')),
            outcome: 'failed',
          }),
        ],
      }),
    ]);
    expect((await merchantEventTypes(consent.consentId)).at(-1)?.type).toBe(
      'future_payment.failed',
    );
    // A smaller amount the account holds is collected by a new call.
    const smaller = await collect(consent.merchant.authorization, paymentId, 1_000, 'k-g');
    expect(smaller.statusCode, smaller.body).toBe(202);
  });

  it('debits once when the merchant calls many times at once', { tags: ['postgres'] }, async () => {
    const consent = await grantedConsent(['links_by_test_transfer'], [{ amount: 40_000 }]);
    const paymentId = consent.paymentIds[0]!;
    const before = await balanceOf(consent, 'links_by_test_transfer');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => collect(consent.merchant.authorization, paymentId, 40_000)),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 202)) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json().error.code).toBe('PAYMENT_IN_PROGRESS');
    }
    clock.advance(DAY);
    await run();
    expect(await balanceOf(consent, 'links_by_test_transfer')).toBe(before - 40_000);
    const collections = await collectionsOf(paymentId);
    expect(collections.filter((c) => c.status === 'succeeded')).toHaveLength(1);
    expect(collections.filter((c) => c.status === 'collecting')).toEqual([]);
    await expectCleanBooks();
  });
});

// A merchant's refunds (docs/payments.md "Refunds"): POST /api/v1/payments/{paymentId}/refunds
// gives back the whole or part of a paid payment, by the way it came (a card's refund at its
// issuer, a debit put back on its account, a transfer paid back to its sender), never more than
// was paid however many refunds run at once; only the payment's merchant may, once per
// Idempotency-Key; a lost answer is asked about once by the reconciler, never asked for again;
// each outcome is booked, told by webhook and read on GET /api/v1/payments/{paymentId}.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorBody } from '../../domain/errors';
import { merchantEvents, paymentRefunds, payments, sandboxRefunds } from '../db/schema';
import { checkLedger, ledgerProblems } from '../services/payments/ledger';
import { completeRefund } from '../services/payments/refunds';
import { runCollections } from '../services/payments/collection-runner';
import { webhookDeliverer } from '../services/merchants/webhooks';
import { ownAccount } from '../testing/bvn';
import { oneTapGrant, payerWithPasskey, signedGrant } from '../testing/identity';
import {
  consentWithPayment,
  ledgerKinds,
  linkByTestTransfer,
  payByCard,
  payByTransfer,
  sandboxAccount,
  sandboxBalanceOf,
} from '../testing/payments';
import { createTestClient, useTestApp, testClock } from '../testing/test-app';
import { usable } from '../providers/off';

const clock = testClock(new Date());
const ctx = useTestApp({
  clock,
  webhookDelivery: 'manual',
  env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
});

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

let keySeq = 0;
const newKey = () => `refund-${Date.now()}-${(keySeq += 1)}`;

/** POST /api/v1/payments/{paymentId}/refunds as the consent's merchant (or `authorization`). */
const refund = (
  consent: Pick<TConsent, 'paymentId' | 'client'>,
  body: object,
  options: { key?: string; authorization?: string } = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/payments/${consent.paymentId}/refunds`,
    headers: {
      authorization: options.authorization ?? consent.client.authorization,
      ...(options.key ? { 'idempotency-key': options.key } : {}),
    },
    payload: body,
  });

/** GET /api/v1/payments/{paymentId} as the consent's merchant. */
async function readPayment(consent: TConsent) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/payments/${consent.paymentId}`,
    headers: { authorization: consent.client.authorization },
  });
  expect(read.statusCode).toBe(200);
  return read.json<{
    payment: {
      status: string;
      refunded: number;
      refunds: Array<{ refundId: string; amount: number; status: string; reason: string | null }>;
    };
  }>().payment;
}

/** A consent whose immediate payment of `amount` was paid by a sandbox card. */
async function paidByCard(amount = 250_000) {
  const consent = await consentWithPayment(ctx.app, ctx.database, { amount });
  expect((await payByCard(ctx.app, consent)).json()).toMatchObject({
    message: 'Payment successful',
  });
  return consent;
}

/** The books agree with themselves and with the sandbox's record of what it took and gave back. */
async function expectBooksBalanced() {
  const report = await checkLedger(ctx.database.db, {
    provider: ctx.context.providers.payments.settlement,
  });
  expect(ledgerProblems(report)).toEqual([]);
}

const eventsOf = (refundId: string) =>
  ctx.database.db
    .select({ type: merchantEvents.type, data: merchantEvents.data })
    .from(merchantEvents)
    .where(eq(merchantEvents.type, 'refund.processed'))
    .then((rows) =>
      rows.filter((row) => (row.data as { refundId?: string }).refundId === refundId),
    );

// Each test so marked is in `npm run test:postgres` too (docs/testing.md).
const PG: { tags: ['postgres'] } = { tags: ['postgres'] };

const later = () => clock.advance(6 * 60_000);
const reconcile = () => ctx.app.reconciler.runDue();

describe('refunding a card payment', () => {
  it('gives the whole payment back when no amount is given, booked and shown on the payment', async () => {
    const consent = await paidByCard();

    const answer = await refund(consent, { reason: 'Order cancelled' });

    expect(answer.statusCode).toBe(201);
    const given = answer.json<{ refund: { refundId: string } }>().refund;
    expect(given).toMatchObject({
      paymentId: consent.paymentId,
      amount: 250_000,
      reason: 'Order cancelled',
      status: 'processed',
      failureReason: null,
    });
    expect(given.refundId).toMatch(/^rfd_/);
    expect(await readPayment(consent)).toMatchObject({
      status: 'executed',
      refunded: 250_000,
      refunds: [{ refundId: given.refundId, amount: 250_000, status: 'processed' }],
    });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'card_payment',
      'merchant_refund',
    ]);
    const [atIssuer] = await ctx.database.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.reference, given.refundId));
    expect(atIssuer).toMatchObject({ channel: 'card', amount: 250_000, outcome: 'processed' });
    await expectBooksBalanced();
  });

  it('refunds in parts up to what was paid, and refuses a part beyond it', async () => {
    const consent = await paidByCard();
    for (const amount of [100_000, 100_000, 50_000]) {
      expect((await refund(consent, { amount })).statusCode).toBe(201);
    }

    const beyond = await refund(consent, { amount: 1 });

    expect(beyond.statusCode).toBe(409);
    expect(beyond.json()).toEqual({
      success: false,
      error: {
        code: 'REFUND_EXCEEDS_REMAINING',
        message: 'The refund is more than the ₦0.00 of this payment that is left to refund',
      },
    });
    const read = await readPayment(consent);
    expect(read.refunded).toBe(250_000);
    // Made within one tick of the test clock: their order is not what is asserted.
    expect(read.refunds.map((r) => [r.amount, r.status]).sort()).toEqual([
      [100_000, 'processed'],
      [100_000, 'processed'],
      [50_000, 'processed'],
    ]);
    await expectBooksBalanced();
  });

  it('refuses a refund above what remains, saying what remains, and changes nothing', async () => {
    const consent = await paidByCard();
    expect((await refund(consent, { amount: 100_000 })).statusCode).toBe(201);

    const over = await refund(consent, { amount: 150_001 });

    expect(over.statusCode).toBe(409);
    expect(over.json().error).toEqual({
      code: 'REFUND_EXCEEDS_REMAINING',
      message: 'The refund is more than the ₦1,500.00 of this payment that is left to refund',
    });
    expect((await readPayment(consent)).refunded).toBe(100_000);
  });

  it('never gives back more than was paid, however many refunds run at once', PG, async () => {
    const consent = await paidByCard();

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => refund(consent, { amount: 100_000 })),
    );

    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
    const read = await readPayment(consent);
    expect(read.refunded).toBe(200_000);
    expect(read.refunds.filter((r) => r.status === 'processed')).toHaveLength(2);
    await expectBooksBalanced();
  });

  it('gives what remains once when several ask for the remainder at once', PG, async () => {
    const consent = await paidByCard();
    expect((await refund(consent, { amount: 60_000 })).statusCode).toBe(201);

    const answers = await Promise.all(Array.from({ length: 4 }, () => refund(consent, {})));

    const given = answers.filter((a) => a.statusCode === 201);
    expect(given).toHaveLength(1);
    expect(given[0]?.json().refund.amount).toBe(190_000);
    for (const refused of answers.filter((a) => a.statusCode !== 201)) {
      expect(refused.json().error.code).toBe('REFUND_EXCEEDS_REMAINING');
    }
    expect((await readPayment(consent)).refunded).toBe(250_000);
    await expectBooksBalanced();
  });

  it(
    'gives the remainder to a whole refund while anything remains, however many parts land at once',
    PG,
    async () => {
      const consent = await paidByCard();
      const asked = [
        ...Array.from({ length: 8 }, () => ({ amount: 20_000 })),
        {},
        {},
        ...Array.from({ length: 4 }, () => ({ amount: 20_000 })),
      ];

      const answers = await Promise.all(
        asked.map((body) => refund(consent, body, { key: newKey() })),
      );

      const given = answers.filter((a) => a.statusCode === 201);
      const refused = answers.filter((a) => a.statusCode !== 201);
      const amounts = given.map((a) => a.json<{ refund: { amount: number } }>().refund.amount);
      expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBe(250_000);
      // Of the two wholes, the first to reserve takes what the parts before it left; the other
      // finds nothing left. No part is refused while a whole one has not yet taken the rest.
      const wholes = answers.filter((_, i) => !('amount' in (asked[i] ?? {})));
      expect(wholes.map((a) => a.statusCode).sort()).toEqual([201, 409]);
      expect(amounts.filter((amount) => amount !== 20_000).length).toBeLessThanOrEqual(1);
      for (const answer of refused) {
        expect(answer.statusCode).toBe(409);
        expect(answer.json().error).toEqual({
          code: 'REFUND_EXCEEDS_REMAINING',
          message: 'The refund is more than the ₦0.00 of this payment that is left to refund',
        });
      }
      const read = await readPayment(consent);
      expect(read.refunded).toBe(250_000);
      expect(read.refunds.filter((r) => r.status === 'processed')).toHaveLength(given.length);
      await expectBooksBalanced();
    },
  );

  it(
    'refuses parts at once by what remains when each is judged, never by an earlier read',
    PG,
    async () => {
      const consent = await paidByCard();
      const asked = [90_000, 90_000, 90_000, 60_000, 60_000];

      const answers = await Promise.all(
        asked.map((amount) => refund(consent, { amount }, { key: newKey() })),
      );

      const given = asked.filter((_, i) => answers[i]?.statusCode === 201);
      const total = given.reduce((sum, amount) => sum + amount, 0);
      expect(total).toBeLessThanOrEqual(250_000);
      const read = await readPayment(consent);
      expect(read.refunded).toBe(total);
      answers.forEach((answer, i) => {
        if (answer.statusCode === 201) return;
        const { code, message } = answer.json<{ error: { code: string; message: string } }>().error;
        expect(code).toBe('REFUND_EXCEEDS_REMAINING');
        // What remained when it was judged: what was paid less the parts reserved before it, so
        // less than it asked and no less than what remains in the end.
        const named = Math.round(
          Number(/₦([\d,.]+)/.exec(message)?.[1]?.replaceAll(',', '')) * 100,
        );
        expect(named).toBeLessThan(asked[i] ?? 0);
        expect(named).toBeGreaterThanOrEqual(250_000 - total);
      });
      // Whatever the order, parts are given until the next would not fit.
      expect(250_000 - total).toBeLessThan(60_000);
      await expectBooksBalanced();
    },
  );
});

describe('who may refund what', () => {
  it("answers 404 for another merchant's payment, as for one that does not exist", async () => {
    const consent = await paidByCard();
    const other = await createTestClient(ctx.database, { name: 'Mama Put Foods' });

    const foreign = await refund(consent, {}, { authorization: other.authorization });
    const unknown = await refund({ ...consent, paymentId: 'pay_none' }, {});

    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(errorBody('PAYMENT_NOT_FOUND'));
    expect(unknown.json()).toEqual(errorBody('PAYMENT_NOT_FOUND'));
    expect((await readPayment(consent)).refunded).toBe(0);
  });

  it('refuses a payment not paid yet', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);

    const answer = await refund(consent, { amount: 1_000 });

    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual(errorBody('PAYMENT_NOT_REFUNDABLE'));
  });

  it('refuses an amount that is not whole kobo above zero, a long reason and unknown fields', async () => {
    const consent = await paidByCard();
    const bodies = [
      { amount: 0 },
      { amount: -5 },
      { amount: 10.5 },
      { amount: '1000' },
      { reason: 'x'.repeat(201) },
      { reason: '' },
      { amount: 1_000, note: 'extra' },
    ];
    for (const body of bodies) {
      const answer = await refund(consent, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await readPayment(consent)).refunds).toEqual([]);
  });

  it('answers a retry with the same Idempotency-Key with the first refund, and another body with 409', async () => {
    const consent = await paidByCard();
    const key = newKey();

    const first = await refund(consent, { amount: 70_000 }, { key });
    const again = await refund(consent, { amount: 70_000 }, { key });
    const changed = await refund(consent, { amount: 80_000 }, { key });

    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toEqual(errorBody('IDEMPOTENCY_KEY_REUSED'));
    const read = await readPayment(consent);
    expect(read.refunds).toHaveLength(1);
    expect(read.refunded).toBe(70_000);
  });
});

describe('refunding a transfer and a debit', () => {
  it('pays a transfer back to the account it came from, in part', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const sender = sandboxAccount('links_by_auth_params');
    const from = { institutionCode: sender.institutionCode, accountNumber: sender.accountNumber };
    expect((await payByTransfer(ctx.app, consent, { from })).json()).toMatchObject({
      outcome: 'credited',
    });
    const before = await sandboxBalanceOf(ctx.database, 'links_by_auth_params');

    const answer = await refund(consent, { amount: 40_000 });

    expect(answer.statusCode).toBe(201);
    expect(answer.json().refund).toMatchObject({ amount: 40_000, status: 'processed' });
    expect(await sandboxBalanceOf(ctx.database, 'links_by_auth_params')).toBe(before + 40_000);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'transfer_payment',
      'merchant_refund',
    ]);
    await expectBooksBalanced();
  });

  it('asks for the payer’s account when a transfer’s notice named no sender, and pays it back to the account given', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    expect((await payByTransfer(ctx.app, consent)).json()).toMatchObject({ outcome: 'credited' });

    // Nowhere to pay it back: the merchant is told to ask the payer for their account.
    const answer = await refund(consent, {});
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual(errorBody('REFUND_SENDER_UNKNOWN'));
    expect((await readPayment(consent)).refunded).toBe(0);

    const payer = sandboxAccount('links_by_auth_params');
    const refundTo = { institutionCode: payer.institutionCode, accountNumber: payer.accountNumber };
    const unknown = await refund(consent, {
      refundTo: { institutionCode: payer.institutionCode, accountNumber: '9999999999' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(errorBody('ACCOUNT_NOT_FOUND_AT_BANK'));

    const before = await sandboxBalanceOf(ctx.database, 'links_by_auth_params');
    const paidBack = await refund(consent, { amount: 60_000, refundTo });
    expect(paidBack.statusCode).toBe(201);
    expect(paidBack.json().refund).toMatchObject({ amount: 60_000, status: 'processed' });
    expect(await sandboxBalanceOf(ctx.database, 'links_by_auth_params')).toBe(before + 60_000);
    await expectBooksBalanced();
  });

  it('takes no account for a payment that goes back the way it was paid', async () => {
    const consent = await paidByCard();
    const answer = await refund(consent, {
      refundTo: { institutionCode: '058', accountNumber: '0123456789' },
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual(errorBody('REFUND_ACCOUNT_NOT_TAKEN'));
    expect((await readPayment(consent)).refunded).toBe(0);
  });

  it('puts part of a saved account’s debit back on the account, then the rest, and the payer sees both', async () => {
    const who = await payerWithPasskey(ctx.app, ctx.config);
    const accountId = await linkByTestTransfer(ctx.app, who.token, 'links_by_test_transfer');
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    expect((await oneTapGrant(ctx.app, who, consent.consentId, accountId)).json()).toMatchObject({
      status: 'granted',
    });
    const account = await ownAccount(ctx.app, who.token, 'links_by_test_transfer');
    const debited = await sandboxBalanceOf(ctx.database, account);

    expect((await refund(consent, { amount: 50_000 })).json().refund).toMatchObject({
      status: 'processed',
    });
    expect(await sandboxBalanceOf(ctx.database, account)).toBe(debited + 50_000);
    expect((await refund(consent, {})).json().refund).toMatchObject({ amount: 200_000 });
    expect(await sandboxBalanceOf(ctx.database, account)).toBe(debited + 250_000);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'account_debit',
      'merchant_refund',
      'merchant_refund',
    ]);
    await expectBooksBalanced();
    // The payer sees both on their consents (/consents).
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/consents',
      headers: who.headers,
    });
    const mine = listed
      .json<{ consents: Array<{ consentId: string; refunds: Array<{ amount: number }> }> }>()
      .consents.find((c) => c.consentId === consent.consentId);
    expect([...(mine?.refunds ?? [])].sort((a, b) => a.amount - b.amount)).toMatchObject([
      { paymentId: consent.paymentId, amount: 50_000, status: 'processed' },
      { paymentId: consent.paymentId, amount: 200_000, status: 'processed' },
    ]);
  });
});

describe('refunding a future payment the merchant collected', () => {
  it('gives back what the collection debited, not the amount consented to, to the debited account', async () => {
    const { token, soft } = await payerWithPasskey(ctx.app, ctx.config);
    const accountId = await linkByTestTransfer(ctx.app, token, 'links_by_test_transfer');
    const merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: merchant.authorization },
      payload: {
        payments: [
          { type: 'future', amount: 500_000, amountType: 'variable', narration: 'Top-ups' },
        ],
        requirements: { requiresAuth: true },
      },
    });
    const { consentId } = created.json<{ consentId: string }>();
    const [payment] = await ctx.database.db
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.consentId, consentId));
    const consent = { paymentId: payment?.id ?? '', client: merchant };
    const grant = {
      originalRequestId: null,
      consentData: { consentId },
      userAuthenticated: true,
      attestDiscoveryId: null,
      futurePayments: {
        granted: true,
        selectedAccounts: [accountId],
        paymentMethods: [{ type: 'account' as const, accountId }],
      },
    };
    const granted = await ctx.app.inject({
      method: 'POST',
      url: `/api/consent/${consentId}/grant`,
      headers: { authorization: `Bearer ${token}` },
      payload: await signedGrant(ctx.app, soft, token, consentId, grant),
    });
    expect(granted.json()).toMatchObject({ status: 'granted' });
    const collected = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${consent.paymentId}/collect`,
      headers: { authorization: merchant.authorization },
      payload: { amount: 300_000 },
    });
    expect(collected.statusCode, collected.body).toBe(202);
    // Debited once the payer's notice has had its lead.
    clock.advance(ctx.config.debitNoticeHours * 60 * 60 * 1_000);
    expect(await runCollections(ctx.context)).toMatchObject({ collected: 1 });
    const account = await ownAccount(ctx.app, token, 'links_by_test_transfer');
    const debited = await sandboxBalanceOf(ctx.database, account);

    const whole = await refund(consent, {});

    expect(whole.json().refund).toMatchObject({ amount: 300_000, status: 'processed' });
    expect(await sandboxBalanceOf(ctx.database, account)).toBe(debited + 300_000);
    expect((await refund(consent, { amount: 1 })).json().error.code).toBe(
      'REFUND_EXCEEDS_REMAINING',
    );
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'future_payment_debit',
      'merchant_refund',
    ]);
    await expectBooksBalanced();
  });
});

describe('a refund whose answer was lost', () => {
  /** The provider's next refund answers nothing: it refunded (`after`) or never got it (`before`). */
  function loseNextRefundAnswer(when: 'after' | 'before') {
    const provider = usable(ctx.context.providers.payments.refunds);
    const real = provider.refund.bind(provider);
    return vi.spyOn(provider, 'refund').mockImplementationOnce(async (request) => {
      if (when === 'after') await real(request);
      throw new Error('connection reset');
    });
  }

  it(
    'stays pending, holds its amount, and is settled by one requery, never refunded again',
    PG,
    async () => {
      const consent = await paidByCard();
      const refunds = loseNextRefundAnswer('after');
      const requeries = vi.spyOn(usable(ctx.context.providers.payments.refunds), 'requeryRefund');

      const answer = await refund(consent, { amount: 200_000 });

      expect(answer.statusCode).toBe(202);
      const { refundId } = answer.json<{ refund: { refundId: string } }>().refund;
      expect(answer.json().refund).toMatchObject({ status: 'pending', endedAt: null });
      // What it holds is not refunded twice meanwhile.
      expect((await refund(consent, { amount: 50_001 })).json().error.code).toBe(
        'REFUND_EXCEEDS_REMAINING',
      );

      later();
      expect(await reconcile()).toMatchObject({ merchantRefunds: { processed: 1 } });
      later();
      expect(await reconcile()).toMatchObject({ merchantRefunds: {} });

      expect(refunds).toHaveBeenCalledTimes(1);
      // Asked about with the charge it gave back from and when it was asked for.
      expect(requeries.mock.calls).toEqual([
        [
          {
            reference: refundId,
            providerReference: expect.any(String),
            channel: 'card',
            createdAt: expect.any(Date),
          },
        ],
      ]);
      requeries.mockRestore();
      refunds.mockRestore();
      expect(await readPayment(consent)).toMatchObject({
        refunded: 200_000,
        refunds: [{ refundId, status: 'processed' }],
      });
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
        'card_payment',
        'merchant_refund',
      ]);
      expect(await eventsOf(refundId)).toHaveLength(1);
      await expectBooksBalanced();
    },
  );

  it(
    'fails when the provider never got it, and what it held may be refunded again',
    PG,
    async () => {
      const consent = await paidByCard();
      const refunds = loseNextRefundAnswer('before');

      const answer = await refund(consent, {});
      const { refundId } = answer.json<{ refund: { refundId: string } }>().refund;
      refunds.mockRestore();
      later();
      expect(await reconcile()).toMatchObject({ merchantRefunds: { failed: 1 } });

      expect(await readPayment(consent)).toMatchObject({
        refunded: 0,
        refunds: [{ refundId, status: 'failed' }],
      });
      const [failed] = await ctx.database.db
        .select({ data: merchantEvents.data })
        .from(merchantEvents)
        .where(eq(merchantEvents.type, 'refund.failed'))
        .then((rows) =>
          rows.filter((r) => (r.data as { refundId?: string }).refundId === refundId),
        );
      expect(failed?.data).toMatchObject({ refundId, amount: 250_000, failureReason: 'expired' });
      expect((await refund(consent, {})).json().refund).toMatchObject({
        amount: 250_000,
        status: 'processed',
      });
      await expectBooksBalanced();
    },
  );

  it('applies the same outcome twice once: no second booking, event or release', async () => {
    const consent = await paidByCard();
    const given = (await refund(consent, { amount: 30_000 })).json().refund as {
      refundId: string;
    };
    const [row] = await ctx.database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.id, given.refundId));
    const providerReference = row?.providerReference ?? '';

    const processedAgain = await completeRefund(ctx.context, given.refundId, {
      kind: 'processed',
      providerReference,
    });
    const failedLate = await completeRefund(ctx.context, given.refundId, {
      kind: 'failed',
      providerReference,
      reason: 'declined',
    });

    expect(processedAgain?.status).toBe('processed');
    expect(failedLate?.status).toBe('processed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'card_payment',
      'merchant_refund',
    ]);
    expect(await eventsOf(given.refundId)).toHaveLength(1);
    const [payment] = await ctx.database.db
      .select({ refunded: payments.refunded })
      .from(payments)
      .where(eq(payments.id, consent.paymentId));
    expect(payment?.refunded).toBe(30_000);
    expect(
      await completeRefund(ctx.context, 'rfd_unknown', { kind: 'processed', providerReference }),
    ).toBeNull();
  });
});

describe('the merchant hears of it', () => {
  type TReceived = { headers: IncomingHttpHeaders; body: string };
  let server: Server;
  const received: TReceived[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends refund.processed, signed, with the refund and its payment', async () => {
    const consent = await paidByCard();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: consent.client.authorization },
      payload: { url },
    });
    expect(created.statusCode).toBe(201);
    const secret = created.json<{ secret: string }>().secret;
    const given = (await refund(consent, { amount: 25_000, reason: 'Late delivery' })).json()
      .refund as { refundId: string };

    const deliverer = webhookDeliverer(ctx.context, { timeoutMs: 30_000 });
    await deliverer.runDue();

    const refunded = received
      .map((r) => ({ ...r, payload: JSON.parse(r.body) as { type: string; data: object } }))
      .filter((r) => r.payload.type === 'refund.processed');
    expect(refunded).toHaveLength(1);
    const [delivery] = refunded;
    expect(delivery?.payload.data).toEqual({
      consentId: consent.consentId,
      paymentId: consent.paymentId,
      refundId: given.refundId,
      amount: 25_000,
      reason: 'Late delivery',
      processedAt: clock.now().toISOString(),
      reference: null,
      metadata: {},
    });
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [
        h,
        String(delivery?.headers[h]),
      ]),
    );
    // The receiver's check, its clock set to the test clock's (it refuses a timestamp 5 minutes off).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock.now());
    try {
      expect(new Webhook(secret).verify(delivery?.body ?? '', headers)).toMatchObject({
        type: 'refund.processed',
      });
    } finally {
      vi.useRealTimers();
    }
    const [event] = await ctx.database.db
      .select({ id: merchantEvents.id })
      .from(merchantEvents)
      .where(
        and(
          eq(merchantEvents.type, 'refund.processed'),
          eq(merchantEvents.consentId, consent.consentId),
        ),
      );
    expect(event).toBeDefined();
  });
});

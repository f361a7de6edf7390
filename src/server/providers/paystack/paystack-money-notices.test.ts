// Paystack's notices of money, through the app's notices route with PAYMENT_PROVIDER=paystack
// against the Paystack simulator: a charge.success decides money only as Paystack's record of its
// transaction holds it (amount, currency, status), so a notice that says another amount gives
// nothing back and keeps nothing from the transfer's own notice, and money Paystack took in
// another currency than the naira never pays a naira payment: it is recorded and given back.
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAttempts, payments, transferNotices } from '../../db/schema';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import {
  consentWithPayment,
  encryptedCard,
  keepPageToken,
  ledgerKinds,
} from '../../testing/payments';
import { startTestApp, testClock } from '../../testing/test-app';
import { toPaystackReference } from './paystack-references';

const PAYSTACK_KEY = 'sk_test_moneynotices0000000000000000000000';
const clock = testClock(new Date());

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let paystack: TPaystackSimulator;
beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY, clock: () => clock.now() });
  ctx = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    env: {
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
      PAYSTACK_BASE_URL: paystack.url,
    },
  });
  const listening = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
});
afterAll(async () => {
  // Proves the books against Paystack's settlement report, then closes.
  await ctx.close();
  await paystack.close();
});

/** A charge.success signed with the integration's key, saying what `data` says. */
const signedChargeSuccess = (data: Record<string, unknown>) => {
  const body = JSON.stringify({ event: 'charge.success', data });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/providers/paystack/notices',
    headers: {
      'content-type': 'application/json',
      'x-paystack-signature': createHmac('sha512', PAYSTACK_KEY).update(body).digest('hex'),
    },
    payload: body,
  });
};

/** Paystack's own API, as the integration calls it. */
const askPaystack = async (path: string, init: RequestInit = {}) => {
  const answer = await fetch(`${paystack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${PAYSTACK_KEY}`, 'content-type': 'application/json' },
  });
  return (await answer.json()) as { status: boolean; data: unknown };
};

const paymentStatus = async (paymentId: string) =>
  (
    await ctx.database.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.id, paymentId))
  )[0]?.status;

const attemptOf = async (paymentId: string) => {
  const [attempt] = await ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));
  if (!attempt) throw new Error('no attempt');
  return attempt;
};

describe('A Paystack notice of a transfer', () => {
  it('that says another amount gives nothing back, and the transfer’s own notice completes the payment', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { amount: 110_740 });
    const opened = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
    });
    expect(opened.statusCode).toBe(200);
    keepPageToken(consent.paymentId, opened);
    const { accountNumber } = opened.json<{ transferDetails: { accountNumber: string } }>()
      .transferDetails;
    const attempt = await attemptOf(consent.paymentId);
    const reference = toPaystackReference(attempt.id);

    // A notice of the transaction saying ₦1 less than the account was opened for.
    const short = {
      reference,
      amount: 110_640,
      currency: 'NGN',
      status: 'success',
      channel: 'bank_transfer',
    };
    const toldShort = await signedChargeSuccess(short);
    expect(toldShort.statusCode, toldShort.body).toBe(200);
    expect(await paymentStatus(consent.paymentId)).toBe('pending');

    // The payer's ₦1,107.40 arrives, and Paystack tells of it.
    await paystack.payTransfer(accountNumber, 110_740);
    await paystack.idle();
    expect(await paymentStatus(consent.paymentId)).toBe('executed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['transfer_payment']);
    // The short notice told again, once paid, is read as the transaction it names: nothing new.
    expect((await signedChargeSuccess(short)).statusCode).toBe(200);

    // Nothing of the payer's went back, at once or at the reconciler's later runs.
    clock.advance(ctx.config.reconcileAfterMs + 1);
    expect(await ctx.app.reconciler.runDue()).toMatchObject({ transfersReturned: 0 });
    await paystack.idle();
    const refunds = await askPaystack(`/refund?transaction=${reference}`);
    expect(refunds.data).toEqual([]);
    const verified = await askPaystack(`/transaction/verify/${reference}`);
    expect(verified.data).toMatchObject({ status: 'success', amount: 110_740 });
    expect(
      await ctx.database.db
        .select({
          amount: transferNotices.amount,
          currency: transferNotices.currency,
          answer: transferNotices.answer,
        })
        .from(transferNotices)
        .where(eq(transferNotices.reference, attempt.id)),
    ).toEqual([{ amount: 110_740, currency: 'NGN', answer: 'taken' }]);
  });
});

describe('A Paystack charge taken in another currency than the naira', () => {
  it('pays nothing: it is recorded, given back whole, the attempt ends, and the payer pays again', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const card = { number: '4084084084084081', expiry: '12/30', cvv: '408', pin: '1234' };
    const payByCard = async () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/payments/card/public',
        payload: {
          paymentId: consent.paymentId,
          consentId: consent.consentId,
          cardDetails: await encryptedCard(ctx.app, card),
          saveCard: false,
        },
      });
    // Paystack answers 503 and takes nothing: the attempt waits, its answer unknown.
    paystack.failNext('/charge', 503);
    const first = keepPageToken(consent.paymentId, await payByCard());
    expect(first.json()).toMatchObject({ status: 'charging', chargeToken: expect.any(String) });
    const attempt = await attemptOf(consent.paymentId);
    // Unanswered: held as a charge in progress until Paystack is asked (payment-attempts.ts).
    expect(attempt.stage).toBe('unanswered');

    // The same charge reaches Paystack late, in dollars: the card is charged $2,500.00 under our
    // reference, and Paystack's charge.success comes to the notices route.
    const sent = paystack.requests.findLast((r) => r.method === 'POST' && r.path === '/charge');
    const inDollars = { ...(sent?.body as Record<string, unknown>), currency: 'USD' };
    const late = await askPaystack('/charge', { method: 'POST', body: JSON.stringify(inDollars) });
    expect(late, JSON.stringify(late)).toMatchObject({
      data: { status: 'success', currency: 'USD' },
    });
    await paystack.idle();

    expect(await paymentStatus(consent.paymentId)).toBe('pending');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    const reference = toPaystackReference(attempt.id);
    const verified = await askPaystack(`/transaction/verify/${reference}`);
    expect(verified.data).toMatchObject({ status: 'reversed', currency: 'USD' });
    expect(
      await ctx.database.db
        .select({
          amount: transferNotices.amount,
          currency: transferNotices.currency,
          answer: transferNotices.answer,
          returnedAt: transferNotices.returnedAt,
        })
        .from(transferNotices)
        .where(eq(transferNotices.reference, attempt.id)),
    ).toEqual([
      { amount: 250_000, currency: 'USD', answer: 'wrong_amount', returnedAt: expect.any(Date) },
    ]);

    // Asked about by the reconciler, the charge is no naira taken: the attempt ends.
    clock.advance(ctx.config.reconcileAfterMs + 1);
    expect(await ctx.app.reconciler.runDue()).toMatchObject({ attempts: { failed: 1 } });
    expect(await attemptOf(consent.paymentId)).toMatchObject({ status: 'failed' });
    const again = await payByCard();
    expect(again.statusCode, again.body).toBe(200);
    expect(await paymentStatus(consent.paymentId)).toBe('executed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });
});

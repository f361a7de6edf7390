// Card failover with CARD_PROVIDERS=paystack,monnify, each provider's simulator running: Paystack
// does not answer a charge (a 503, or an answer lost on the way back), and the charge is asked
// about at Paystack by its reference before anything else: no second try, anywhere, until
// Paystack says it took nothing (or says nothing for the whole asking window). Then the payer's
// next card goes to Monnify. Money Paystack took after all is booked once: it pays the payment
// and the next try never starts (or, waiting on its OTP, is closed), or, the payment paid at
// Monnify, it is given back at Paystack. On PGlite and on PostgreSQL.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_ASKING_WINDOW_MS } from '../../domain/payment-attempts';
import { addWorkingDays, CARD_REFUND_WORKING_DAYS } from '../../domain/refund-clocks';
import { reversalsOfConsent } from '../services/payments/reversals';
import { paymentAttempts } from '../db/schema';
import { ZPaymentStateResponse } from '../../domain/schemas/payment';
import { STILL_CHARGING_MESSAGE } from '../services/payments/card-payments';
import {
  CALLED_OFF_ASK_EVERY_MS,
  reconcileLostAttempts,
} from '../services/payments/attempts/reconcile';
import type { TMonnifySimulator } from '../testing/monnify-simulator/monnify-simulator';
import type { TPaystackSimulator } from '../testing/paystack-simulator/paystack-simulator';
import { startPaystackAndMonnify, type TPaystackAndMonnify } from '../testing/two-providers';
import { consentWithPayment, ledgerKinds, pageQuery, payByCard } from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';

const PAYSTACK_KEY = 'sk_test_cardfailover00000000000000000';
const clock = testClock(new Date());

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let paystack: TPaystackSimulator;
let monnify: TMonnifySimulator;
let two: TPaystackAndMonnify | undefined;

beforeAll(async () => {
  // Neither simulator's notices reach the server: what Paystack took is learnt by asking it.
  two = await startPaystackAndMonnify({
    paystackKey: PAYSTACK_KEY,
    clock,
    notices: false,
    env: {
      CARD_PROVIDERS: 'paystack,monnify',
    },
  });
  ({ ctx, paystack, monnify } = two);
});
afterAll(async () => {
  // Proves the books against both providers' settlement reports, then closes.
  await two?.close();
});

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

/** Paystack's card that is taken at once, and Monnify's (each simulator publishes its own). */
const PAYSTACK_CARD = { number: '4084084084084081', expiry: '12/30', cvv: '408', pin: '1234' };
const MONNIFY_CARD = { number: '4111111111111111', expiry: '12/30', cvv: '123', pin: '1234' };
/** Monnify's Verve card whose issuer asks an OTP. */
const MONNIFY_OTP_CARD = { number: '5060995994247093', expiry: '12/30', cvv: '123', pin: '1234' };

/**
 * The payment as its payer's page reads it: a page without sign-in, with the token its charge was
 * answered with (GET /api/payments/{id}, docs/payments.md "Who reads a payment").
 */
async function readPayment(consent: TConsent) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
  });
  expect(read.statusCode, read.body).toBe(200);
  return ZPaymentStateResponse.parse(read.json());
}

/**
 * A charge its provider did not answer, as a page without sign-in is answered: the bank still
 * answering, with the token that reads and follows the charge (never a 502 that leaves the page
 * holding nothing), as a signed-in payer's page follows it.
 */
function expectCharging(answer: { statusCode: number; body: string; json(): unknown }) {
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.json()).toMatchObject({
    status: 'charging',
    message: STILL_CHARGING_MESSAGE,
    chargeToken: expect.any(String),
  });
}

const attemptsOf = (paymentId: string) =>
  ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId))
    .orderBy(paymentAttempts.createdAt);

const chargesAt = {
  paystack: () => paystack.requests.filter((r) => r.method === 'POST' && r.path === '/charge'),
  monnify: () =>
    monnify.requests.filter(
      (r) => r.method === 'POST' && r.path.startsWith('/api/v1/merchant/cards/charge'),
    ),
};

/** The reconciler's run once the reconcile age has passed. */
async function reconcileLater(ms = ctx.config.reconcileAfterMs + 1_000) {
  clock.advance(ms);
  return reconcileLostAttempts(ctx.context);
}

/**
 * Paystack takes a charge and its answer is lost, and from then on nothing of Paystack's answers
 * (its reads of the charge by reference included) until `paystackBack`.
 */
function paystackTakesThenStops() {
  paystack.loseNextAnswer('/charge');
  paystack.unavailable(/^\/(charge\/|transaction)/);
}
const paystackBack = () => paystack.unavailable(null);

describe('a card charge Paystack did not answer', () => {
  it('is asked about at Paystack before any Try Again; once Paystack says it took nothing, the next card goes to Monnify and pays', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { amount: 150_000 });
    const paystackBefore = chargesAt.paystack().length;
    const monnifyBefore = chargesAt.monnify().length;
    paystack.failNext('/charge', 503);
    expectCharging(await payByCard(ctx.app, consent, MONNIFY_CARD));
    const [unanswered] = await attemptsOf(consent.paymentId);
    expect(unanswered).toMatchObject({ provider: 'paystack', stage: 'unanswered' });
    // The page waits on the bank: no Try Again before Paystack has been asked.
    expect((await readPayment(consent)).attempt).toMatchObject({
      state: 'charging',
      retryElsewhere: false,
    });

    // A second card now is held, at Monnify too, until Paystack has said.
    const tooSoon = await payByCard(ctx.app, consent, MONNIFY_CARD);
    expect(tooSoon.statusCode, tooSoon.body).toBe(409);
    expect(tooSoon.json()).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });
    // Not yet asked: the reconcile age has not passed.
    await reconcileLostAttempts(ctx.context);
    expect((await attemptsOf(consent.paymentId))[0]).toMatchObject({ stage: 'unanswered' });

    // Asked by its reference: Paystack never made it. The payer may try again elsewhere.
    const asked = await reconcileLater();
    expect(asked.counts).toMatchObject({ failed_over: 1 });
    expect((await attemptsOf(consent.paymentId))[0]).toMatchObject({
      stage: 'retry_elsewhere',
      status: 'failed',
      failureCode: 'CARD_BANK_NO_ANSWER',
    });
    const read = await readPayment(consent);
    expect(read.attempt).toMatchObject({
      state: 'failed',
      retryElsewhere: true,
      charged: false,
      message: 'Your bank did not answer. Nothing was charged.',
    });

    // Try Again: the card's steps again, at Monnify.
    const again = await payByCard(ctx.app, consent, MONNIFY_CARD);
    expect(again.statusCode, again.body).toBe(200);
    const [firstTry, secondTry] = await attemptsOf(consent.paymentId);
    expect(firstTry).toMatchObject({ provider: 'paystack', stage: 'tried_elsewhere' });
    expect(secondTry).toMatchObject({ provider: 'monnify', status: 'completed' });
    expect((await readPayment(consent)).status).toBe('completed');
    // One charge at each provider, never two at one; the money booked once.
    expect(chargesAt.paystack().length - paystackBefore).toBe(1);
    expect(chargesAt.monnify().length - monnifyBefore).toBe(1);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it('is booked once when Paystack says it took the money: the payer is never offered Monnify', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { amount: 160_000 });
    const monnifyBefore = chargesAt.monnify().length;
    paystackTakesThenStops();
    expectCharging(await payByCard(ctx.app, consent, PAYSTACK_CARD));
    expect((await attemptsOf(consent.paymentId))[0]).toMatchObject({ stage: 'unanswered' });
    expect((await payByCard(ctx.app, consent, MONNIFY_CARD)).statusCode).toBe(409);
    paystackBack();

    const asked = await reconcileLater();
    expect(asked.counts).toMatchObject({ booked: 1 });
    const [only, ...none] = await attemptsOf(consent.paymentId);
    expect(only).toMatchObject({ provider: 'paystack', status: 'completed' });
    expect(none).toEqual([]);
    expect((await readPayment(consent)).status).toBe('completed');
    // Paid: another card is refused, and Monnify never heard of the payment.
    const after = await payByCard(ctx.app, consent, MONNIFY_CARD);
    expect(after.statusCode).toBeGreaterThanOrEqual(400);
    expect(after.statusCode).toBeLessThan(500);
    expect(chargesAt.monnify().length).toBe(monnifyBefore);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it("ends on the payer's refusal when Paystack's record says declined: no Try Again elsewhere", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { amount: 170_000 });
    paystackTakesThenStops();
    const declined = { number: '4084080000005408', expiry: '12/30', cvv: '001', pin: '1234' };
    expectCharging(await payByCard(ctx.app, consent, declined));
    paystackBack();
    await reconcileLater();
    expect((await attemptsOf(consent.paymentId))[0]).toMatchObject({
      status: 'failed',
      stage: null,
      failureReason: 'declined',
    });
    expect((await readPayment(consent)).attempt).toMatchObject({ retryElsewhere: false });
  });
});

describe('a card charge Paystack says nothing of for the whole asking window', () => {
  /** A charge Paystack took, its answer lost, then Paystack silent until the window ends. */
  async function failedOverWithoutWord(consent: TConsent) {
    paystackTakesThenStops();
    expectCharging(await payByCard(ctx.app, consent, PAYSTACK_CARD));
    const early = await reconcileLater();
    expect(early.errors.length).toBeGreaterThan(0);
    expect((await attemptsOf(consent.paymentId))[0]).toMatchObject({ stage: 'unanswered' });
    const ended = await reconcileLater(CARD_ASKING_WINDOW_MS);
    expect(ended.counts).toMatchObject({ failed_over: 1 });
    paystackBack();
    const read = await readPayment(consent);
    // Whether anything was taken is not known: the page does not say nothing was charged.
    expect(read.attempt).toMatchObject({ retryElsewhere: true, charged: null });
  }

  it("gives back Paystack's money found later when the payment was paid at Monnify meanwhile", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { amount: 180_000 });
    await failedOverWithoutWord(consent);
    const again = await payByCard(ctx.app, consent, MONNIFY_CARD);
    expect(again.statusCode, again.body).toBe(200);

    // Paystack answers again: its charge is found taken, booked in and out, and given back there.
    const refundsBefore = paystack.requests.filter((r) => r.path === '/refund').length;
    const watched = await reconcileLater(CALLED_OFF_ASK_EVERY_MS + 1_000);
    expect(watched.counts).toMatchObject({ paid_otherwise: 1 });
    const [paystackTry, monnifyTry] = await attemptsOf(consent.paymentId);
    expect(paystackTry).toMatchObject({
      provider: 'paystack',
      status: 'failed',
      failureReason: 'paid_by_another_attempt',
    });
    expect(paystackTry?.refund).not.toBeNull();
    expect(monnifyTry).toMatchObject({ provider: 'monnify', status: 'completed' });
    expect(paystack.requests.filter((r) => r.path === '/refund').length - refundsBefore).toBe(1);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'card_payment',
      'card_payment',
      'card_refund',
    ]);
    // The consent's reversals (what a signed-in payer reads on /consents and the receipt's page):
    // given back to the card, with the date the card scheme posts it by, working days from when
    // it became owed.
    const [owedBack] = await attemptsOf(consent.paymentId);
    // Given back at Paystack already (its refund asked once, above).
    expect(owedBack?.refund).toBe('settled');
    expect(await reversalsOfConsent(ctx.database.db, consent.consentId)).toEqual([
      expect.objectContaining({
        refundId: paystackTry?.id,
        kind: 'reversal',
        channel: 'card',
        amount: 180_000,
        status: 'processed',
        expectedBy: addWorkingDays(owedBack!.updatedAt, CARD_REFUND_WORKING_DAYS),
      }),
    ]);
    // Asked again, it books nothing more.
    const later = await reconcileLater(CALLED_OFF_ASK_EVERY_MS + 1_000);
    expect(later.counts).not.toHaveProperty('paid_otherwise');
  });

  it("pays the payment with Paystack's money found later, and closes the Monnify try waiting on its OTP", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { amount: 190_000 });
    await failedOverWithoutWord(consent);
    const again = await payByCard(ctx.app, consent, MONNIFY_OTP_CARD);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ requiresOTP: true });

    const watched = await reconcileLater(CALLED_OFF_ASK_EVERY_MS + 1_000);
    expect(watched.counts).toMatchObject({ booked: 1 });
    const [paystackTry, monnifyTry] = await attemptsOf(consent.paymentId);
    expect(paystackTry).toMatchObject({ provider: 'paystack', status: 'completed' });
    expect(monnifyTry).toMatchObject({
      provider: 'monnify',
      status: 'failed',
      failureReason: 'paid_by_another_attempt',
    });
    expect((await readPayment(consent)).status).toBe('completed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
    const open = await ctx.database.db
      .select()
      .from(paymentAttempts)
      .where(
        and(
          eq(paymentAttempts.paymentId, consent.paymentId),
          eq(paymentAttempts.status, 'in_progress'),
        ),
      );
    expect(open).toEqual([]);
  });
});

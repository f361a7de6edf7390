// A card payment at Paystack asks the payer for the step Paystack's charge answer names, through
// the app's routes with PAYMENT_PROVIDER=paystack against the Paystack simulator: the card goes
// with its details alone, a 3-D Secure card goes to its challenge without a PIN ever asked, and a
// card whose issuer wants its PIN is asked for it then (send_pin), and goes on to its OTP. A PIN or
// an OTP whose answer is lost is never an error to the payer: the charge is asked about by its
// reference, and paid once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAttempts } from '../../db/schema';
import { eventStreams, latestEventId, readEventsAfter } from '../../events/event-log';
import { STILL_CHARGING_MESSAGE } from '../../services/payments/card-payments';
import { reconcileLostAttempts } from '../../services/payments/attempts/reconcile';
import { errorBody } from '../../../domain/errors';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import {
  consentWithPayment,
  encryptedCard,
  keepPageToken,
  ledgerKinds,
  pageQuery,
} from '../../testing/payments';
import { startTestApp, testClock } from '../../testing/test-app';

const PAYSTACK_KEY = 'sk_test_cardsteps0000000000000000000000000';
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

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

/** Paystack's test cards the simulator plays (docs/providers/paystack.md "Test cards"). */
const THREE_DS = '4084080000000409';
const PIN_THEN_OTP = { number: '5078501111111111', pin: '1111' };

const details = (number: string, pin?: string) =>
  encryptedCard(ctx.app, { number, expiry: '12/30', cvv: '408', ...(pin ? { pin } : {}) });

/** The card call of the page without sign-in: the card's details, and no PIN. */
async function chargeCard(consent: TConsent, number: string, saveCard = false) {
  const answer = await ctx.app.inject({
    method: 'POST',
    url: '/api/payments/card/public',
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      cardDetails: await details(number),
      saveCard,
    },
  });
  keepPageToken(consent.paymentId, answer);
  return answer;
}

/** The PIN the charge asked for, with its card, from the page that made the charge. */
const sendPin = async (consent: TConsent, chargeToken: string, number: string, pin: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/payments/card/pin',
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      chargeToken,
      cardDetails: await details(number, pin),
    },
  });

/** The OTP Paystack's test cards take, from the page that made the charge. */
const sendOtp = (consent: TConsent, chargeToken: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/payments/card/complete',
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      chargeToken,
      otp: '123456',
    },
  });

/** The body of the latest charge our server sent Paystack. */
const lastCharge = () =>
  paystack.requests.findLast((r) => r.method === 'POST' && r.path === '/charge')?.body as Record<
    string,
    unknown
  >;

async function statusOf(consent: TConsent) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
  });
  return read.json<{ status: string }>().status;
}

describe('a card at Paystack is asked for what its charge needs', () => {
  it('takes a 3-D Secure card to its challenge without ever asking for a PIN', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await chargeCard(consent, THREE_DS);
    expect(started.statusCode, started.body).toBe(200);
    const body = started.json<Record<string, unknown>>();
    expect(body).toMatchObject({ success: true, requires3DS: true });
    expect(body).not.toHaveProperty('requiresPIN');
    expect(lastCharge()).not.toHaveProperty('pin');
    expect(paystack.requests.some((r) => r.path === '/charge/submit_pin')).toBe(false);

    await paystack.answerThreeDs(lastCharge().reference as string, true);
    await paystack.idle();
    await expect.poll(() => statusOf(consent)).toBe('completed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it('keeps a 3-D Secure card its payer asked to save, by the authorization Paystack’s record names', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    expect((await chargeCard(consent, THREE_DS, true)).statusCode).toBe(200);
    await paystack.answerThreeDs(lastCharge().reference as string, true);
    await paystack.idle();
    await expect.poll(() => statusOf(consent)).toBe('completed');
    const [attempt] = await ctx.database.db
      .select({ cardToken: paymentAttempts.cardToken, last4: paymentAttempts.cardLast4 })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, consent.paymentId));
    // Kept for POST /api/payments/save-card: the reusable authorization of the paid charge.
    expect(attempt?.cardToken).toMatch(/^AUTH_/);
    expect(attempt?.last4).toBe(THREE_DS.slice(-4));
  });

  it('asks for the PIN once Paystack asks for it (send_pin), then the OTP, and pays', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await chargeCard(consent, PIN_THEN_OTP.number);
    expect(started.statusCode, started.body).toBe(200);
    const { chargeToken } = started.json<{ chargeToken: string }>();
    expect(started.json()).toMatchObject({ success: true, requiresPIN: true });
    expect(started.json()).not.toHaveProperty('requiresOTP');

    const pinned = await sendPin(consent, chargeToken, PIN_THEN_OTP.number, PIN_THEN_OTP.pin);
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json()).toMatchObject({ success: true, requiresOTP: true });
    const submitted = paystack.requests.filter((r) => r.path === '/charge/submit_pin');
    expect(submitted.at(-1)?.body).toMatchObject({ pin: PIN_THEN_OTP.pin });

    const done = await sendOtp(consent, chargeToken);
    expect(done.statusCode, done.body).toBe(200);
    expect(await statusOf(consent)).toBe('completed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it('fails the charge on a wrong PIN, in the catalogue’s words, and the payer may pay again', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await chargeCard(consent, PIN_THEN_OTP.number);
    const { chargeToken } = started.json<{ chargeToken: string }>();
    const wrong = await sendPin(consent, chargeToken, PIN_THEN_OTP.number, '9999');
    expect(wrong.statusCode).toBe(402);
    expect(wrong.json()).toEqual({
      success: false,
      error: { code: 'CARD_PAYMENT_FAILED', message: 'Card payment failed: Incorrect PIN' },
    });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    const again = await chargeCard(consent, PIN_THEN_OTP.number);
    expect(again.json()).toMatchObject({ requiresPIN: true });
  });

  it('takes a PIN only for the card charged, from the page that charged it', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await chargeCard(consent, PIN_THEN_OTP.number);
    const { chargeToken } = started.json<{ chargeToken: string }>();
    const anotherCard = await sendPin(consent, chargeToken, '5078501111111129', '1111');
    expect(anotherCard.json()).toEqual(errorBody('NO_PIN_CHARGE'));
    const anotherPage = await sendPin(consent, 'not-the-charge-token', PIN_THEN_OTP.number, '1111');
    expect(anotherPage.statusCode).toBeGreaterThanOrEqual(400);
    // Neither touched the charge: its own page's PIN still goes on.
    const pinned = await sendPin(consent, chargeToken, PIN_THEN_OTP.number, PIN_THEN_OTP.pin);
    expect(pinned.json()).toMatchObject({ requiresOTP: true });
  });
});

describe('a card step whose answer Paystack lost', () => {
  const attemptOf = async (consent: TConsent) => {
    const [attempt] = await ctx.database.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, consent.paymentId));
    if (!attempt) throw new Error('The charge has no attempt');
    return attempt;
  };
  /**
   * The payment paid and booked once, and Paystack's books agree: one charge, one PIN, one OTP,
   * taken for the payment's amount.
   */
  async function expectPaidOnce(consent: TConsent, lost: typeof paymentAttempts.$inferSelect) {
    expect(await statusOf(consent)).toBe('completed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
    expect(await atPaystack(lost)).toEqual({
      calls: ['POST /charge', 'POST /charge/submit_pin', 'POST /charge/submit_otp'],
      status: 'success',
      amount: lost.amount,
    });
  }
  /**
   * Paystack takes the step but its answer is lost, and the charge's read that would tell the
   * adapter at once gets no answer either: the step is unanswered until `paystackBack`.
   */
  const loseAnswerOf = (step: '/charge/submit_pin' | '/charge/submit_otp') => {
    paystack.loseNextAnswer(step);
    paystack.unavailable(/^\/charge\/(?!submit_)/);
  };
  const paystackBack = () => paystack.unavailable(null);
  /** The reconciler's run once the reconcile age has passed: it asks Paystack by reference. */
  const reconcileLater = () => {
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    return reconcileLostAttempts(ctx.context);
  };
  /** Paystack's own books for the charge: its calls by our reference, and what verify says. */
  async function atPaystack(attempt: { providerReference: string | null }) {
    const reference = attempt.providerReference;
    const calls = paystack.requests
      .filter((r) => (r.body as { reference?: unknown } | null)?.reference === reference)
      .map((r) => `${r.method} ${r.path}`);
    const verify = await fetch(`${paystack.url}/transaction/verify/${reference}`, {
      headers: { authorization: `Bearer ${PAYSTACK_KEY}` },
    });
    const { data } = (await verify.json()) as { data: { status: string; amount: number } };
    return { calls, status: data.status, amount: data.amount };
  }

  it('answers a lost PIN as charging, and the requery brings back its OTP step: paid once', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await chargeCard(consent, PIN_THEN_OTP.number);
    const { chargeToken } = started.json<{ chargeToken: string }>();
    loseAnswerOf('/charge/submit_pin');
    const pinned = await sendPin(consent, chargeToken, PIN_THEN_OTP.number, PIN_THEN_OTP.pin);
    paystackBack();
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json()).toMatchObject({
      success: true,
      status: 'charging',
      message: STILL_CHARGING_MESSAGE,
    });
    const lost = await attemptOf(consent);
    expect(lost.stage).toBe('unanswered');
    // A second PIN is not sent: the charge is asked about first.
    const again = await sendPin(consent, chargeToken, PIN_THEN_OTP.number, PIN_THEN_OTP.pin);
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect(again.statusCode).toBeLessThan(500);

    // Paystack had the PIN and now waits for the OTP: the payer is asked for it, and the page
    // that was answered 'charging' is told so on the payment's stream.
    const stream = eventStreams.payment(consent.paymentId);
    const before = await latestEventId(ctx.database.db, stream);
    await reconcileLater();
    expect(await attemptOf(consent)).toMatchObject({ stage: 'awaiting_otp' });
    const told = await readEventsAfter(ctx.database.db, stream, before);
    expect(told.map(({ type, data }) => ({ type, data }))).toMatchObject([
      {
        type: 'payment_status',
        data: { status: 'in_progress', attempt: { state: 'awaiting_otp' } },
      },
    ]);
    const done = await sendOtp(consent, chargeToken);
    expect(done.statusCode, done.body).toBe(200);
    await expectPaidOnce(consent, lost);
  });

  it('answers a lost OTP as charging, and books what Paystack took, once', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await chargeCard(consent, PIN_THEN_OTP.number);
    const { chargeToken } = started.json<{ chargeToken: string }>();
    await sendPin(consent, chargeToken, PIN_THEN_OTP.number, PIN_THEN_OTP.pin);
    loseAnswerOf('/charge/submit_otp');
    const lostOtp = await sendOtp(consent, chargeToken);
    paystackBack();
    expect(lostOtp.statusCode, lostOtp.body).toBe(200);
    const lost = await attemptOf(consent);
    expect(lostOtp.json()).toEqual({
      success: true,
      status: 'charging',
      message: STILL_CHARGING_MESSAGE,
      transactionReference: lost.id,
    });

    // Paystack's notice of the charge and the requery both may tell of it: booked once.
    await paystack.idle();
    await reconcileLater();
    await expectPaidOnce(consent, lost);
  });
});

// A server with a live Paystack key and TERMINAL_PROVIDER=paystack, on the Paystack simulator:
// the chip terminal is Paystack Terminal's push payment requests (docs/providers/
// paystack-terminal.md). A payment at a merchant's terminal is approved through the notice,
// declined at the terminal, settled by the requery when its notice never came, and refused
// while the terminal is offline; the books balance against Paystack's record after each.
import { eq, sql } from 'drizzle-orm';
import { CALLED_OFF_REASON } from '../../../domain/payment-attempts';
import { rowsOf } from '../../db/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardAudit, merchantTerminals, paymentAttempts, payments } from '../../db/schema';
import { dashboardCall, staffMember, type TStaff } from '../../testing/dashboard';
import { PUSHED_TERMINAL_EXPIRY_MS } from '../../../domain/pushed-terminal';
import {
  CALLED_OFF_ASK_EVERY_MS,
  reconcileLostAttempts,
  reconcileOwedRefunds,
} from '../../services/payments/attempts/reconcile';
import { checkLedger, ledgerProblems } from '../../services/payments/ledger';
import { recordRefundGivenBack } from '../../services/payments/attempts/settlements';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import {
  consentWithPayment,
  expectQueuedRefund,
  ledgerKinds,
  paymentEvents,
} from '../../testing/payments';
import { startTestApp, testClock } from '../../testing/test-app';
import { DEFAULT_RATE_LIMITS } from '../../rate-limits';
import { ProviderNoAnswer } from '../provider-call';
import { paymentRequestOutcome } from './terminal';
import { usable } from '../off';

const LIVE_KEY = 'sk_live_terminal000000000000000000000000';
const OPERATOR_TOKEN = 'terminal-operator-token-0123456789abcdefgh';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const clock = testClock(new Date());

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let paystack: TPaystackSimulator;
beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: LIVE_KEY, clock: () => clock.now() });
  ctx = await startTestApp({
    clock,
    // The real limit on a payment's pushes; the others relaxed.
    rateLimits: { terminalPushesPerPayment: DEFAULT_RATE_LIMITS.terminalPushesPerPayment },
    operatorToken: OPERATOR_TOKEN,
    webhookDelivery: 'manual',
    env: {
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: LIVE_KEY,
      PAYSTACK_BASE_URL: paystack.url,
      TERMINAL_PROVIDER: 'paystack',
    },
  });
  const listening = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
});
afterAll(async () => {
  await ctx.close();
  await paystack.close();
});

/**
 * A consent's immediate payment (each of a merchant of its own), and the merchant's terminal
 * registered for it: a terminal belongs to one merchant.
 */
async function payableAtTerminal(terminalId: string) {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  const id = `trm_${consent.paymentId}`;
  await ctx.database.db.insert(merchantTerminals).values({
    id,
    merchantId: consent.client.merchantId,
    provider: 'paystack-terminal',
    terminalId,
    name: 'Till 1',
  });
  return { ...consent, terminalId: id };
}

const push = (body: { paymentId: string; consentId: string; terminalId: string }) =>
  ctx.app.inject({ method: 'POST', url: '/api/card-terminal/paystack/push', payload: body });

/** The archive calls Paystack was sent. */
const archiveCalls = () =>
  paystack.requests.filter(
    (r) => r.method === 'POST' && r.path.startsWith('/paymentrequest/archive/'),
  );

const paymentOf = async (paymentId: string) => {
  const [payment] = await ctx.database.db
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.id, paymentId));
  const attempts = await ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));
  return { status: payment?.status, attempts };
};

/**
 * A payment pushed to a new terminal and called off, its archive unanswered by Paystack: the
 * payer is free, and the request is still on the terminal.
 */
async function calledOffUnwithdrawn(TERMINAL: string) {
  paystack.addTerminal(TERMINAL, { online: true });
  const consent = await payableAtTerminal(TERMINAL);
  expect((await push(consent)).statusCode).toBe(200);
  paystack.failNext('/paymentrequest/archive/', 500);
  clock.advance(PUSHED_TERMINAL_EXPIRY_MS + 1_000);
  await reconcileLostAttempts(ctx.context);
  expect((await paymentOf(consent.paymentId)).attempts).toMatchObject([
    { status: 'failed', failureCode: 'TERMINAL_TIMEOUT' },
  ]);
  expect(paystack.terminalShowing(TERMINAL)).not.toBeNull();
  return consent;
}

describe('Paystack Terminal beside a live key', () => {
  it('lists the terminal on readiness as Paystack Terminal’s, and offers it to the page', async () => {
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    const { capabilities } = ready.json<{
      capabilities: { capability: string; state: string; adapter: string | null }[];
    }>();
    expect(capabilities.find((c) => c.capability === 'acquirer')).toMatchObject({
      state: 'on',
      adapter: 'paystack-terminal',
    });
    const config = await ctx.app.inject({ method: 'GET', url: '/api/public-config' });
    expect(config.json()).toMatchObject({ capabilities: { acquirer: true }, terminal: 'push' });
  });

  it('lists the payment’s merchant’s terminals to its payer, never another merchant’s', async () => {
    const { paymentId, consentId, terminalId, client } = await payableAtTerminal('LIST0001');
    await ctx.database.db.insert(merchantTerminals).values({
      id: `trm_2_${paymentId}`,
      merchantId: client.merchantId,
      provider: 'paystack-terminal',
      terminalId: 'LIST0002',
      name: 'Front desk',
    });
    const other = await payableAtTerminal('LIST0003');
    const list = (query: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/card-terminal/paystack/terminals?${query}` });

    const mine = await list(`paymentId=${paymentId}&consentId=${consentId}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({
      success: true,
      terminals: [
        { id: `trm_2_${paymentId}`, name: 'Front desk' },
        { id: terminalId, name: 'Till 1' },
      ],
    });
    // Another consent's link reads nothing of this payment; no link at all asks for sign-in.
    const stranger = await list(`paymentId=${paymentId}&consentId=${other.consentId}`);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ error: { code: 'NO_IMMEDIATE_PAYMENT' } });
    const anonymous = await list(`paymentId=${paymentId}`);
    expect(anonymous.json()).toMatchObject({ error: { code: 'SIGN_IN_REQUIRED' } });
  });

  it('waits for the terminal, then completes the payment once on Paystack’s notice', async () => {
    const TERMINAL = 'Z0R4orOU';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    const pushed = await push({ paymentId, consentId, terminalId });
    expect(pushed.statusCode).toBe(200);
    expect(pushed.json()).toMatchObject({
      success: true,
      status: 'waiting_for_terminal',
      paymentId,
      terminalName: 'Till 1',
    });
    const waiting = await paymentOf(paymentId);
    expect(waiting.attempts).toMatchObject([
      {
        method: 'chip_card',
        provider: 'paystack-terminal',
        status: 'in_progress',
        stage: 'charging',
      },
    ]);
    const requestCode = paystack.terminalShowing(TERMINAL);
    expect(requestCode).toBe(waiting.attempts[0]?.providerReference);

    // A second push while the first waits charges nothing twice.
    const again = await push({ paymentId, consentId, terminalId });
    expect(again.json()).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });

    await paystack.cardAtTerminal(TERMINAL, 'approved');
    await paystack.idle();
    const paid = await paymentOf(paymentId);
    expect(paid.status).toBe('executed');
    expect(paid.attempts).toMatchObject([{ status: 'completed' }]);
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['chip_card_payment']);
    expect((await paymentEvents(ctx.database, paymentId)).map((e) => e.status)).toEqual([
      'in_progress',
      'completed',
    ]);
    expect(paystack.paymentRequestCount()).toBe(1);
  });

  it('refunds a payment paid at the terminal from the transaction its request produced', async () => {
    const TERMINAL = 'REFUND01';
    paystack.addTerminal(TERMINAL, { online: true });
    const consent = await payableAtTerminal(TERMINAL);
    const { paymentId, consentId, terminalId } = consent;
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    await paystack.cardAtTerminal(TERMINAL, 'approved');
    await paystack.idle();
    const [paid] = (await paymentOf(paymentId)).attempts;
    // The card's transaction (Paystack's reference), beside the request's code.
    expect(paid?.providerReference).toMatch(/^PRQ_/);
    expect(paid?.chargeReference).toMatch(/^T/);

    const refund = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${paymentId}/refunds`,
      headers: { authorization: consent.client.authorization, 'idempotency-key': 'terminal-rf-1' },
      payload: { amount: 100_000, reason: 'Returned item' },
    });
    expectQueuedRefund(refund, 'processed');
    // Processed by Paystack's notice, which names the card's transaction.
    const refunds = async () =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/v1/payments/${paymentId}`,
          headers: { authorization: consent.client.authorization },
        })
      ).json<{ payment: { refunds: unknown[] } }>().payment.refunds;
    await expect.poll(refunds).toMatchObject([{ amount: 100_000, status: 'processed' }]);
    const refunded = paystack.requests.find((r) => r.method === 'POST' && r.path === '/refund');
    expect(refunded?.body).toMatchObject({ transaction: paid?.chargeReference, amount: 100_000 });
  });

  it('fails the payment as declined when the card is refused at the terminal', async () => {
    const TERMINAL = 'DECLINE1';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    await paystack.cardAtTerminal(TERMINAL, 'declined');
    // Paystack sends no notice of a decline: the reconciler's requery finds it.
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    await reconcileLostAttempts(ctx.context);
    const declined = await paymentOf(paymentId);
    expect(declined.status).toBe('pending');
    expect(declined.attempts).toMatchObject([
      { status: 'failed', failureCode: 'TERMINAL_DECLINED' },
    ]);
    expect((await paymentEvents(ctx.database, paymentId)).at(-1)).toMatchObject({
      status: 'failed',
      message: 'Transaction declined by card or issuer',
    });
  });

  it('completes a payment whose notice never came, by asking Paystack about its request', async () => {
    const TERMINAL = 'SILENT01';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    // Still waiting at the terminal: the requery leaves it.
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    await reconcileLostAttempts(ctx.context);
    expect((await paymentOf(paymentId)).status).toBe('pending');

    await paystack.cardAtTerminal(TERMINAL, 'approved', { withNotices: false });
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    await reconcileLostAttempts(ctx.context);
    const paid = await paymentOf(paymentId);
    expect(paid.status).toBe('executed');
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['chip_card_payment']);
  });

  it('completes on Paystack’s notice a payment whose push answer was lost', async () => {
    const TERMINAL = 'LOSTANS1';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    // The request is made and shown on the terminal; its answer never reaches us.
    paystack.loseNextAnswer(`/terminal/${TERMINAL}/event`);
    const pushed = await push({ paymentId, consentId, terminalId });
    expect(pushed.json()).toMatchObject({ status: 'waiting_for_terminal' });
    expect((await paymentOf(paymentId)).attempts).toMatchObject([
      { stage: 'charging', providerReference: null },
    ]);

    const requestCode = paystack.terminalShowing(TERMINAL);
    expect(requestCode).not.toBeNull();
    await paystack.cardAtTerminal(TERMINAL, 'approved');
    await paystack.idle();
    const paid = await paymentOf(paymentId);
    expect(paid.status).toBe('executed');
    expect(paid.attempts).toMatchObject([{ status: 'completed', providerReference: requestCode }]);
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['chip_card_payment']);
  });

  it('calls off a request nobody paid at the terminal in time, so the payment can be paid again', async () => {
    const TERMINAL = 'EXPIRE01';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    // Asked about before its time: still waiting, left charging.
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    await reconcileLostAttempts(ctx.context);
    expect((await paymentOf(paymentId)).attempts).toMatchObject([{ stage: 'charging' }]);
    const archivedBefore = archiveCalls().length;

    clock.advance(PUSHED_TERMINAL_EXPIRY_MS);
    await reconcileLostAttempts(ctx.context);
    const calledOff = await paymentOf(paymentId);
    expect(calledOff.status).toBe('pending');
    expect(calledOff.attempts).toMatchObject([
      { status: 'failed', failureCode: 'TERMINAL_TIMEOUT' },
    ]);
    // Withdrawn at Paystack: its request archived.
    expect(archiveCalls().length).toBe(archivedBefore + 1);
    expect((await paymentEvents(ctx.database, paymentId)).at(-1)).toMatchObject({
      status: 'failed',
      message: 'Transaction timed out',
    });

    // Free again: sent anew, and paid.
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    await paystack.cardAtTerminal(TERMINAL, 'approved');
    await paystack.idle();
    expect((await paymentOf(paymentId)).status).toBe('executed');
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['chip_card_payment']);
  });

  it('never calls off a request paid while it is withdrawn whose transaction is not listed yet', async () => {
    const TERMINAL = 'EXPIRE06';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    const acquirer = usable(ctx.context.providers.payments.acquirer);
    if (acquirer.kind !== 'push') throw new Error('Paystack Terminal pushes');
    const withdraw = acquirer.withdrawPaymentRequest.bind(acquirer);
    // The card is taken between the requery and the withdrawal, and Paystack's record of the
    // paid request lists no transaction yet: what it took cannot be read now.
    acquirer.withdrawPaymentRequest = async (asked) => {
      await paystack.cardAtTerminal(TERMINAL, 'approved', { withNotices: false });
      return paymentRequestOutcome({
        id: 1,
        request_code: asked.providerReference ?? '',
        offline_reference: '',
        amount: 1,
        currency: 'NGN',
        status: 'success',
        transactions: [],
      });
    };
    try {
      clock.advance(PUSHED_TERMINAL_EXPIRY_MS + 1_000);
      expect((await reconcileLostAttempts(ctx.context)).errors).toHaveLength(1);
    } finally {
      acquirer.withdrawPaymentRequest = withdraw;
    }
    // Not called off: still charging, and asked about again, it is booked.
    expect((await paymentOf(paymentId)).attempts).toMatchObject([
      { stage: 'charging', failureCode: null },
    ]);
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    await reconcileLostAttempts(ctx.context);
    expect((await paymentOf(paymentId)).status).toBe('executed');
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['chip_card_payment']);
  });

  it('reads a paid request as not answered yet until its transaction’s reference is listed', () => {
    const paid = {
      id: 1,
      request_code: 'PRQ_paid',
      offline_reference: '1',
      amount: 1,
      currency: 'NGN',
      status: 'success',
    };
    // Its id alone is no reference a give-back can be verified by.
    expect(() => paymentRequestOutcome({ ...paid, transactions: [{ id: 7 }] })).toThrow(
      ProviderNoAnswer,
    );
    expect(
      paymentRequestOutcome({ ...paid, transactions: [{ id: 7, reference: 'T7' }] }),
    ).toMatchObject({ kind: 'taken', transaction: 'T7' });
  });

  it('frees the terminal once a push is called off, withdrawing it again where Paystack did not', async () => {
    const TERMINAL = 'FREED001';
    // Called off; Paystack does not answer its archive: the request stays on the terminal, busy.
    const { paymentId, consentId, terminalId } = await calledOffUnwithdrawn(TERMINAL);
    const busy = await push({ paymentId, consentId, terminalId });
    expect(busy.json()).toMatchObject({ error: { code: 'TERMINAL_BUSY' } });

    // The called-off watch withdraws it at its next ask: the terminal is free.
    clock.advance(CALLED_OFF_ASK_EVERY_MS + 1_000);
    const run = await reconcileLostAttempts(ctx.context);
    expect(run.errors).toEqual([]);
    expect(paystack.terminalShowing(TERMINAL)).toBeNull();
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    await paystack.cardAtTerminal(TERMINAL, 'approved');
    await paystack.idle();
    expect((await paymentOf(paymentId)).status).toBe('executed');
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['chip_card_payment']);
  });

  it('completes a payment whose called-off request is paid at the terminal after all', async () => {
    const TERMINAL = 'EXPIRE02';
    // Paystack does not answer the archive: called off all the same, the payer is free.
    const { paymentId } = await calledOffUnwithdrawn(TERMINAL);

    // Not withdrawn, the request is still on the terminal: the payer taps the card on it.
    await paystack.cardAtTerminal(TERMINAL, 'approved');
    await paystack.idle();
    const paid = await paymentOf(paymentId);
    expect(paid.status).toBe('executed');
    expect(paid.attempts).toMatchObject([
      { status: 'completed', failureCode: null, failureReason: null, refund: null },
    ]);
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['chip_card_payment']);
    expect((await paymentEvents(ctx.database, paymentId)).map((e) => e.status)).toEqual([
      'in_progress',
      'failed',
      'completed',
    ]);
  });

  it('books a called-off request paid after all whose notice never came, by asking again', async () => {
    const TERMINAL = 'EXPIRE03';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    paystack.failNext('/paymentrequest/archive/', 500);
    clock.advance(PUSHED_TERMINAL_EXPIRY_MS + 1_000);
    await reconcileLostAttempts(ctx.context);
    await paystack.cardAtTerminal(TERMINAL, 'approved', { withNotices: false });

    // Asked about again only once CALLED_OFF_ASK_EVERY_MS passed since the call-off.
    clock.advance(CALLED_OFF_ASK_EVERY_MS - 60_000);
    await reconcileLostAttempts(ctx.context);
    expect((await paymentOf(paymentId)).status).toBe('pending');
    clock.advance(60_000 + 1_000);
    const run = await reconcileLostAttempts(ctx.context);
    expect(run.errors).toEqual([]);
    expect((await paymentOf(paymentId)).status).toBe('executed');
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['chip_card_payment']);
  });

  it('gives back by a refund of its transaction what a called-off request took on a payment paid otherwise', async () => {
    const [FIRST, SECOND] = ['EXPIRE04', 'EXPIRE05'];
    paystack.addTerminal(FIRST, { online: true });
    paystack.addTerminal(SECOND, { online: true });
    const consent = await payableAtTerminal(FIRST);
    const { paymentId, consentId } = consent;
    expect((await push({ paymentId, consentId, terminalId: consent.terminalId })).statusCode).toBe(
      200,
    );
    paystack.failNext('/paymentrequest/archive/', 500);
    clock.advance(PUSHED_TERMINAL_EXPIRY_MS + 1_000);
    await reconcileLostAttempts(ctx.context);
    // Paid at the merchant's other terminal; then a card is tapped on the first one's request,
    // which Paystack did not withdraw.
    const second = `trm_${paymentId}_2`;
    await ctx.database.db.insert(merchantTerminals).values({
      id: second,
      merchantId: consent.client.merchantId,
      provider: 'paystack-terminal',
      terminalId: SECOND,
      name: 'Till 2',
    });
    expect((await push({ paymentId, consentId, terminalId: second })).statusCode).toBe(200);
    await paystack.cardAtTerminal(SECOND, 'approved');
    await paystack.idle();
    await paystack.cardAtTerminal(FIRST, 'approved');
    await paystack.idle();

    const paid = await paymentOf(paymentId);
    expect(paid.status).toBe('executed');
    const late = paid.attempts.find((a) => a.refund !== null);
    // Given back at once by Paystack's Refund API on the card's transaction, never left by hand.
    expect(late).toMatchObject({ refund: 'settled', chargeReference: expect.stringMatching(/^T/) });
    const givenBack = paystack.requests.filter((r) => r.method === 'POST' && r.path === '/refund');
    expect(givenBack.at(-1)?.body).toMatchObject({
      transaction: late?.chargeReference,
      amount: late?.amount,
    });
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual([
      'chip_card_payment',
      'chip_card_payment',
      'card_refund',
    ]);
    const scrape = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/metrics', headers: operator })).body;
    expect(await scrape()).toContain('oya_owed_back_kobo{refund="by_hand"} 0');
    const problems = await checkLedger(ctx.database.db, {
      provider: ctx.context.providers.payments.settlement,
    });
    expect(ledgerProblems(problems)).toEqual([]);
  });

  it('leaves to the operator money owed by hand before transactions were kept, and records their refund', async () => {
    // A row left by hand before a pushed terminal's transaction was kept (written so here): the
    // reconciler does not ask about it, and the operator's refund is recorded once.
    const TERMINAL = 'BYHAND01';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
    await paystack.cardAtTerminal(TERMINAL, 'approved');
    await paystack.idle();
    const [attempt] = (await paymentOf(paymentId)).attempts;
    const attemptId = attempt?.id ?? '';
    await ctx.database.db
      .update(paymentAttempts)
      .set({ refund: 'by_hand', chargeReference: null })
      .where(eq(paymentAttempts.id, attemptId));
    const asked = paystack.requests.length;
    clock.advance(ctx.config.reconcileAfterMs + 1_000);
    expect(await reconcileOwedRefunds(ctx.context)).toEqual({
      counts: {},
      errors: [],
      unrouted: 0,
    });
    expect(paystack.requests.length).toBe(asked);

    expect(await recordRefundGivenBack(ctx.context, attemptId, 'rfnd_op_1')).toBe(true);
    expect(await recordRefundGivenBack(ctx.context, attemptId, 'rfnd_op_2')).toBe(false);
    expect((await paymentOf(paymentId)).attempts).toMatchObject([
      { refund: 'settled', refundReference: 'rfnd_op_1' },
    ]);
    // Put back as the payment stands (paid, nothing given back), for the books' check.
    await ctx.database.db
      .update(paymentAttempts)
      .set({ refund: null, refundReference: null })
      .where(eq(paymentAttempts.id, attemptId));
  });

  it('finds called-off requests by an index on the reason the call-off writes', async () => {
    const [index] = rowsOf<{ indexdef: string }>(
      await ctx.database.db.execute(
        sql`select indexdef from pg_indexes where indexname = 'payment_attempts_called_off'`,
      ),
    );
    expect(index?.indexdef).toContain(`'${CALLED_OFF_REASON}'`);
  });

  it('limits how often one payment is pushed, by its link, never another payment or its link', async () => {
    const TERMINAL = 'LIMITED1';
    paystack.addTerminal(TERMINAL, { online: true, available: false });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    const { max } = DEFAULT_RATE_LIMITS.terminalPushesPerPayment;
    // A stranger naming the payment without its link is refused, and spends none of its pushes.
    const stranger = await payableAtTerminal('LIMITED2');
    const foreign = await push({ paymentId, consentId: stranger.consentId, terminalId });
    expect(foreign.statusCode).toBe(404);
    for (let tried = 0; tried < max; tried += 1) {
      const busy = await push({ paymentId, consentId, terminalId });
      expect(busy.json()).toMatchObject({ error: { code: 'TERMINAL_BUSY' } });
    }
    const limited = await push({ paymentId, consentId, terminalId });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(limited.headers['retry-after']).toBeDefined();
    // Another payment of its own link is not held back.
    const other = await push({ ...stranger });
    expect(other.statusCode).not.toBe(429);
  });

  it('fails at once a push the terminal could not be sent, and frees the payment', async () => {
    const TERMINAL = 'REFUSED1';
    paystack.addTerminal(TERMINAL, { online: true });
    const { paymentId, consentId, terminalId } = await payableAtTerminal(TERMINAL);
    paystack.failNext(`/terminal/${TERMINAL}/event`, 400);
    const refused = await push({ paymentId, consentId, terminalId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'TERMINAL_OFFLINE' } });
    expect((await paymentOf(paymentId)).attempts).toMatchObject([
      { status: 'failed', failureCode: 'TERMINAL_OFFLINE' },
    ]);
    expect((await push({ paymentId, consentId, terminalId })).statusCode).toBe(200);
  });

  it('refuses a terminal that is offline, a busy one, and one of another merchant, recording nothing', async () => {
    const { paymentId, consentId, terminalId } = await payableAtTerminal('OFFLINE1');
    paystack.addTerminal('OFFLINE1', { online: false });
    const offline = await push({ paymentId, consentId, terminalId });
    expect(offline.statusCode).toBe(409);
    expect(offline.json()).toEqual({
      success: false,
      error: {
        code: 'TERMINAL_OFFLINE',
        message:
          'The terminal is offline. Check that it is on and connected, or choose another way to pay.',
      },
    });
    paystack.setTerminalPresence('OFFLINE1', { online: true, available: false });
    const busy = await push({ paymentId, consentId, terminalId });
    expect(busy.json()).toMatchObject({ error: { code: 'TERMINAL_BUSY' } });

    const other = await payableAtTerminal('ELSEWHERE');
    const stranger = await push({ paymentId, consentId, terminalId: other.terminalId });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ error: { code: 'TERMINAL_NOT_REGISTERED' } });
    expect((await paymentOf(paymentId)).attempts).toEqual([]);
  });
});

// The dashboard's terminals, on a server with a test key (its staff sign in by a code the
// sandbox's SMS outbox holds; beside a live key SMS is off) and TERMINAL_PROVIDER=paystack.
describe('The dashboard’s terminals', () => {
  const TEST_KEY = 'sk_test_terminal000000000000000000000000';
  let dash: Awaited<ReturnType<typeof startTestApp>>;
  let paystackTest: TPaystackSimulator;
  beforeAll(async () => {
    paystackTest = await startPaystackSimulator({ secretKey: TEST_KEY, clock: () => clock.now() });
    dash = await startTestApp({
      clock,
      webhookDelivery: 'manual',
      env: {
        PAYMENT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: TEST_KEY,
        PAYSTACK_BASE_URL: paystackTest.url,
        TERMINAL_PROVIDER: 'paystack',
      },
    });
  });
  afterAll(async () => {
    await dash.close();
    await paystackTest.close();
  });

  const terminalsCall = (
    staff: TStaff | null,
    options: { method: 'GET' | 'POST' | 'DELETE'; url?: string; payload?: object; key?: string },
  ) =>
    dashboardCall(dash, staff, {
      method: options.method,
      url: options.url ?? '/api/dashboard/terminals',
      ...(options.payload ? { payload: options.payload } : {}),
      ...(options.key ? { headers: { 'idempotency-key': options.key } } : {}),
    });

  it('lets an owner register, list and remove the merchant’s terminals, each once, audited', async () => {
    paystackTest.addTerminal('DASH0001', { online: true });
    const { client } = await consentWithPayment(dash.app, dash.database);
    const owner = await staffMember(
      dash,
      { merchantId: client.merchantId, role: 'owner' },
      clock.now(),
    );
    const add = { terminalId: 'DASH0001', name: 'Till 3' };

    const added = await terminalsCall(owner, { method: 'POST', payload: add, key: 'add-1' });
    expect(added.statusCode, added.body).toBe(200);
    const terminal = added.json<{ terminal: { id: string } }>().terminal;
    expect(added.json()).toMatchObject({ terminal: { terminalId: 'DASH0001', name: 'Till 3' } });
    // The same again, by its key or without one: the terminal already there, nothing more.
    const again = await terminalsCall(owner, { method: 'POST', payload: add, key: 'add-1' });
    expect(again.json()).toEqual(added.json());
    const anew = await terminalsCall(owner, { method: 'POST', payload: add, key: 'add-2' });
    expect(anew.json()).toMatchObject({ terminal: { id: terminal.id } });
    const listed = await terminalsCall(owner, { method: 'GET' });
    expect(listed.json()).toMatchObject({
      pushed: true,
      terminals: [{ id: terminal.id, terminalId: 'DASH0001', name: 'Till 3' }],
    });

    // An id Paystack does not know is refused; one of another merchant's too.
    const unknown = await terminalsCall(owner, {
      method: 'POST',
      payload: { terminalId: 'NOSUCH01', name: 'Till 4' },
    });
    expect(unknown.json()).toMatchObject({ error: { code: 'TERMINAL_UNKNOWN' } });
    const elsewhere = await consentWithPayment(dash.app, dash.database);
    const otherOwner = await staffMember(
      dash,
      { merchantId: elsewhere.client.merchantId, role: 'owner' },
      clock.now(),
    );
    const taken = await terminalsCall(otherOwner, { method: 'POST', payload: add });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: { code: 'TERMINAL_TAKEN' } });
    const notTheirs = await terminalsCall(otherOwner, {
      method: 'DELETE',
      url: `/api/dashboard/terminals/${terminal.id}`,
    });
    expect(notTheirs.json()).toMatchObject({ error: { code: 'TERMINAL_NOT_REGISTERED' } });

    const removed = await terminalsCall(owner, {
      method: 'DELETE',
      url: `/api/dashboard/terminals/${terminal.id}`,
      key: 'remove-1',
    });
    expect(removed.json()).toEqual({ success: true });
    expect((await terminalsCall(owner, { method: 'GET' })).json()).toMatchObject({ terminals: [] });
    const audit = await dash.database.db
      .select({ action: dashboardAudit.action, target: dashboardAudit.target })
      .from(dashboardAudit)
      .where(eq(dashboardAudit.merchantId, client.merchantId));
    expect(audit.filter((row) => row.action.startsWith('terminal.'))).toEqual([
      { action: 'terminal.added', target: terminal.id },
      { action: 'terminal.removed', target: terminal.id },
    ]);
  });

  it('refuses every other role, and anyone not signed in', async () => {
    const { client } = await consentWithPayment(dash.app, dash.database);
    for (const role of ['developer', 'support', 'viewer'] as const) {
      const member = await staffMember(dash, { merchantId: client.merchantId, role }, clock.now());
      for (const method of ['GET', 'POST'] as const) {
        const refused = await terminalsCall(member, {
          method,
          ...(method === 'POST' ? { payload: { terminalId: 'DASH0002', name: 'Till' } } : {}),
        });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ error: { code: 'DASHBOARD_ROLE_FORBIDDEN' } });
      }
    }
    const anonymous = await terminalsCall(null, { method: 'GET' });
    expect(anonymous.json()).toMatchObject({ error: { code: 'DASHBOARD_SIGN_IN_REQUIRED' } });
  });
});

// A merchant's refunds at Paystack, through the app's routes with PAYMENT_PROVIDER=paystack
// against the Paystack simulator, which tells of a refund as Paystack's docs show: its notice
// names the refunded transaction and the amount, never the refund's id. Each refund is ended by
// Paystack's own notice, never left for the reconciler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const PAYSTACK_KEY = 'sk_test_refunds000000000000000000000000000';
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

/** The consent's payment paid by a Paystack test card that asks for no step. */
async function paidByCard(): Promise<TConsent> {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  const paid = await ctx.app.inject({
    method: 'POST',
    url: '/api/payments/card/public',
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      cardDetails: await encryptedCard(ctx.app, {
        number: '4084084084084081',
        expiry: '12/30',
        cvv: '408',
        pin: '1234',
      }),
      saveCard: false,
    },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  keepPageToken(consent.paymentId, paid);
  return consent;
}

let keys = 0;
const refund = (consent: TConsent, payload: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/payments/${consent.paymentId}/refunds`,
    headers: { authorization: consent.client.authorization, 'idempotency-key': `rf-${++keys}` },
    payload,
  });

async function refundsOf(consent: TConsent) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/payments/${consent.paymentId}`,
    headers: { authorization: consent.client.authorization },
  });
  return read.json<{
    payment: { refunded: number; refunds: Array<{ amount: number; status: string }> };
  }>().payment;
}

/** The refund notices the simulator sent since `before`, as their bodies' `data`. */
const refundNotices = (event: string, before: number) =>
  paystack.notices
    .slice(before)
    .filter((sent) => sent.event === event)
    .map((sent) => (JSON.parse(sent.body) as { data: Record<string, unknown> }).data);

describe('Paystack refunds, ended by the notices Paystack sends', () => {
  it('processes two refunds of the same amount of one payment by their notices, which name the transaction and not the refund', async () => {
    const consent = await paidByCard();
    const before = paystack.notices.length;
    const first = await refund(consent, { amount: 50_000, reason: 'One item missing' });
    const second = await refund(consent, { amount: 50_000, reason: 'Another item missing' });
    // Paystack queues a refund: the answer is pending, and the notices follow.
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    await paystack.idle();

    const told = refundNotices('refund.processed', before);
    expect(told).toHaveLength(2);
    for (const data of told) {
      expect(data).toMatchObject({ transaction_reference: expect.any(String), amount: '50000' });
      expect(data).not.toHaveProperty('id');
    }
    // No reconciler ran: the notices alone ended both.
    expect(await refundsOf(consent)).toMatchObject({
      refunded: 100_000,
      refunds: [
        { amount: 50_000, status: 'processed' },
        { amount: 50_000, status: 'processed' },
      ],
    });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'card_payment',
      'merchant_refund',
      'merchant_refund',
    ]);
  });

  it('fails a refund Paystack refused by its refund.failed notice, and what it held may be refunded again', async () => {
    const consent = await paidByCard();
    paystack.failNextRefund();
    const refused = await refund(consent, { amount: 250_000, reason: 'Order cancelled' });
    expect(refused.statusCode).toBe(202);
    await paystack.idle();
    expect(await refundsOf(consent)).toMatchObject({
      refunded: 0,
      refunds: [{ amount: 250_000, status: 'failed' }],
    });
    const again = await refund(consent, { reason: 'Order cancelled' });
    expect(again.json()).toMatchObject({ refund: { amount: 250_000 } });
    await paystack.idle();
    const after = await refundsOf(consent);
    expect(after.refunded).toBe(250_000);
    expect(after.refunds.map((r) => r.status).sort()).toEqual(['failed', 'processed']);
  });
});

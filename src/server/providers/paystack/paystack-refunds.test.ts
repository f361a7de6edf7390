// A merchant's refunds at Paystack, through the app's routes with PAYMENT_PROVIDER=paystack
// against the Paystack simulator, which tells of a refund as Paystack's docs show: its notice
// names the refunded transaction and the amount, never the refund's id. Each refund is ended by
// Paystack's own notice, never left for the reconciler. A transfer, whose sender Paystack masks,
// is paid back to the account the payer gave the merchant when Paystack cannot do it alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import {
  consentWithPayment,
  encryptedCard,
  expectQueuedRefund,
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

/** The consent's payment paid into its one-time account, from an account Paystack masks. */
async function paidByTransfer(): Promise<TConsent> {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  const opened = await ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
  });
  expect(opened.statusCode, opened.body).toBe(200);
  keepPageToken(consent.paymentId, opened);
  const { accountNumber, amount } = opened.json<{
    transferDetails: { accountNumber: string; amount: number };
  }>().transferDetails;
  await paystack.payTransfer(accountNumber, amount);
  await paystack.idle();
  expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['transfer_payment']);
  return consent;
}

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
    expectQueuedRefund(first, 'processed');
    expectQueuedRefund(second, 'processed');
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
    expectQueuedRefund(refused, 'failed');
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

describe('Paystack refunds of a transfer, whose sender Paystack masks', () => {
  const GTB = { institutionCode: '058', accountNumber: '0123456789' };

  it('asks the merchant for the payer’s account, and Paystack is told it when it cannot pay back alone', async () => {
    const consent = await paidByTransfer();
    // Paystack names the sender XXXXXXX…: nowhere to pay it back, and the merchant is told what to do.
    const asked = await refund(consent, { reason: 'Order cancelled' });
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toEqual({
      success: false,
      error: {
        code: 'REFUND_SENDER_UNKNOWN',
        message:
          'The transfer named no sending account: ask the payer for their account and refund to it',
      },
    });
    const unknown = await refund(consent, {
      refundTo: { institutionCode: '058', accountNumber: '9999999999' },
    });
    expect(unknown.json()).toMatchObject({ error: { code: 'ACCOUNT_NOT_FOUND_AT_BANK' } });

    paystack.nextRefundNeedsAttention();
    const given = await refund(consent, { reason: 'Order cancelled', refundTo: GTB });
    expectQueuedRefund(given, 'processed');
    await paystack.idle();

    // Paystack's refund.needs-attention: it is retried with the account, and then processed.
    const retried = paystack.requests.filter((r) =>
      r.path.startsWith('/refund/retry_with_customer_details/'),
    );
    expect(retried).toHaveLength(1);
    const banks = await fetch(`${paystack.url}/bank?country=nigeria&perPage=100`, {
      headers: { authorization: `Bearer ${PAYSTACK_KEY}` },
    });
    const gtb = (await banks.json()).data.find((b: { code: string }) => b.code === '058');
    expect(retried[0]?.body).toEqual({
      refund_account_details: {
        currency: 'NGN',
        account_number: '0123456789',
        bank_id: String(gtb.id),
      },
    });
    expect(await refundsOf(consent)).toMatchObject({
      refunded: 250_000,
      refunds: [{ amount: 250_000, status: 'processed' }],
    });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'transfer_payment',
      'merchant_refund',
    ]);
  });

  it('takes no account for a card payment, which goes back to the card', async () => {
    const consent = await paidByCard();
    const answer = await refund(consent, { refundTo: GTB });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: { code: 'REFUND_ACCOUNT_NOT_TAKEN' } });
  });
});

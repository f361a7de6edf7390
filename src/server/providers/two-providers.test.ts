// Two providers side by side: PAYMENT_PROVIDER=paystack, TRANSFER_PROVIDERS=monnify,paystack and
// CARD_PROVIDERS=paystack,monnify, each provider's simulator running and sending its signed
// notices to its own POST /api/providers/{name}/notices. A payer pays one payment by transfer
// (into a Monnify one-time account, completed by Monnify's notice) and another by card (at
// Paystack); the merchant refunds each from the dashboard, and each refund reaches the provider
// that took the money and no other (the simulators' requests show it). The settlement check
// (what `npm run ledger:check` runs) then compares the books with both providers' records.
// On PGlite and on PostgreSQL.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAttempts, paymentRefunds, transferNotices } from '../db/schema';
import { checkLedger, ledgerProblems } from '../services/payments/ledger';
import { paymentProviderFor } from '../context';
import { dashboardCall, staffMember } from '../testing/dashboard';
import type { TMonnifySimulator } from '../testing/monnify-simulator/monnify-simulator';
import type { TPaystackSimulator } from '../testing/paystack-simulator/paystack-simulator';
import { startPaystackAndMonnify, type TPaystackAndMonnify } from '../testing/two-providers';
import {
  consentWithPayment,
  keepPageToken,
  ledgerKinds,
  pageQuery,
  payByCard,
} from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';

const PAYSTACK_KEY = 'sk_test_twoproviders0000000000000000000';
const clock = testClock(new Date());

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let paystack: TPaystackSimulator;
let monnify: TMonnifySimulator;
let two: TPaystackAndMonnify | undefined;

beforeAll(async () => {
  two = await startPaystackAndMonnify({
    paystackKey: PAYSTACK_KEY,
    clock,
    notices: true,
    env: {
      TRANSFER_PROVIDERS: 'monnify,paystack',
      CARD_PROVIDERS: 'paystack,monnify',
    },
  });
  ({ ctx, paystack, monnify } = two);
});
afterAll(async () => {
  // Proves the books against every settlement report (Paystack's and Monnify's), then closes.
  await two?.close();
});

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

const statusOf = async (consent: TConsent) =>
  (
    await ctx.app.inject({
      method: 'GET',
      url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
    })
  ).json<{ status: string }>().status;

const attemptOf = async (paymentId: string) => {
  const [attempt] = await ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));
  if (!attempt) throw new Error(`No attempt of ${paymentId}`);
  return attempt;
};

/** The merchant's owner refunds `amount` of the payment from the dashboard. */
async function refundFromDashboard(consent: TConsent, amount: number) {
  const owner = await staffMember(
    ctx,
    { merchantId: consent.client.merchantId, role: 'owner' },
    clock.now(),
  );
  const refunded = await dashboardCall(ctx, owner, {
    method: 'POST',
    url: `/api/dashboard/payments/${consent.paymentId}/refunds`,
    headers: { 'idempotency-key': `two-${consent.paymentId}` },
    payload: { amount, reason: 'Order cancelled' },
  });
  expect(refunded.statusCode, refunded.body).toBeLessThan(300);
  const read = async () =>
    (
      await dashboardCall(ctx, owner, {
        method: 'GET',
        url: `/api/dashboard/payments/${consent.paymentId}`,
      })
    ).json<{ refunds: Array<{ amount: number; status: string }> }>().refunds;
  await expect.poll(read).toEqual([expect.objectContaining({ amount, status: 'processed' })]);
}

const refundsAt = {
  monnify: () =>
    monnify.requests.filter(
      (r) => r.method === 'POST' && r.path === '/api/v1/refunds/initiate-refund',
    ),
  paystack: () => paystack.requests.filter((r) => r.method === 'POST' && r.path === '/refund'),
};

describe('transfers at Monnify and cards at Paystack, side by side', () => {
  it('takes a transfer at Monnify and a card at Paystack, refunds each where it was taken, and the books agree with both', async () => {
    // By transfer: the transfer screen's account is a Monnify one-time account.
    const byTransfer = await consentWithPayment(ctx.app, ctx.database, { amount: 300_000 });
    const opened = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/${byTransfer.paymentId}/transfer?consentId=${byTransfer.consentId}`,
    });
    expect(opened.statusCode, opened.body).toBe(200);
    keepPageToken(byTransfer.paymentId, opened);
    const { accountNumber, amount } = opened.json<{
      transferDetails: { accountNumber: string; amount: number };
    }>().transferDetails;
    expect(
      monnify.requests.filter((r) => r.path === '/api/v1/merchant/bank-transfer/init-payment'),
    ).toHaveLength(1);
    expect(paystack.requests.filter((r) => r.path.startsWith('/dedicated_account'))).toEqual([]);
    await monnify.payTransfer(accountNumber, amount);
    await expect.poll(() => statusOf(byTransfer)).toBe('completed');
    expect(
      monnify.notices.filter((n) => n.event === 'SUCCESSFUL_TRANSACTION').map((n) => n.status),
    ).toEqual([200]);
    expect(await attemptOf(byTransfer.paymentId)).toMatchObject({
      provider: 'monnify',
      method: 'bank_transfer',
    });
    expect(await ledgerKinds(ctx.database, byTransfer.paymentId)).toEqual(['transfer_payment']);

    // By card: Paystack charges it.
    const byCard = await consentWithPayment(ctx.app, ctx.database, { amount: 250_000 });
    const paid = await payByCard(ctx.app, byCard, {
      number: '4084084084084081',
      expiry: '12/30',
      cvv: '408',
      pin: '1234',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await attemptOf(byCard.paymentId)).toMatchObject({
      provider: 'paystack',
      status: 'completed',
    });
    expect(monnify.requests.filter((r) => r.path.startsWith('/api/v1/merchant/cards'))).toEqual([]);

    // Each refunded from the dashboard, at the provider that took the money, none crossed.
    await refundFromDashboard(byTransfer, 100_000);
    // Back to the account the transfer came from, as Monnify's record of it names it.
    expect(refundsAt.monnify().map((r) => r.body)).toEqual([
      expect.objectContaining({
        refundAmount: 1000,
        destinationAccountNumber: '0065432190',
        destinationAccountBankCode: '058',
      }),
    ]);
    expect(refundsAt.paystack()).toEqual([]);
    await refundFromDashboard(byCard, 50_000);
    expect(refundsAt.paystack()).toHaveLength(1);
    expect(refundsAt.monnify()).toHaveLength(1);
    expect(await ledgerKinds(ctx.database, byTransfer.paymentId)).toEqual([
      'transfer_payment',
      'merchant_refund',
    ]);
    expect(await ledgerKinds(ctx.database, byCard.paymentId)).toEqual([
      'card_payment',
      'merchant_refund',
    ]);

    // Each refund's row names the provider that moved it.
    const refunds = await ctx.database.db
      .select({
        id: paymentRefunds.id,
        paymentId: paymentRefunds.paymentId,
        provider: paymentRefunds.provider,
        amount: paymentRefunds.amount,
      })
      .from(paymentRefunds)
      .where(inArray(paymentRefunds.paymentId, [byTransfer.paymentId, byCard.paymentId]));
    expect(refunds.map(({ paymentId, provider }) => [paymentId, provider]).sort()).toEqual(
      [
        [byTransfer.paymentId, 'monnify'],
        [byCard.paymentId, 'paystack'],
      ].sort(),
    );

    // The settlement check, as `npm run ledger:check` builds it from the same configuration:
    // both providers' records are read (Paystack's card charge and refund, Monnify's refund; a
    // transfer in is proven by its notice, booked once) and they agree with the books.
    await monnify.idle();
    await paystack.idle();
    const { settlement } = paymentProviderFor(ctx.config, ctx.database.db, clock).payments;
    const lines = await settlement.settlementReport();
    const card = await attemptOf(byCard.paymentId);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ channel: 'card', reference: card.id, amount: 250_000 }),
        ...refunds.map((refund) =>
          expect.objectContaining({
            channel: 'refund',
            reference: refund.id,
            amount: refund.amount,
          }),
        ),
      ]),
    );
    const [notice] = await ctx.database.db
      .select()
      .from(transferNotices)
      .where(eq(transferNotices.reference, (await attemptOf(byTransfer.paymentId)).id));
    expect(notice).toMatchObject({ provider: 'monnify', amount: 300_000, answer: 'taken' });
    const report = await checkLedger(ctx.database.db, { provider: settlement });
    expect(ledgerProblems(report)).toEqual([]);
  });
});

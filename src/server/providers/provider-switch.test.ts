// Cards move from Paystack to the sandbox network while Paystack's payments are in flight: a
// server on Paystack took a card payment and left another at its 3-D Secure step, then the
// server restarted on the same database with CARD_PROVIDERS=sandbox. The refund of the paid one,
// the requery and the late notice of the waiting one still go to Paystack (the simulator's
// requests show it), and a new card payment goes to the sandbox. A payout sent to Paystack whose
// answer was lost is asked about at Paystack after a restart with PAYOUT_PROVIDERS=sandbox (as
// payouts.provider names it). On PGlite and on PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAttempts, payouts, sandboxPayouts } from '../db/schema';
import { checkLedger, ledgerProblems } from '../services/payments/ledger';
import { reconcilePayouts } from '../services/payments/payouts';
import { usable } from './off';
import type { TSettlementLine } from './payments';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../testing/paystack-simulator/paystack-simulator';
import {
  consentWithPayment,
  encryptedCard,
  expectQueuedRefund,
  keepPageToken,
  ledgerKinds,
  pageQuery,
  sandboxCard,
} from '../testing/payments';
import { payoutInFlight } from '../testing/payouts-in-flight';
import { secondServer } from '../testing/second-server';
import { startTestApp, testClock, testConfig } from '../testing/test-app';

const PAYSTACK_KEY = 'sk_test_switch00000000000000000000000000';
const clock = testClock(new Date());
const THREE_DS = '4084080000000409';

let first: Awaited<ReturnType<typeof startTestApp>>;
let restarted: Awaited<ReturnType<typeof secondServer>>;
let paystack: TPaystackSimulator;
/** The attempts that took the two payments: Paystack's before the restart, the sandbox's after. */
const took: { paystack?: string; sandbox?: string; payout?: string } = {};
const paystackEnv = () => ({
  PAYMENT_PROVIDER: 'paystack',
  PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
  PAYSTACK_BASE_URL: paystack.url,
});

beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY, clock: () => clock.now() });
  first = await startTestApp({ clock, webhookDelivery: 'manual', env: paystackEnv() });
});
afterAll(async () => {
  await restarted?.close();
  // Proves the books against both reports (Paystack's and the sandbox's), then closes.
  await first.close();
  await paystack.close();
});

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

async function payByCard(
  app: typeof first.app,
  card: { number: string; expiry: string; cvv: string; pin?: string },
): Promise<{ consent: TConsent; status: number }> {
  const consent = await consentWithPayment(app, first.database);
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/card/public',
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      cardDetails: await encryptedCard(app, card),
      saveCard: false,
    },
  });
  keepPageToken(consent.paymentId, paid);
  return { consent, status: paid.statusCode };
}

const attemptOf = async (paymentId: string) => {
  const [attempt] = await first.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));
  if (!attempt) throw new Error(`No attempt of ${paymentId}`);
  return attempt;
};

const attemptRow = async (id: string) => {
  const [attempt] = await first.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, id));
  if (!attempt) throw new Error(`No attempt ${id}`);
  return attempt;
};

/**
 * A payout of 1,000 kobo from `merchantId`'s wallet made as releasing makes one (its row naming
 * the payouts port of new work, the claim booked) and sent to Paystack, its answer lost with its
 * process: the row is left paying.
 */
async function payoutLostAtPaystack(merchantId: string): Promise<string> {
  const port = usable(first.context.providers.payments.payouts);
  expect(port.provider).toBe('paystack');
  const id = `pout_switch_${Date.now()}`;
  await payoutInFlight(first.database.db, {
    id,
    merchantId,
    provider: port.provider,
    amount: 1_000,
    now: clock.now(),
  });
  const sent = await port.payOut({
    reference: id,
    institutionCode: '058',
    accountNumber: '0123456789',
    accountName: 'TOLA STORES',
    amount: 1_000,
    narration: 'Payment request collections released',
  });
  expect(sent.kind).toBe('succeeded');
  return id;
}

const payoutRow = async (id: string) => {
  const [payout] = await first.database.db.select().from(payouts).where(eq(payouts.id, id));
  if (!payout) throw new Error(`No payout ${id}`);
  return payout;
};

const statusOf = async (app: typeof first.app, consent: TConsent) =>
  (
    await app.inject({
      method: 'GET',
      url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
    })
  ).json<{ status: string }>().status;

describe('a server restarted with CARD_PROVIDERS=sandbox after Paystack took card payments', () => {
  it('sends the refund, the requery and the late notice of Paystack’s payments to Paystack, and a new card payment to the sandbox', async () => {
    const card = { expiry: '12/30', cvv: '408' };
    const paid = await payByCard(first.app, { ...card, number: '4084084084084081', pin: '1234' });
    expect(paid.status).toBe(200);
    const waiting = await payByCard(first.app, { ...card, number: THREE_DS });
    expect(waiting.status).toBe(200);
    expect(await attemptOf(waiting.consent.paymentId)).toMatchObject({
      provider: 'paystack',
      stage: 'awaiting_3ds',
    });
    took.payout = await payoutLostAtPaystack(paid.consent.client.merchantId);

    await first.app.close();
    restarted = await secondServer(
      {
        database: first.database,
        config: testConfig({
          ...paystackEnv(),
          CARD_PROVIDERS: 'sandbox',
          PAYOUT_PROVIDERS: 'sandbox',
        }),
      },
      clock,
    );
    const { app } = restarted;
    const { payments } = app.appContext.providers;
    expect([payments.cards.provider, payments.payouts.provider]).toEqual(['sandbox', 'sandbox']);
    const listening = await app.listen({ port: 0, host: '127.0.0.1' });
    paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
    const since = paystack.requests.length;
    const noticesSince = paystack.notices.length;
    const toPaystack = (method: string, path: RegExp) =>
      paystack.requests.slice(since).filter((r) => r.method === method && path.test(r.path));

    // The refund of the paid one: Paystack's.
    const refunded = await app.inject({
      method: 'POST',
      url: `/api/v1/payments/${paid.consent.paymentId}/refunds`,
      headers: { authorization: paid.consent.client.authorization, 'idempotency-key': 'sw-1' },
      payload: { amount: 50_000, reason: 'One item missing' },
    });
    expectQueuedRefund(refunded, 'processed');
    took.paystack = (await attemptOf(paid.consent.paymentId)).id;
    expect(toPaystack('POST', /^\/refund$/)).toHaveLength(1);

    // The payer answers the waiting one's 3-D Secure page: Paystack's late notice reaches its
    // adapter, and the attempt is asked about at Paystack before it is booked.
    const reference = (
      paystack.requests.findLast((r) => r.path === '/charge')?.body as {
        reference: string;
      }
    ).reference;
    await paystack.answerThreeDs(reference, true);
    await paystack.idle();
    await expect.poll(() => statusOf(app, waiting.consent)).toBe('completed');
    expect(
      paystack.notices
        .slice(noticesSince)
        .filter((notice) => notice.event === 'charge.success')
        .map((notice) => notice.status),
    ).toEqual([200]);
    expect(toPaystack('GET', /^\/(charge|transaction\/verify)\//).length).toBeGreaterThan(0);
    expect(await ledgerKinds(first.database, waiting.consent.paymentId)).toEqual(['card_payment']);

    // New work goes to the sandbox: no charge reaches Paystack.
    const charges = toPaystack('POST', /^\/charge$/).length;
    const fresh = await payByCard(app, sandboxCard('pin_only'));
    expect(fresh.status).toBe(200);
    expect(await attemptOf(fresh.consent.paymentId)).toMatchObject({
      provider: 'sandbox',
      status: 'completed',
    });
    expect(toPaystack('POST', /^\/charge$/)).toHaveLength(charges);
    took.sandbox = (await attemptOf(fresh.consent.paymentId)).id;
  });

  // Goes on from the payout above, left paying with Paystack's answer lost.
  it('asks Paystack about the payout it was sent while the sandbox takes new payouts', async () => {
    const id = took.payout;
    if (!id) throw new Error('The payout above was not made');
    expect(await payoutRow(id)).toMatchObject({ provider: 'paystack', status: 'paying' });
    const since = paystack.requests.length;
    const { appContext } = restarted.app;
    clock.advance(appContext.config.reconcileAfterMs + 1_000);
    expect(await reconcilePayouts(appContext, appContext.config.reconcileAfterMs)).toEqual({
      ended: 1,
      unrouted: 0,
    });
    expect(
      paystack.requests
        .slice(since)
        .filter((r) => r.method === 'GET' && r.path.startsWith('/transfer/verify/')),
    ).toHaveLength(1);
    expect(await payoutRow(id)).toMatchObject({ status: 'completed' });
    expect(
      await first.database.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.reference, id)),
    ).toEqual([]);
  });

  // Goes on from the payments above: Paystack holds one, the sandbox the other.
  it('balances the books provider by provider, naming the provider whose record differs', async () => {
    const { paystack: atPaystack, sandbox: atSandbox } = took;
    if (!atPaystack || !atSandbox) throw new Error('The payments above were not made');
    const { settlement } = restarted.app.appContext.providers.payments;
    const reported = await settlement.settlementReport();
    const lineOf = (reference: string) => reported.find((line) => line.reference === reference);
    expect(lineOf(atPaystack)).toMatchObject({ channel: 'card', provider: 'paystack' });
    expect(lineOf(atSandbox)).toMatchObject({ channel: 'card', provider: 'sandbox' });
    const checked = (lines: (all: readonly TSettlementLine[]) => TSettlementLine[]) =>
      checkLedger(first.database.db, {
        provider: { settlementReport: async () => lines(await settlement.settlementReport()) },
      });
    expect(ledgerProblems(await checked((all) => [...all]))).toEqual([]);
    const { amount: paidAtPaystack } = await attemptRow(atPaystack);
    const { amount: paidAtSandbox } = await attemptRow(atSandbox);

    // Paystack's record lacks its line: the check fails, naming Paystack.
    const lacking = await checked((all) => all.filter((line) => line.reference !== atPaystack));
    expect(lacking.providerDifferences).toEqual([
      {
        holder: 'paystack',
        channel: 'card',
        reference: atPaystack,
        provider: 0,
        books: paidAtPaystack,
      },
    ]);
    expect(ledgerProblems(lacking)).toEqual([
      `card ${atPaystack}: paystack's record holds 0 kobo taken, the books ${paidAtPaystack}`,
    ]);

    // The payout sent to Paystack is held against Paystack's record, as its row names it.
    const payout = took.payout;
    if (!payout) throw new Error('The payout above was not made');
    expect(lineOf(payout)).toMatchObject({ channel: 'payout', provider: 'paystack' });
    const noPayout = await checked((all) => all.filter((line) => line.reference !== payout));
    expect(noPayout.providerDifferences).toEqual([
      { holder: 'paystack', channel: 'payout', reference: payout, provider: 0, books: 1_000 },
    ]);

    // A line at Paystack does not cover the sandbox's payment: both records differ.
    const elsewhere = await checked((all) =>
      all.map((line) => (line.reference === atSandbox ? { ...line, provider: 'paystack' } : line)),
    );
    expect(elsewhere.providerDifferences).toEqual(
      expect.arrayContaining([
        {
          holder: 'sandbox',
          channel: 'card',
          reference: atSandbox,
          provider: 0,
          books: paidAtSandbox,
        },
        {
          holder: 'paystack',
          channel: 'card',
          reference: atSandbox,
          provider: paidAtSandbox,
          books: 0,
        },
      ]),
    );
    expect(elsewhere.providerDifferences).toHaveLength(2);
  });
});

// @module-tag postgres
// Transfers in routed by provider health (docs/routing.md): TRANSFER_PROVIDERS=paystack,monnify
// and CARD_PROVIDERS the same, both simulators running and sending their notices to us. Paystack
// stops answering: new transfer attempts fail over to Monnify, then go there first once Paystack
// is eliminated; an account already open at Paystack stays there and is paid once; money that
// reaches an account Paystack opened without telling us goes back; Paystack answering again is
// re-admitted by the probe after its cool-down. On PGlite and on PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAttempts, transferNotices } from '../../db/schema';
import type { TMonnifySimulator } from '../../testing/monnify-simulator/monnify-simulator';
import type { TPaystackSimulator } from '../../testing/paystack-simulator/paystack-simulator';
import { startPaystackAndMonnify, type TPaystackAndMonnify } from '../../testing/two-providers';
import { consentWithPayment, keepPageToken, pageQuery } from '../../testing/payments';
import { startTestApp, testClock } from '../../testing/test-app';

const PAYSTACK_KEY = 'sk_test_failover00000000000000000000000';
const COOL_DOWN_SECONDS = 20;
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
      TRANSFER_PROVIDERS: 'paystack,monnify',
      CARD_PROVIDERS: 'paystack,monnify',
      ROUTING_FAILURES_IN_A_ROW: '2',
      ROUTING_COOL_DOWN_SECONDS: String(COOL_DOWN_SECONDS),
    },
  });
  ({ ctx, paystack, monnify } = two);
});
afterAll(async () => {
  // Proves the books against both providers' settlement reports, then closes.
  await two?.close();
});

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;
type TOpened = { transferDetails: { accountNumber: string; amount: number; bankName: string } };

const newPayment = () => consentWithPayment(ctx.app, ctx.database, { amount: 150_000 });

async function openAccount(consent: TConsent) {
  const opened = await ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
  });
  expect(opened.statusCode, opened.body).toBe(200);
  keepPageToken(consent.paymentId, opened);
  return opened.json<TOpened>().transferDetails;
}

const attemptsOf = (paymentId: string) =>
  ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId))
    .orderBy(paymentAttempts.createdAt);

const statusOf = async (consent: TConsent) =>
  (
    await ctx.app.inject({
      method: 'GET',
      url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
    })
  ).json<{ status: string }>().status;

const firstOfRoute = async () =>
  (
    await ctx.app.appContext.providers.health.route({ capability: 'transfersIn' }, [
      'paystack',
      'monnify',
    ])
  ).order[0];

const paystackCharges = () =>
  paystack.requests.filter((r) => r.method === 'POST' && r.path === '/charge');
const monnifyAccounts = () =>
  monnify.requests.filter((r) => r.path === '/api/v1/merchant/bank-transfer/init-payment');

describe('transfers in, routed by provider health', () => {
  it('fails over while Paystack times out, routes to Monnify once it is eliminated, and never charges twice', async () => {
    // Before the outage: an account opened at Paystack, the first of the list.
    const inFlight = await newPayment();
    const atPaystack = await openAccount(inFlight);
    expect((await attemptsOf(inFlight.paymentId))[0]).toMatchObject({
      provider: 'paystack',
      routeNote: null,
    });

    paystack.stopAnswering({ afterMs: 50 });
    // While Paystack is still first, each new attempt fails over: one Monnify account shown.
    for (let index = 0; index < 2; index += 1) {
      const consent = await newPayment();
      const shown = await openAccount(consent);
      const attempts = await attemptsOf(consent.paymentId);
      expect(attempts.map((a) => [a.provider, a.status, a.stage])).toEqual([
        ['paystack', 'failed', null],
        ['monnify', 'pending', 'awaiting_transfer'],
      ]);
      expect(attempts[1]?.transferDetails?.accountNumber).toBe(shown.accountNumber);
      expect(attempts[1]?.routeNote).toBe('Sent to Monnify: Paystack gave no answer');
    }
    await expect.poll(firstOfRoute).toBe('monnify');

    // Eliminated: new work goes to Monnify first, Paystack is not asked.
    const charged = paystackCharges().length;
    const routed = await newPayment();
    const monnifyAccount = await openAccount(routed);
    expect(paystackCharges()).toHaveLength(charged);
    const [routedAttempt] = await attemptsOf(routed.paymentId);
    expect(routedAttempt).toMatchObject({ provider: 'monnify' });
    expect(routedAttempt?.routeNote).toMatch(
      /^Sent to Monnify: Paystack eliminated at \d\d:\d\d after 2 failures in a row$/,
    );
    await monnify.payTransfer(monnifyAccount.accountNumber, monnifyAccount.amount);
    await expect.poll(() => statusOf(routed)).toBe('completed');

    // The account open at Paystack before the outage stays there: asked again, the same one.
    expect((await openAccount(inFlight)).accountNumber).toBe(atPaystack.accountNumber);
    expect(await attemptsOf(inFlight.paymentId)).toHaveLength(1);

    // Paystack answers again: after the cool-down, one attempt probes it and re-admits it.
    paystack.stopAnswering(null);
    clock.advance(COOL_DOWN_SECONDS * 1000);
    const probe = await newPayment();
    await openAccount(probe);
    expect((await attemptsOf(probe.paymentId)).map((a) => a.provider)).toEqual(['paystack']);
    await expect.poll(firstOfRoute).toBe('paystack');
    const line = (await ctx.app.appContext.providers.health.snapshot()).find(
      (l) => l.capability === 'transfersIn' && l.provider === 'paystack',
    );
    expect(line).toMatchObject({ failures: 2, timeouts: 2, eliminated: null });

    // The payment in flight at Paystack is paid there, once.
    await paystack.payTransfer(atPaystack.accountNumber, atPaystack.amount);
    await expect.poll(() => statusOf(inFlight)).toBe('completed');
    const [paid] = await attemptsOf(inFlight.paymentId);
    expect(paid).toMatchObject({ provider: 'paystack', status: 'completed' });
    expect(monnifyAccounts()).toHaveLength(3);
  });

  it('gives back money that reaches an account the first provider opened without telling us', async () => {
    const consent = await newPayment();
    // Paystack opens the account but its answer is lost, and asking about it gets none either.
    paystack.loseNextAnswer('/charge');
    for (let index = 0; index < 3; index += 1) paystack.failNext('/charge/', 503);
    const shown = await openAccount(consent);
    const [atPaystack, atMonnify] = await attemptsOf(consent.paymentId);
    expect(atPaystack).toMatchObject({ provider: 'paystack', status: 'failed' });
    expect(atMonnify).toMatchObject({ provider: 'monnify', stage: 'awaiting_transfer' });
    expect(atMonnify?.transferDetails?.accountNumber).toBe(shown.accountNumber);

    // The payer somehow pays the Paystack account: late money, given back, nothing booked.
    const reference = (paystackCharges().at(-1)?.body as { reference: string }).reference;
    const verify = await fetch(`${paystack.url}/charge/${reference}`, {
      headers: { authorization: `Bearer ${PAYSTACK_KEY}` },
    });
    const { account_number: lateAccount } = (
      (await verify.json()) as { data: { account_number: string } }
    ).data;
    await paystack.payTransfer(lateAccount, 150_000);
    await expect
      .poll(async () => {
        const [notice] = await ctx.database.db
          .select()
          .from(transferNotices)
          .where(eq(transferNotices.reference, atPaystack?.id ?? ''));
        return notice && { provider: notice.provider, given: notice.returnedAt !== null };
      })
      .toEqual({ provider: 'paystack', given: true });
    expect(await statusOf(consent)).not.toBe('completed');

    // The shown account still takes the payment, at Monnify.
    await monnify.payTransfer(shown.accountNumber, shown.amount);
    await expect.poll(() => statusOf(consent)).toBe('completed');
  });
});

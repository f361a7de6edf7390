// @module-tag postgres
// New payouts routed by provider health (docs/routing.md): PAYOUT_PROVIDERS=sandbox,paystack.
// While the sandbox takes new work a release goes there; once its record eliminated it, the next
// release goes to Paystack and the payout names it, and each decision is counted; a payout sent
// to Paystack is asked about there (by the row), though the list puts the sandbox first. The
// account of a link's test transfer (TRANSFER_PROVIDERS=sandbox,paystack) is opened the same way,
// and a new link's mandate (MANDATE_PROVIDERS=sandbox,remita): past an eliminated sandbox it is
// Remita's, named on the link from its first row. With MANDATE_PROVIDERS=remita,sandbox and Remita
// eliminated, a mandate no provider keeps (the sandbox's auth parameters) is the sandbox's, and the
// link names it. On PGlite and on PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks, payouts } from '../../db/schema';
import { reconcilePayouts } from '../../services/payments/payouts';
import { ownAccount } from '../../testing/bvn';
import { provenPayer, type TSignedUpPayer } from '../../testing/identity';
import {
  consentWithPayment,
  linkByTestTransfer,
  openOwnLink,
  payByTransfer,
  sandboxBalanceOf,
} from '../../testing/payments';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import {
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../../testing/remita-simulator/remita-simulator';
import { startTestApp, testClock } from '../../testing/test-app';
import type { TCallOutcome } from './provider-health';

const PAYSTACK_KEY = 'sk_test_payoutroute000000000000000000000';
const OPERATOR_TOKEN = 'payout-routing-operator-token-0123456789';
const HOUR = 3_600_000;
const clock = testClock(new Date());
let ctx: Awaited<ReturnType<typeof startTestApp>>;
let paystack: TPaystackSimulator;
let remita: TRemitaSimulator;

beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY, clock: () => clock.now() });
  remita = await startRemitaSimulator();
  remita.useClock(() => clock.now());
  ctx = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    operatorToken: OPERATOR_TOKEN,
    env: {
      PAYMENT_PROVIDER: 'sandbox',
      PAYOUT_PROVIDERS: 'sandbox,paystack',
      TRANSFER_PROVIDERS: 'sandbox,paystack',
      MANDATE_PROVIDERS: 'sandbox,remita',
      REMITA_MERCHANT_ID: remita.merchantId,
      REMITA_SERVICE_TYPE_ID: remita.serviceTypeId,
      REMITA_API_KEY: remita.apiKey,
      REMITA_API_TOKEN: remita.apiToken,
      REMITA_BASE_URL: remita.url,
      PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
      PAYSTACK_BASE_URL: paystack.url,
      ROUTING_FAILURES_IN_A_ROW: '2',
    },
  });
});
afterAll(async () => {
  await ctx?.close();
  await paystack?.close();
  await remita?.close();
});

const SCENARIO = 'links_by_test_transfer' as const;
const aPayer = (fullName: string) => provenPayer(ctx.app, ctx.config, fullName);

/** `requester` asks `payer` for `amount`, and `payer` pays it by transfer into the wallet. */
async function collected(requester: TSignedUpPayer, payer: TSignedUpPayer, amount: number) {
  const asked = await ctx.app.inject({
    method: 'POST',
    url: '/api/consent',
    headers: requester.headers,
    payload: {
      userId: payer.userId,
      paymentConsents: [{ type: 'immediate', amount, narration: 'Rent share' }],
      expiresAt: new Date(clock.now().getTime() + 24 * HOUR).toISOString(),
    },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  const { consentId } = asked.json<{ consentId: string }>();
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}?clientId=cli_${requester.userId}`,
    headers: payer.headers,
  });
  const paymentId = read.json<{ consent: { payments: Array<{ paymentId: string }> } }>().consent
    .payments[0]!.paymentId;
  const paid = await payByTransfer(ctx.app, { consentId, paymentId }, { token: payer.token });
  expect(paid.statusCode, paid.body).toBe(200);
}

const release = async (payer: TSignedUpPayer, destinationAccountId: string) => {
  const released = await ctx.app.inject({
    method: 'POST',
    url: '/api/payments/release-pending',
    headers: payer.headers,
    payload: { destinationAccountId },
  });
  expect(released.statusCode, released.body).toBe(200);
  return released.json<{ payout: { payoutId: string; status: string } }>().payout;
};

const payoutRow = async (id: string) => {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.id, id));
  return row;
};

const paystackCharges = () =>
  paystack.requests.filter((r) => r.method === 'POST' && r.path === '/charge');

const paystackTransfers = () =>
  paystack.requests.filter((r) => r.method === 'POST' && r.path === '/transfer');

const decisions = async () => {
  const scraped = await ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
  });
  return scraped.body
    .split('\n')
    .filter((line) => line.startsWith('oya_routing_decisions_total{capability="payouts"'));
};

const failed: TCallOutcome = {
  capability: 'payouts',
  provider: 'sandbox',
  health: 'failed',
  latencyMs: 30_000,
  noAnswer: true,
};

describe('new payouts, routed by provider health', () => {
  it('go to the first of the list while it is healthy, then to the next once it is eliminated', async () => {
    const tolu = await aPayer('Tolu Bakare');
    const kemi = await aPayer('Kemi Adebayo');
    const accountId = await linkByTestTransfer(ctx.app, tolu.token, SCENARIO);
    const bank = await ownAccount(ctx.app, tolu.token, SCENARIO);

    // Healthy: the sandbox, the first of the list, takes the payout.
    await collected(tolu, kemi, 50_000);
    const before = await sandboxBalanceOf(ctx.database, bank);
    const atSandbox = await release(tolu, accountId);
    expect(await payoutRow(atSandbox.payoutId)).toMatchObject({
      provider: 'sandbox',
      status: 'completed',
    });
    expect(await sandboxBalanceOf(ctx.database, bank)).toBe(before + 50_000);

    // The sandbox's payouts stop answering: its record eliminates it for new payouts.
    for (let index = 0; index < 2; index += 1) {
      await ctx.app.appContext.providers.health.record(failed);
    }
    await collected(tolu, kemi, 70_000);
    const atPaystack = await release(tolu, accountId);
    expect(await payoutRow(atPaystack.payoutId)).toMatchObject({
      provider: 'paystack',
      amount: 70_000,
      institutionCode: bank.institutionCode,
      accountNumber: bank.accountNumber,
    });
    expect(paystackTransfers().map((r) => (r.body as { amount: number }).amount)).toEqual([70_000]);
    expect(await sandboxBalanceOf(ctx.database, bank)).toBe(before + 50_000);
    expect(await decisions()).toEqual([
      'oya_routing_decisions_total{capability="payouts",provider="sandbox",passed_over="no"} 1',
      'oya_routing_decisions_total{capability="payouts",provider="paystack",passed_over="yes"} 1',
    ]);

    // Its answer lost: the payout is asked about at Paystack, the provider it names.
    const asked = paystack.requests.length;
    await ctx.database.db
      .update(payouts)
      .set({ status: 'paying', askedAt: new Date(0) })
      .where(eq(payouts.id, atPaystack.payoutId));
    expect(await reconcilePayouts(ctx.app.appContext, 0)).toEqual({ ended: 1, unrouted: 0 });
    const verified = paystack.requests.slice(asked).map((r) => r.path);
    expect(verified).toHaveLength(1);
    expect(verified[0]).toMatch(/^\/transfer\/verify\/pout-/);
  });

  it("opens a link's test transfer account at the next provider once the first is eliminated", async () => {
    const ada = await aPayer('Ada Obi');
    const { health } = ctx.app.appContext.providers;
    for (let index = 0; index < 2; index += 1) {
      await health.record({ ...failed, capability: 'transfersIn' });
    }
    const opened = paystackCharges().length;
    const { id, payInDetails } = await openOwnLink(ctx.app, ada.token, SCENARIO);
    // One account opened at Paystack, under the link's reference (as Paystack's references go).
    const charges = paystackCharges().slice(opened);
    expect(charges).toHaveLength(1);
    const { reference } = charges[0]?.body as { reference: string };
    expect(reference).toMatch(/^alk/);
    expect(id).toMatch(/^alk_/);
    // The account shown is the one Paystack opened.
    const verify = await fetch(`${paystack.url}/charge/${reference}`, {
      headers: { authorization: `Bearer ${PAYSTACK_KEY}` },
    });
    const { account_number: atPaystack } = (
      (await verify.json()) as { data: { account_number: string } }
    ).data;
    expect(payInDetails?.accountNumber).toBe(atPaystack);
  });

  it("sets a new link's mandate up at the next mandate provider once the first is eliminated, and the link names it", async () => {
    const bola = await aPayer('Bola Tinubu');
    for (let index = 0; index < 2; index += 1) {
      await ctx.app.appContext.providers.health.record({ ...failed, capability: 'mandates' });
    }
    const { consentId } = await consentWithPayment(ctx.app, ctx.database, { future: true });
    const { accountNumber, institutionCode, accountName } = await ownAccount(
      ctx.app,
      bola.token,
      SCENARIO,
    );
    remita.accounts.push({
      bankCode: institutionCode,
      accountNumber,
      balanceKobo: 100_000_000,
      activation: 'otp',
      cardLast4: '2468',
    });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/account-links/create',
      headers: bola.headers,
      payload: { accountNumber, institutionCode, accountName, bankName: 'Any Bank', consentId },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id, remitaTransRef } = created.json<{
      accountLink: { id: string; remitaTransRef: string | null };
    }>().accountLink;
    // Remita's mandate, asked for the bank's OTP and the card's digits.
    expect(remitaTransRef).toEqual(expect.any(String));
    const [link] = await ctx.database.db.select().from(accountLinks).where(eq(accountLinks.id, id));
    expect(link).toMatchObject({
      route: 'auth_params',
      mandateProvider: 'remita',
      debitProvider: 'remita',
      mandateSetUpBy: 'remita',
    });
  });
});

describe('new mandates no provider keeps, routed by provider health', () => {
  // Remita first: a mandate no provider keeps is set up at the healthiest that keeps none.
  let remitaFirst: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    remitaFirst = await startTestApp({
      clock,
      webhookDelivery: 'manual',
      env: {
        MANDATE_PROVIDERS: 'remita,sandbox',
        REMITA_MERCHANT_ID: remita.merchantId,
        REMITA_SERVICE_TYPE_ID: remita.serviceTypeId,
        REMITA_API_KEY: remita.apiKey,
        REMITA_API_TOKEN: remita.apiToken,
        REMITA_BASE_URL: remita.url,
        ROUTING_FAILURES_IN_A_ROW: '2',
      },
    });
  });
  afterAll(async () => {
    await remitaFirst?.close();
  });

  it("sets the sandbox's auth parameters up once Remita is eliminated, and the link names the sandbox", async () => {
    const { app, database } = remitaFirst;
    const chidi = await provenPayer(app, remitaFirst.config, 'Chidi Okeke');
    for (let index = 0; index < 2; index += 1) {
      await app.appContext.providers.health.record({
        ...failed,
        capability: 'mandates',
        provider: 'remita',
      });
    }
    const since = remita.requests.length;
    const { id, authParams } = await openOwnLink(app, chidi.token, 'links_by_auth_params');
    expect(authParams).toHaveLength(1);
    const [link] = await database.db.select().from(accountLinks).where(eq(accountLinks.id, id));
    expect(link).toMatchObject({
      route: 'auth_params',
      mandateSetUpBy: 'sandbox',
      mandateProvider: null,
    });
    expect(remita.requests.slice(since)).toEqual([]);
  });
});

// The payer's ways to pay and the merchant's refund, the same tests on each payment provider: the
// sandbox network, and Paystack (PAYMENT_PROVIDER=paystack) against the Paystack simulator, a
// server shaped as Paystack's API documents it (testing/paystack-simulator). Each goes through the
// app's real routes, and what the provider says on its own (a notice) comes in through
// POST /api/providers/{name}/notices, as in production.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountLinks, payerAccounts, paymentAttempts } from '../db/schema';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../testing/paystack-simulator/paystack-simulator';
import { SANDBOX_PEOPLE } from '../sandbox/fixtures';
import { resolveAccountName } from '../testing/paystack-simulator/banks';
import { verifyBvn } from '../testing/bvn';
import { oneTapGrant, payerWithPasskey } from '../testing/identity';
import {
  accountLinkRow,
  consentWithPayment,
  linkByTestTransfer,
  encryptedCard,
  keepPageToken,
  ledgerKinds,
  pageQuery,
  sandboxCard,
  sandboxTransfer,
} from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';
import { usable } from '../providers/off';

type TTestApp = Awaited<ReturnType<typeof startTestApp>>;
type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;
type TTestCard = { number: string; expiry: string; cvv: string; pin: string; otp: string };

/** What differs between providers: their test cards and how their payer's side is played. */
type TProviderWorld = {
  name: 'sandbox' | 'paystack';
  /** A card paid at once; one that asks for an OTP; one with a 3-D Secure page; one declined. */
  cards: { paidAtOnce: TTestCard; pinOtp: TTestCard; threeDs: TTestCard; declined: TTestCard };
  /** The payer answers the 3-D Secure page the charge opened. */
  answerThreeDs(challengeUrl: string, approved: boolean): Promise<void>;
  /** The payer's bank sends `amount` to the one-time account. */
  sendTransfer(accountNumber: string, amount: number): Promise<void>;
  /** The provider's next card charge takes the money and its answer is lost. */
  loseNextChargeAnswer(): void;
  /**
   * How the adapter meets a lost charge answer: 'at_once' asks the provider about the reference
   * in the same call (Paystack's check by reference), 'reconciler' leaves the attempt charging
   * for the reconciler to ask.
   */
  asksAboutLostCharge: 'at_once' | 'reconciler';
  /** How many times the provider was asked to charge a card (the first call of a payment). */
  chargeCalls(): number;
  /** How many charges the provider holds as taken for these references of ours. */
  takenCharges(references: string[]): Promise<number>;
  /**
   * The payer of `token` links their own account for debits, as this provider has it proven
   * (the sandbox: a test transfer; Paystack: customer validation of their BVN, then the mandate
   * approved at the bank's page): the account's id.
   */
  linkAccount(token: string): Promise<string>;
  /** The name the notices route is called with. */
  noticesName: string;
  close(): Promise<void>;
};

const clock = testClock(new Date());

const SANDBOX_CARD = (scenario: 'pin_only' | 'pin_otp' | 'three_ds' | 'declined'): TTestCard => {
  const card = sandboxCard(scenario);
  return { number: card.number, expiry: card.expiry, cvv: card.cvv, pin: card.pin, otp: card.otp };
};

async function sandboxWorld(): Promise<{ app: TTestApp; world: TProviderWorld }> {
  const app = await startTestApp({ clock, webhookDelivery: 'manual' });
  const provider = usable(app.context.providers.payments.cards);
  const { settlement } = app.context.providers.payments;
  const realCharge = provider.chargeCard.bind(provider);
  const chargeSpy = vi.spyOn(provider, 'chargeCard');
  return {
    app,
    world: {
      name: 'sandbox',
      noticesName: 'sandbox',
      cards: {
        paidAtOnce: SANDBOX_CARD('pin_only'),
        pinOtp: SANDBOX_CARD('pin_otp'),
        threeDs: SANDBOX_CARD('three_ds'),
        declined: SANDBOX_CARD('declined'),
      },
      async answerThreeDs(challengeUrl, approved) {
        const reference = challengeUrl.split('/sandbox/3ds/')[1] ?? '';
        const answer = await app.app.inject({
          method: 'POST',
          url: `/api/sandbox/3ds/${reference}`,
          payload: { approved },
        });
        expect(answer.statusCode).toBe(200);
      },
      async sendTransfer(accountNumber, amount) {
        const sent = await sandboxTransfer(app.app, { accountNumber, amount });
        expect(sent.statusCode).toBe(200);
      },
      linkAccount: (token) => linkByTestTransfer(app.app, token, 'links_by_test_transfer'),
      asksAboutLostCharge: 'reconciler',
      chargeCalls: () => chargeSpy.mock.calls.length,
      loseNextChargeAnswer() {
        chargeSpy.mockImplementationOnce(async (request) => {
          await realCharge(request);
          throw new Error('connection reset');
        });
      },
      async takenCharges(references) {
        const lines = await settlement.settlementReport();
        return lines.filter((line) => references.includes(line.reference) && !line.givenBack)
          .length;
      },
      close: () => app.close(),
    },
  };
}

const PAYSTACK_KEY = 'sk_test_flows00000000000000000000000000000';

/**
 * The app with PAYMENT_PROVIDER=paystack against a Paystack simulator, listening where the
 * simulator sends its signed notices (POST /api/providers/paystack/notices).
 */
async function startPaystackApp(): Promise<{ app: TTestApp; paystack: TPaystackSimulator }> {
  const paystack = await startPaystackSimulator({
    secretKey: PAYSTACK_KEY,
    clock: () => clock.now(),
  });
  const app = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    env: {
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
      PAYSTACK_BASE_URL: paystack.url,
      // The simulator answers at once: a charge or debit it says is pending is asked again soon.
      PAYSTACK_PENDING_CHECKS_MS: '20,200',
    },
  });
  // A port of its own from the system: one picked free beforehand was taken by another process
  // before the app listened on it, once, on a loaded machine.
  const listening = await app.app.listen({ port: 0, host: '127.0.0.1' });
  paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
  return { app, paystack };
}

/** The simulator's accounts (paystack-simulator/banks.ts) and the BVN each is held under. */
const PAYSTACK_ACCOUNTS = {
  /** Held under the demo payer's BVN (SANDBOX_PEOPLE's first, 22200000011). */
  payers: { institutionCode: '058', accountNumber: '0123456789' },
  /** Held under another BVN (22200000022). */
  anothers: { institutionCode: '044', accountNumber: '0001234567' },
} as const;

/** The demo payer of the sandbox's BVN registry, which stands in for Paystack's. */
const DEMO_PERSON = SANDBOX_PEOPLE[0] as { bvn: string; phoneNumber: string };

/** Opens a link of the account for the payer of `token` (POST /api/account-links/create). */
async function createLink(
  app: TTestApp,
  token: string,
  account: { institutionCode: string; accountNumber: string },
) {
  return app.app.inject({
    method: 'POST',
    url: '/api/account-links/create',
    headers: { authorization: `Bearer ${token}` },
    payload: {
      ...account,
      accountName: resolveAccountName(account.institutionCode, account.accountNumber) ?? '',
      bankName: 'Any Bank',
    },
  });
}

/**
 * At Paystack: the payer's BVN verified (the sandbox registry's demo payer), the link opened
 * (Paystack checks the account's holder against the BVN and tells us by its notice), and the
 * mandate approved at the bank's page (Paystack tells us the bank confirmed it).
 */
async function linkAtPaystack(
  app: TTestApp,
  paystack: TPaystackSimulator,
  token: string,
  account: { institutionCode: string; accountNumber: string },
): Promise<string> {
  await verifyBvn(app.app, token, DEMO_PERSON);
  const created = await createLink(app, token, account);
  expect(created.statusCode, created.body).toBe(200);
  const link = created.json<{ accountLink: { id: string; mandateType: string; formUrl: string } }>()
    .accountLink;
  expect(link).toMatchObject({
    mandateType: 'bank',
    formUrl: expect.stringContaining(paystack.url),
  });
  await paystack.idle();
  const row = await accountLinkRow(app.database, link.id);
  await paystack.answerMandate(row?.providerReference ?? '', true);
  await paystack.idle();
  expect(await accountLinkRow(app.database, link.id)).toMatchObject({ state: 'active' });
  return row?.accountId ?? '';
}

async function paystackWorld(): Promise<{ app: TTestApp; world: TProviderWorld }> {
  const { app, paystack } = await startPaystackApp();
  const card = (number: string, pin: string): TTestCard => ({
    number,
    expiry: '12/30',
    cvv: '408',
    pin,
    otp: '123456',
  });
  /** The reference Paystack knows the latest charge by. */
  const lastChargeReference = () => {
    const charge = paystack.requests.findLast((r) => r.method === 'POST' && r.path === '/charge');
    return (charge?.body as { reference?: string } | undefined)?.reference ?? '';
  };
  return {
    app,
    world: {
      name: 'paystack',
      noticesName: 'paystack',
      cards: {
        paidAtOnce: card('4084084084084081', '1234'),
        pinOtp: card('5078501111111111', '1111'),
        threeDs: card('4084080000000409', '1234'),
        declined: card('4084080000005408', '1234'),
      },
      async answerThreeDs(_challengeUrl, approved) {
        await paystack.answerThreeDs(lastChargeReference(), approved);
        await paystack.idle();
      },
      async sendTransfer(accountNumber, amount) {
        await paystack.payTransfer(accountNumber, amount);
        await paystack.idle();
      },
      linkAccount: (token) => linkAtPaystack(app, paystack, token, PAYSTACK_ACCOUNTS.payers),
      asksAboutLostCharge: 'at_once',
      chargeCalls: () =>
        paystack.requests.filter((r) => r.method === 'POST' && r.path === '/charge').length,
      loseNextChargeAnswer() {
        paystack.loseNextAnswer('/charge');
      },
      async takenCharges(references) {
        const lines = await usable(app.context.providers.payments.settlement).settlementReport();
        return lines.filter((line) => references.includes(line.reference) && !line.givenBack)
          .length;
      },
      async close() {
        await app.close();
        await paystack.close();
      },
    },
  };
}

describe.each([
  ['sandbox', sandboxWorld],
  ['paystack', paystackWorld],
] as const)('paying and refunding on %s', (_name, start) => {
  let ctx: TTestApp;
  let world: TProviderWorld;
  beforeAll(async () => {
    ({ app: ctx, world } = await start());
  });
  afterAll(async () => {
    await world.close();
  });

  async function payByCard(consent: TConsent, card: TTestCard) {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/card/public',
      payload: {
        paymentId: consent.paymentId,
        consentId: consent.consentId,
        cardDetails: await encryptedCard(ctx.app, card),
        saveCard: false,
      },
    });
    return keepPageToken(consent.paymentId, response);
  }

  async function statusOf(consent: TConsent) {
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
    });
    expect(read.statusCode).toBe(200);
    return read.json<{ status: string; message: string | null }>().status;
  }

  const attemptsOf = (paymentId: string) =>
    ctx.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.paymentId, paymentId));

  it('pays by card with its PIN, then the OTP the bank sent', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await payByCard(consent, world.cards.pinOtp);
    expect(started.json()).toMatchObject({ success: true, requiresOTP: true });
    const done = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/card/complete',
      payload: {
        paymentId: consent.paymentId,
        consentId: consent.consentId,
        otp: world.cards.pinOtp.otp,
        chargeToken: started.json<{ chargeToken: string }>().chargeToken,
      },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ success: true, amount: consent.amount });
    expect(await statusOf(consent)).toBe('completed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it('pays by card through its 3-D Secure page, completed by the provider’s word', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await payByCard(consent, world.cards.threeDs);
    const body = started.json<{ requires3DS: boolean; challengeUrl: string }>();
    expect(body).toMatchObject({ success: true, requires3DS: true });
    expect(await statusOf(consent)).toBe('in_progress');
    await world.answerThreeDs(body.challengeUrl, true);
    await expect.poll(() => statusOf(consent)).toBe('completed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it('a 3-D Secure check the payer declined ends the payment’s attempt, told or asked about', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await payByCard(consent, world.cards.threeDs);
    const { challengeUrl } = started.json<{ challengeUrl: string }>();
    await world.answerThreeDs(challengeUrl, false);
    // A provider that tells of no decline (Paystack) is asked once the challenge has waited
    // 15 s, at the next reconciler run, long before the challenge's own 10 minutes are up.
    clock.advance(16_000);
    await ctx.app.reconciler.runDue();
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
    });
    expect(read.json()).toMatchObject({ status: 'failed', message: '3DS authentication failed' });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
  });

  it('a declined card fails in the catalogue’s words, nothing booked', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const failed = await payByCard(consent, world.cards.declined);
    expect(failed.statusCode).toBe(402);
    expect(failed.json()).toEqual({
      success: false,
      error: { code: 'CARD_PAYMENT_FAILED', message: 'Card payment failed: Declined by your bank' },
    });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
  });

  it('pays by transfer into its one-time account, completed by the provider’s notice', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const opened = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
    });
    expect(opened.statusCode).toBe(200);
    keepPageToken(consent.paymentId, opened);
    const { accountNumber, amount } = opened.json<{
      transferDetails: { accountNumber: string; amount: number };
    }>().transferDetails;
    expect(amount).toBe(consent.amount);
    await world.sendTransfer(accountNumber, amount);
    await expect.poll(() => statusOf(consent)).toBe('completed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['transfer_payment']);
  });

  it('pays from a saved account at the grant (OneTap), on the mandate the provider proved', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const accountId = await world.linkAccount(payer.token);
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const granted = await oneTapGrant(ctx.app, payer, consent.consentId, accountId);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({
      status: 'granted',
      paymentResults: { total: 1, succeeded: 1, failed: 0 },
    });
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/payments/${consent.paymentId}`,
      headers: payer.headers,
    });
    expect(read.json()).toMatchObject({ status: 'completed' });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['account_debit']);
    const attempts = await attemptsOf(consent.paymentId);
    expect(attempts.map((a) => [a.method, a.status])).toEqual([['account', 'completed']]);
  });

  it('refuses a notice whose signature does not hold, and changes nothing', async () => {
    const forged = await ctx.app.inject({
      method: 'POST',
      url: `/api/providers/${world.noticesName}/notices`,
      headers: {
        'content-type': 'application/json',
        'x-paystack-signature': 'f'.repeat(128),
        'x-sandbox-signature': 'f'.repeat(128),
      },
      payload: JSON.stringify({ event: 'charge.success', data: { reference: 'att_forged' } }),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });

  it('a charge whose answer was lost is asked about, booked once, never charged twice', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    world.loseNextChargeAnswer();
    const calls = world.chargeCalls();
    const first = await payByCard(consent, world.cards.paidAtOnce);
    if (world.asksAboutLostCharge === 'at_once') {
      // Asked about by its reference in the same call: the charge was taken, so it is paid.
      expect(first.statusCode, first.body).toBe(200);
    } else {
      // The payer waits while the charge is asked about: the bank still answering.
      expect(first.json()).toMatchObject({ status: 'charging' });
      // Whether the card was charged is not known: nothing may charge the payment meanwhile.
      const retry = await payByCard(consent, world.cards.paidAtOnce);
      expect(retry.json()).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });
      clock.advance(6 * 60_000);
      expect(await ctx.app.reconciler.runDue()).toMatchObject({ attempts: { booked: 1 } });
    }
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
    const attempts = await attemptsOf(consent.paymentId);
    expect(attempts).toHaveLength(1);
    expect(await world.takenCharges(attempts.map((a) => a.id))).toBe(1);
    // Paid: a payer trying again is told so, and the provider is not asked to charge again.
    const late = await payByCard(consent, world.cards.paidAtOnce);
    expect(late.json()).toMatchObject({ error: { code: 'PAYMENT_ALREADY_MADE' } });
    expect(world.chargeCalls()).toBe(calls + 1);
    expect(await world.takenCharges(attempts.map((a) => a.id))).toBe(1);
  });

  it('a merchant refunds part of a card payment, and the refund is processed', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const paid = await payByCard(consent, world.cards.paidAtOnce);
    expect(paid.statusCode).toBe(200);
    const refund = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${consent.paymentId}/refunds`,
      headers: {
        authorization: consent.client.authorization,
        'idempotency-key': `flows-${consent.paymentId}`,
      },
      payload: { amount: 100_000, reason: 'One item out of stock' },
    });
    expect(refund.statusCode).toBeLessThan(300);
    const read = async () => {
      const payment = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/payments/${consent.paymentId}`,
        headers: { authorization: consent.client.authorization },
      });
      return payment.json<{ payment: { refunds: Array<{ amount: number; status: string }> } }>()
        .payment.refunds;
    };
    await expect
      .poll(read)
      .toEqual([expect.objectContaining({ amount: 100_000, status: 'processed' })]);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'card_payment',
      'merchant_refund',
    ]);
  });
});

describe('Paystack: what only a provider that cannot close a reference or tell of a decline needs', () => {
  let ctx: TTestApp;
  let paystack: TPaystackSimulator;
  beforeAll(async () => {
    ({ app: ctx, paystack } = await startPaystackApp());
  });
  afterAll(async () => {
    await ctx.close();
    await paystack.close();
  });

  it('a charge that reaches Paystack after it was asked about is booked back out and given back to the card, and the payment stays payable', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const cardDetails = await encryptedCard(ctx.app, {
      number: '4084084084084081',
      expiry: '12/30',
      cvv: '408',
      pin: '1234',
    });
    // Paystack answers 503 and takes nothing: whether it charged is not known.
    paystack.failNext('/charge', 503);
    const first = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/card/public',
      payload: {
        paymentId: consent.paymentId,
        consentId: consent.consentId,
        cardDetails,
        saveCard: false,
      },
    });
    // The payer waits while Paystack is asked about the charge: the bank still answering.
    expect(first.json()).toMatchObject({ status: 'charging' });
    // Asked about past the age: Paystack knows nothing of it, so the attempt fails.
    clock.advance(6 * 60_000);
    expect(await ctx.app.reconciler.runDue()).toMatchObject({ attempts: { failed: 1 } });
    const [attempt] = await ctx.database.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, consent.paymentId));
    expect(attempt).toMatchObject({ status: 'failed' });
    // The same request reaches Paystack late (a retry by a proxy on the way): the card is
    // charged, and Paystack's charge.success comes to the notices route.
    const sent = paystack.requests.find((r) => r.method === 'POST' && r.path === '/charge');
    const late = await fetch(`${paystack.url}/charge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PAYSTACK_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(sent?.body),
    });
    expect(late.status).toBe(200);
    await paystack.idle();
    // Booked in and straight back out, owed back; the reconciler gives it back at Paystack.
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([
      'card_payment',
      'card_refund',
    ]);
    clock.advance(6 * 60_000);
    await ctx.app.reconciler.runDue();
    await expect
      .poll(async () => {
        const [row] = await ctx.database.db
          .select({ refund: paymentAttempts.refund })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.id, attempt?.id ?? ''));
        return row?.refund;
      })
      .toBe('settled');
    const reference = (sent?.body as { reference: string }).reference;
    const verified = await fetch(`${paystack.url}/transaction/verify/${reference}`, {
      headers: { authorization: `Bearer ${PAYSTACK_KEY}` },
    });
    expect((await verified.json()).data.status).toBe('reversed');
    // Nothing was kept: the payer may still pay.
    const again = await ctx.app.inject({
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
    expect(again.statusCode).toBe(200);
  });

  it('a 3-D Secure check the payer may still be answering is not asked about for 15 s', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/card/public',
      payload: {
        paymentId: consent.paymentId,
        consentId: consent.consentId,
        cardDetails: await encryptedCard(ctx.app, {
          number: '4084080000000409',
          expiry: '12/30',
          cvv: '408',
          pin: '1234',
        }),
        saveCard: false,
      },
    });
    keepPageToken(consent.paymentId, started);
    expect(started.json()).toMatchObject({ requires3DS: true });
    const reference = (
      paystack.requests.findLast((r) => r.method === 'POST' && r.path === '/charge')?.body as {
        reference: string;
      }
    ).reference;
    const asked = () =>
      paystack.requests.filter((r) => r.path === `/transaction/verify/${reference}`).length;
    await paystack.answerThreeDs(reference, false);
    const status = async () =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
        })
      ).json<{ status: string }>().status;
    clock.advance(10_000);
    await ctx.app.reconciler.runDue();
    expect(asked()).toBe(0);
    expect(await status()).toBe('in_progress');
    clock.advance(6_000);
    await ctx.app.reconciler.runDue();
    // Asked once, and its answer ends the attempt with Paystack's reason for the decline.
    expect(asked()).toBe(1);
    expect(await status()).toBe('failed');
    const [attempt] = await ctx.database.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, consent.paymentId));
    expect(attempt?.failureReason).toBe('three_ds_declined');
  });
});

describe('Paystack: linking an account, proven by customer validation and a mandate at the bank', () => {
  let ctx: TTestApp;
  let paystack: TPaystackSimulator;
  let payer: Awaited<ReturnType<typeof payerWithPasskey>>;
  beforeAll(async () => {
    ({ app: ctx, paystack } = await startPaystackApp());
    payer = await payerWithPasskey(ctx.app, ctx.config);
    await verifyBvn(ctx.app, payer.token, DEMO_PERSON);
  });
  afterAll(async () => {
    await ctx.close();
    await paystack.close();
  });
  afterEach(() => {
    paystack.noticesBeforeAnswer(null);
  });

  const confirm = (linkId: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/account-links/confirm-payment/${linkId}`,
      headers: payer.headers,
    });

  /** How many times Paystack was asked to validate a customer (customer validation). */
  const holderChecks = () =>
    paystack.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/identification'))
      .length;

  /** What the payer's record of the account knows of its holder. */
  const holderOf = async (account: { accountNumber: string }) => {
    const [row] = await ctx.database.db
      .select({ bvnHash: payerAccounts.bvnHash, holderCheck: payerAccounts.holderCheck })
      .from(payerAccounts)
      .where(eq(payerAccounts.accountNumber, account.accountNumber));
    return row;
  };

  /** The payer approves the link's mandate at the bank's page, and Paystack's notices are in. */
  const approveMandate = async (linkId: string) => {
    const row = await accountLinkRow(ctx.database, linkId);
    await paystack.answerMandate(row?.providerReference ?? '', true);
    await paystack.idle();
  };

  it('applies a holder check whose notice comes before Paystack answers the call, and the link becomes active', async () => {
    const account = { institutionCode: '044', accountNumber: '0690000031' };
    // A validating proxy holds Paystack's answer back until its notice was delivered.
    paystack.noticesBeforeAnswer(/\/identification$/);
    const created = await createLink(ctx, payer.token, account);
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<{ accountLink: { id: string } }>().accountLink;
    expect(paystack.notices.at(-1)).toMatchObject({
      event: 'customeridentification.success',
      status: 200,
    });
    expect(await holderOf(account)).toEqual({ bvnHash: expect.any(String), holderCheck: null });
    await approveMandate(id);
    expect(await accountLinkRow(ctx.database, id)).toMatchObject({ state: 'active' });
    expect((await confirm(id)).json()).toMatchObject({ success: true, status: 'completed' });
  });

  it('refuses at once an account whose refusal comes before Paystack answers the call, and ends its link', async () => {
    const account = { institutionCode: '057', accountNumber: '2000000001' };
    paystack.noticesBeforeAnswer(/\/identification$/);
    const created = await createLink(ctx, payer.token, account);
    expect(created.statusCode).toBe(403);
    expect(created.json()).toMatchObject({ error: { code: 'ACCOUNT_NOT_YOURS' } });
    expect(await holderOf(account)).toEqual({ bvnHash: null, holderCheck: 'differs' });
    const links = await ctx.database.db
      .select({ state: accountLinks.state })
      .from(accountLinks)
      .innerJoin(payerAccounts, eq(payerAccounts.id, accountLinks.accountId))
      .where(eq(payerAccounts.accountNumber, account.accountNumber));
    expect(links).toEqual([{ state: 'cancelled' }]);
  });

  it('a second create of a link answers 409 as before, asks Paystack nothing and changes nothing decided', async () => {
    const account = { institutionCode: '011', accountNumber: '3000000001' };
    // Every delivery of the first check's answer is refused (as if lost on the way) for now.
    const readNotice = vi
      .spyOn(usable(ctx.context.providers.payments.notices), 'readNotice')
      .mockResolvedValue(null);
    const created = await createLink(ctx, payer.token, account);
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<{ accountLink: { id: string } }>().accountLink;
    await paystack.idle();
    readNotice.mockRestore();
    await approveMandate(id);
    const waiting = await accountLinkRow(ctx.database, id);
    expect(waiting).toMatchObject({ state: 'created', debitAuthorization: /^AUTH_/ });
    expect(await holderOf(account)).toEqual({ bvnHash: null, holderCheck: 'pending' });
    const asked = holderChecks();

    // Were Paystack asked again, its answer would come before the call's (a validating proxy).
    paystack.noticesBeforeAnswer(/\/identification$/);
    const again = await createLink(ctx, payer.token, account);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'ACCOUNT_LINK_IN_PROGRESS' } });
    expect(holderChecks()).toBe(asked);
    expect(await holderOf(account)).toEqual({ bvnHash: null, holderCheck: 'pending' });
    expect(await accountLinkRow(ctx.database, id)).toEqual(waiting);

    // Paystack sends the first answer again: the holder is confirmed and the link active.
    const answer = paystack.notices.findLast(
      (notice) =>
        notice.event === 'customeridentification.success' && notice.body.includes('300****001'),
    );
    const redelivered = await ctx.app.inject({
      method: 'POST',
      url: '/api/providers/paystack/notices',
      headers: {
        'content-type': 'application/json',
        'x-paystack-signature': answer?.signature ?? '',
      },
      payload: answer?.body ?? '',
    });
    expect(redelivered.statusCode).toBe(200);
    const confirmed = await holderOf(account);
    expect(confirmed).toEqual({ bvnHash: expect.any(String), holderCheck: null });
    expect(await accountLinkRow(ctx.database, id)).toMatchObject({ state: 'active' });

    const linked = await createLink(ctx, payer.token, account);
    expect(linked.statusCode).toBe(409);
    expect(linked.json()).toMatchObject({ error: { code: 'ACCOUNT_ALREADY_LINKED' } });
    expect(holderChecks()).toBe(asked);
    expect(await holderOf(account)).toEqual(confirmed);
    expect(await accountLinkRow(ctx.database, id)).toMatchObject({ state: 'active' });
  });

  it("ends the link of an account Paystack says is not held under the payer's BVN, and it never activates", async () => {
    // Paystack's refusal comes after its answer to the call, as it does (the order where it comes
    // first, answered 403 at once, is the test above): its notice is read once the call answered.
    const notices = usable(ctx.context.providers.payments.notices);
    const readNotice = notices.readNotice.bind(notices);
    let answered!: () => void;
    const callAnswered = new Promise<void>((resolve) => (answered = resolve));
    const held = vi.spyOn(notices, 'readNotice').mockImplementation(async (...notice) => {
      await callAnswered;
      return readNotice(...notice);
    });
    const created = await createLink(ctx, payer.token, PAYSTACK_ACCOUNTS.anothers);
    answered();
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<{ accountLink: { id: string } }>().accountLink;
    await paystack.idle();
    held.mockRestore();
    expect(await accountLinkRow(ctx.database, id)).toMatchObject({ state: 'cancelled' });
    const [account] = await ctx.database.db
      .select()
      .from(payerAccounts)
      .where(eq(payerAccounts.accountNumber, PAYSTACK_ACCOUNTS.anothers.accountNumber));
    expect(account).toMatchObject({ holderCheck: 'differs', bvnHash: null });
    // The payer approving the mandate anyway links nothing.
    const row = await accountLinkRow(ctx.database, id);
    await paystack.answerMandate(row?.providerReference ?? '', true);
    await paystack.idle();
    expect(await accountLinkRow(ctx.database, id)).toMatchObject({
      state: 'cancelled',
      debitAuthorization: null,
    });
    expect((await confirm(id)).json()).toMatchObject({ success: false, status: 'failed' });
    // Asked again, it is refused at once: Paystack is not asked a second time.
    const checks = () =>
      paystack.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/identification'))
        .length;
    const before = checks();
    const again = await createLink(ctx, payer.token, PAYSTACK_ACCOUNTS.anothers);
    expect(again.json()).toMatchObject({ error: { code: 'ACCOUNT_NOT_YOURS' } });
    expect(checks()).toBe(before);
  });

  it('a mandate whose notice never came is found active when the payer next reads their accounts (Verify Authorization)', async () => {
    const created = await createLink(ctx, payer.token, PAYSTACK_ACCOUNTS.payers);
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<{ accountLink: { id: string } }>().accountLink;
    await paystack.idle();
    expect((await confirm(id)).json()).toMatchObject({ success: false, status: 'pending' });
    // Every notice of the approval is refused (as if lost on the way): Paystack gives up on it.
    const readNotice = vi
      .spyOn(usable(ctx.context.providers.payments.notices), 'readNotice')
      .mockResolvedValue(null);
    const row = await accountLinkRow(ctx.database, id);
    await paystack.answerMandate(row?.providerReference ?? '', true);
    await paystack.idle();
    readNotice.mockRestore();
    expect(await accountLinkRow(ctx.database, id)).toMatchObject({ state: 'created' });
    // The payer back from the bank's page reads their accounts: Paystack is asked, and it is linked.
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/user',
      headers: payer.headers,
    });
    const account = listed
      .json<{ accounts: Array<{ accountNumber: string | null; integrations: object }> }>()
      .accounts.find((a) => a.accountNumber === PAYSTACK_ACCOUNTS.payers.accountNumber);
    expect(account?.integrations).toMatchObject({ transactionService: { linked: true } });
    expect((await confirm(id)).json()).toMatchObject({ success: true, status: 'completed' });
    expect(await accountLinkRow(ctx.database, id)).toMatchObject({
      state: 'active',
      debitAuthorization: expect.stringMatching(/^AUTH_/),
    });
  });
});

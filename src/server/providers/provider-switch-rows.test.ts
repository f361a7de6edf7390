// Card links and pushed terminals move from Paystack to the sandbox while Paystack's money is in
// flight: a server on Paystack made card links' test charges (one whose answer was lost with its
// process, one waiting at its 3-D Secure check) and pushed payment requests to Paystack Terminal
// (one called off whose withdrawal Paystack did not answer, one still on its terminal); then the
// server restarted on the same database with CARD_PROVIDERS=sandbox and TERMINAL_PROVIDER=sandbox.
// Every later call about that money (the requery, the 3-D Secure sweep, the refund of a link's
// charge, the withdrawal of a called-off request, the terminal's notice) still goes to Paystack,
// as the rows name it (account_links.charge_provider, payment_attempts.provider): the simulator's
// requests show it. On PGlite and on PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_STATES } from '../../domain/payment-attempts';
import { PUSHED_TERMINAL_EXPIRY_MS } from '../../domain/pushed-terminal';
import { accountLinks, merchantTerminals, payerAccounts, paymentAttempts } from '../db/schema';
import { newLinkId } from '../services/linking/link-lifecycle';
import { openLinkCharge } from '../services/linking/link-test-attempts';
import { expireThreeDsLinks } from '../services/linking/link-challenges';
import { reconcileLostLinkCharges } from '../services/linking/lost-link-charges';
import { THREE_DS_ASK_AFTER_MS } from '../services/payments/card-payments';
import {
  CALLED_OFF_ASK_EVERY_MS,
  reconcileLostAttempts,
} from '../services/payments/attempts/reconcile';
import { signUp, testPhone } from '../testing/identity';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../testing/paystack-simulator/paystack-simulator';
import {
  cardLinkRow,
  consentWithPayment,
  ledgerKinds,
  ledgerKindsOfReference,
} from '../testing/payments';
import { secondServer } from '../testing/second-server';
import { startTestApp, testClock, testConfig } from '../testing/test-app';
import { toPaystackReference } from './paystack/paystack-references';

const PAYSTACK_KEY = 'sk_test_switchrows000000000000000000000';
const clock = testClock(new Date());
const THREE_DS = '4084080000000409';
const PAID = { number: '4084084084084081', expiry: '12/30', cvv: '408', pin: '1234' };

let first: Awaited<ReturnType<typeof startTestApp>>;
let restarted: Awaited<ReturnType<typeof secondServer>>;
let paystack: TPaystackSimulator;
const paystackEnv = () => ({
  PAYMENT_PROVIDER: 'paystack',
  PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
  PAYSTACK_BASE_URL: paystack.url,
  TERMINAL_PROVIDER: 'paystack',
});

beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY, clock: () => clock.now() });
  first = await startTestApp({ clock, webhookDelivery: 'manual', env: paystackEnv() });
  const listening = await first.app.listen({ port: 0, host: '127.0.0.1' });
  paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
});
afterAll(async () => {
  await restarted?.close();
  // Proves the books against both reports (Paystack's and the sandbox's), then closes.
  await first.close();
  await paystack.close();
});

/**
 * A payer's card link opened as linkCard opens it, its test charge made at Paystack by the cards
 * port of new work (its provider on the row), and the row left as the charge's answer left it.
 */
async function linkChargedAtPaystack(card: typeof PAID, testAmount: number) {
  const { user } = await signUp(first.app, testPhone(), 'Chiamaka Eze');
  const now = clock.now();
  const accountId = `pa_${newLinkId()}`;
  await first.database.db.insert(payerAccounts).values({
    id: accountId,
    payerId: user.userId,
    institutionCode: '058',
    accountNumber: String(Math.floor(Math.random() * 1e10)).padStart(10, '0'),
    accountName: 'CHIAMAKA EZE',
    bankName: 'Guaranty Trust Bank',
    createdAt: now,
  });
  const cards = first.context.providers.payments.cards;
  if (!('chargeCard' in cards)) throw new Error('Cards are off');
  expect(cards.provider).toBe('paystack');
  const id = newLinkId();
  await first.database.db.insert(accountLinks).values({
    id,
    payerId: user.userId,
    accountId,
    route: 'card',
    state: 'created',
    testAmount,
    cardExpiryMonth: 12,
    cardExpiryYear: 2030,
    expiresAt: new Date(now.getTime() + 60 * 60 * 1000),
    createdAt: now,
    updatedAt: now,
  });
  await openLinkCharge(first.database.db, {
    link: { id, payerId: user.userId, cardExpiryMonth: 12, cardExpiryYear: 2030 },
    amount: testAmount,
    provider: cards.provider,
    now,
  });
  const outcome = await cards.chargeCard({
    reference: id,
    amount: testAmount,
    narration: 'Card linking test charge',
    card,
  });
  if (outcome.kind === 'three_ds_required') {
    await first.database.db
      .update(paymentAttempts)
      .set({ ...ATTEMPT_STATES.awaiting_3ds, providerReference: outcome.providerReference })
      .where(eq(paymentAttempts.id, id));
  }
  return { id, outcome };
}

const linkOf = async (id: string) => {
  const row = await cardLinkRow(first.database, id);
  if (!row) throw new Error(`No link ${id}`);
  return row;
};

/** A consent's payment and its merchant's terminal at Paystack Terminal, pushed there. */
async function pushedToPaystack(terminal: string) {
  paystack.addTerminal(terminal, { online: true });
  const consent = await consentWithPayment(first.app, first.database);
  const terminalId = `trm_${consent.paymentId}`;
  await first.database.db.insert(merchantTerminals).values({
    id: terminalId,
    merchantId: consent.client.merchantId,
    provider: 'paystack-terminal',
    terminalId: terminal,
    name: 'Till 1',
  });
  const pushed = await first.app.inject({
    method: 'POST',
    url: '/api/card-terminal/paystack/push',
    payload: { paymentId: consent.paymentId, consentId: consent.consentId, terminalId },
  });
  expect(pushed.statusCode, pushed.body).toBe(200);
  return consent;
}

const attemptsOf = (paymentId: string) =>
  first.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.paymentId, paymentId));

describe('a server restarted with cards and terminals on the sandbox after Paystack took link charges and pushes', () => {
  it('sends the requeries, the refunds, the withdrawal and the notices of Paystack’s rows to Paystack', async () => {
    // At Paystack: a link's charge taken whose answer was lost, one waiting at its check.
    const lost = await linkChargedAtPaystack(PAID, 300);
    expect(lost.outcome.kind).toBe('succeeded');
    const waiting = await linkChargedAtPaystack({ ...PAID, number: THREE_DS, pin: '' }, 400);
    expect(waiting.outcome.kind).toBe('three_ds_required');
    expect(await linkOf(waiting.id)).toMatchObject({
      chargeProvider: 'paystack',
      chargeStage: 'awaiting_3ds',
    });

    // At Paystack Terminal: one request called off whose withdrawal Paystack did not answer, and
    // one still on its terminal.
    const calledOff = await pushedToPaystack('SWROWS01');
    paystack.failNext('/paymentrequest/archive/', 500);
    clock.advance(PUSHED_TERMINAL_EXPIRY_MS + 1_000);
    await reconcileLostAttempts(first.context);
    expect(await attemptsOf(calledOff.paymentId)).toMatchObject([
      { provider: 'paystack-terminal', status: 'failed', failureCode: 'TERMINAL_TIMEOUT' },
    ]);
    expect(paystack.terminalShowing('SWROWS01')).not.toBeNull();
    const onTerminal = await pushedToPaystack('SWROWS02');

    await first.app.close();
    restarted = await secondServer(
      {
        database: first.database,
        config: testConfig({
          ...paystackEnv(),
          CARD_PROVIDERS: 'sandbox',
          TERMINAL_PROVIDER: 'sandbox',
        }),
      },
      clock,
    );
    const { app } = restarted;
    const { payments } = app.appContext.providers;
    expect([payments.cards.provider, payments.acquirer.provider]).toEqual(['sandbox', 'sandbox']);
    const listening = await app.listen({ port: 0, host: '127.0.0.1' });
    paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
    const since = paystack.requests.length;
    const toPaystack = (method: string, path: RegExp) =>
      paystack.requests.slice(since).filter((r) => r.method === method && path.test(r.path));
    const refundsOf = (reference: string) =>
      toPaystack('POST', /^\/refund$/).filter((r) =>
        JSON.stringify(r.body).includes(toPaystackReference(reference)),
      );
    const asked = (reference: string) =>
      toPaystack('GET', new RegExp(toPaystackReference(reference))).length;

    // The 3-D Secure sweep asks Paystack about the waiting link's charge.
    clock.advance(THREE_DS_ASK_AFTER_MS + 1_000);
    await expireThreeDsLinks(app.appContext);
    expect(asked(waiting.id)).toBeGreaterThan(0);
    expect((await linkOf(waiting.id)).chargeStage).toBe('awaiting_3ds');

    // The payer approves at Paystack: its notice ends the link, and the charge is refunded there.
    if (waiting.outcome.kind !== 'three_ds_required') throw new Error('Not waiting');
    await paystack.answerThreeDs(toPaystackReference(waiting.id), true);
    await paystack.idle();
    await expect.poll(async () => (await linkOf(waiting.id)).chargeStage).toBeNull();
    expect(refundsOf(waiting.id)).toHaveLength(1);
    expect(await ledgerKindsOfReference(first.database, waiting.id)).toEqual([
      'link_test_charge',
      'test_charge_refund',
    ]);

    // The link lost with its process: asked about at Paystack, its money given back there.
    clock.advance(app.appContext.config.reconcileAfterMs + 1_000);
    const swept = await reconcileLostLinkCharges(app.appContext);
    expect(swept.errors).toEqual([]);
    expect(swept.counts).toMatchObject({ given_back: 1 });
    expect(asked(lost.id)).toBeGreaterThan(0);
    expect(refundsOf(lost.id)).toHaveLength(1);
    expect(await linkOf(lost.id)).toMatchObject({ state: 'cancelled' });
    expect(await ledgerKindsOfReference(first.database, lost.id)).toEqual([
      'link_test_charge',
      'test_charge_refund',
    ]);

    // The request still on its terminal is paid there: Paystack's notice books it.
    await paystack.cardAtTerminal('SWROWS02', 'approved');
    await paystack.idle();
    await expect
      .poll(async () => (await attemptsOf(onTerminal.paymentId))[0]?.status)
      .toBe('completed');
    expect(await ledgerKinds(first.database, onTerminal.paymentId)).toEqual(['chip_card_payment']);

    // The called-off request is withdrawn at Paystack at the sweep's next ask.
    const archives = () => toPaystack('POST', /^\/paymentrequest\/archive\//).length;
    expect(archives()).toBe(0);
    clock.advance(CALLED_OFF_ASK_EVERY_MS + 1_000);
    const reconciled = await reconcileLostAttempts(app.appContext);
    expect(reconciled.errors).toEqual([]);
    expect(archives()).toBe(1);
    expect(paystack.terminalShowing('SWROWS01')).toBeNull();
  });
});

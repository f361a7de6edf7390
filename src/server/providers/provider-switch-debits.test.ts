// Saved accounts' debits move from Paystack to the sandbox: a server on Paystack linked two of a
// payer's accounts (mandates approved at the bank's page, Paystack's authorisations) and the
// payer granted a future payment from each; then the server restarted on the same database with
// PAYMENT_PROVIDER=sandbox. The account's OneTap payment and its future payment are still debited
// at Paystack, the provider the link names (account_links.debit_provider). A link that names no
// provider (one made before it was kept) is debited at none: its collection is skipped and
// counted unrouted, never sent to the sandbox. The books put the debit under Paystack, which took
// it, whatever other links its account had, and the merchant's refund of it goes to Paystack. On
// PGlite and on PostgreSQL.
import { eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountLinks,
  futurePaymentCollections,
  paymentRefunds,
  payments,
  sandboxDebits,
  smsQueue,
} from '../db/schema';
import { SANDBOX_PEOPLE } from '../sandbox/fixtures';
import { runCollections, scheduleAndNotify } from '../services/payments/collection-runner';
import { STALE_COLLECTION_MS } from '../services/payments/future-collections';
import { newLinkId } from '../services/linking/link-lifecycle';
import { checkLedger } from '../services/payments/ledger';
import { linksNamingNoDebitProvider, nameDebitProvider } from '../services/payments/mandate-debits';
import { verifyBvn } from '../testing/bvn';
import { oneTapGrant, payerWithPasskey } from '../testing/identity';
import { grantedWithSharing } from '../testing/payer-data';
import { resolveAccountName } from '../testing/paystack-simulator/banks';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../testing/paystack-simulator/paystack-simulator';
import { accountLinkRow, consentWithPayment, ledgerKinds } from '../testing/payments';
import { secondServer } from '../testing/second-server';
import { startTestApp, testClock, testConfig } from '../testing/test-app';
import { usable } from './off';
import { toPaystackReference } from './paystack/paystack-references';

const PAYSTACK_KEY = 'sk_test_switchdebits0000000000000000000';
const DAY = 24 * 60 * 60 * 1_000;
const clock = testClock(new Date());
/** The sandbox registry's demo payer, whose BVN the simulator's accounts are held under. */
const DEMO_PERSON = SANDBOX_PEOPLE[0] as { bvn: string; phoneNumber: string };
const ACCOUNTS = {
  kept: { institutionCode: '058', accountNumber: '0123456789' },
  unnamed: { institutionCode: '044', accountNumber: '0690000031' },
} as const;

let first: Awaited<ReturnType<typeof startTestApp>>;
/** The kept link's collection, debited at Paystack by the test that restarts the server. */
let collectedAtPaystack: { id: string; amount: number; link: TLink; payment: TGranted } | undefined;
let restarted: Awaited<ReturnType<typeof secondServer>>;
let paystack: TPaystackSimulator;
const paystackEnv = () => ({
  PAYMENT_PROVIDER: 'paystack',
  PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
  PAYSTACK_BASE_URL: paystack.url,
  // The simulator answers at once: a debit it says is pending is asked again soon.
  PAYSTACK_PENDING_CHECKS_MS: '20,200',
});

beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY, clock: () => clock.now() });
  first = await startTestApp({ clock, webhookDelivery: 'manual', env: paystackEnv() });
  const listening = await first.app.listen({ port: 0, host: '127.0.0.1' });
  paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
});
afterAll(async () => {
  await restarted?.close();
  await first.close();
  await paystack.close();
});

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>>;
type TLink = NonNullable<Awaited<ReturnType<typeof accountLinkRow>>>;
type TGranted = Awaited<ReturnType<typeof futureGranted>>;

/** The payer links `account` at Paystack and approves its mandate at the bank's page. */
async function linkAtPaystack(payer: TPayer, account: (typeof ACCOUNTS)[keyof typeof ACCOUNTS]) {
  const created = await first.app.inject({
    method: 'POST',
    url: '/api/account-links/create',
    headers: payer.headers,
    payload: {
      ...account,
      accountName: resolveAccountName(account.institutionCode, account.accountNumber) ?? '',
      bankName: 'Any Bank',
    },
  });
  expect(created.statusCode, created.body).toBe(200);
  const { id } = created.json<{ accountLink: { id: string } }>().accountLink;
  await paystack.idle();
  await paystack.answerMandate(
    (await accountLinkRow(first.database, id))?.providerReference ?? '',
    true,
  );
  await paystack.idle();
  const row = await accountLinkRow(first.database, id);
  expect(row).toMatchObject({ state: 'active', debitAuthorization: /^AUTH_/ });
  return row!;
}

/** A consent of a new merchant for a future payment due in a day, granted from `accountId`. */
async function futureGranted(payer: TPayer, accountId: string) {
  const { consentId, merchant } = await grantedWithSharing({
    app: first.app,
    database: first.database,
    payer,
    accountId,
    dueDate: new Date(clock.now().getTime() + DAY),
  });
  const [payment] = await first.database.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.consentId, consentId));
  return { id: payment!.id, merchant };
}

/** The collection of `paymentId` made, due now, and its payer's notice sent a day before. */
async function dueAndNoticed(paymentId: string) {
  const [noticed] = await first.database.db
    .update(futurePaymentCollections)
    .set({ notifiedAt: new Date(clock.now().getTime() - DAY), dueAt: clock.now() })
    .where(eq(futurePaymentCollections.paymentId, paymentId))
    .returning();
  expect(noticed?.noticeSmsId).toBeTruthy();
  await first.database.db
    .update(smsQueue)
    .set({ sentAt: new Date(clock.now().getTime() - DAY) })
    .where(eq(smsQueue.id, noticed!.noticeSmsId!));
  return noticed!;
}

describe('a server restarted with debits on the sandbox after Paystack took saved accounts’ mandates', () => {
  it('debits the linked account at Paystack, and a link naming no provider at none (unrouted)', async () => {
    const payer = await payerWithPasskey(first.app, first.config);
    await verifyBvn(first.app, payer.token, DEMO_PERSON);
    const kept = await linkAtPaystack(payer, ACCOUNTS.kept);
    const unnamed = await linkAtPaystack(payer, ACCOUNTS.unnamed);
    // Each link names the provider that debits it, as it was made.
    expect([kept.debitProvider, unnamed.debitProvider]).toEqual(['paystack', 'paystack']);
    const keptPayment = await futureGranted(payer, kept.accountId);
    const unnamedPayment = await futureGranted(payer, unnamed.accountId);
    await scheduleAndNotify(first.context);
    const keptCollection = await dueAndNoticed(keptPayment.id);
    const unnamedCollection = await dueAndNoticed(unnamedPayment.id);
    // A link made before its debit provider was kept, whose rows did not say who.
    await first.database.db
      .update(accountLinks)
      .set({ debitProvider: null })
      .where(eq(accountLinks.id, unnamed.id));

    await first.app.close();
    restarted = await secondServer(
      {
        database: first.database,
        config: testConfig({ ...paystackEnv(), PAYMENT_PROVIDER: 'sandbox' }),
      },
      clock,
    );
    const { app } = restarted;
    expect(usable(app.appContext.providers.payments.debits).provider).toBe('sandbox');
    const listening = await app.listen({ port: 0, host: '127.0.0.1' });
    paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
    const since = paystack.requests.length;
    const chargedAtPaystack = () =>
      paystack.requests
        .slice(since)
        .filter((r) => r.method === 'POST' && r.path === '/transaction/charge_authorization')
        .map((r) => (r.body as { reference: string }).reference);
    const sandboxDebitsOf = (collectionId: string) =>
      first.database.db
        .select()
        .from(sandboxDebits)
        .where(like(sandboxDebits.reference, `${collectionId}.%`));

    // The future payments fall due: the kept link's is collected at Paystack; the other is
    // skipped and counted, asked of no provider, and left for a later run.
    const run = await runCollections(app.appContext);
    expect(run).toMatchObject({ collected: 1, failed: 0, unrouted: 1 });
    expect(chargedAtPaystack()).toEqual([toPaystackReference(`${keptCollection.id}.0`)]);
    const collections = await first.database.db
      .select({ id: futurePaymentCollections.id, status: futurePaymentCollections.status })
      .from(futurePaymentCollections)
      .where(inArray(futurePaymentCollections.id, [keptCollection.id, unnamedCollection.id]));
    expect(Object.fromEntries(collections.map((c) => [c.id, c.status]))).toEqual({
      [keptCollection.id]: 'succeeded',
      [unnamedCollection.id]: 'collecting',
    });
    expect(await sandboxDebitsOf(unnamedCollection.id)).toEqual([]);
    expect(await sandboxDebitsOf(keptCollection.id)).toEqual([]);
    collectedAtPaystack = {
      id: keptCollection.id,
      amount: keptCollection.amount,
      link: kept,
      payment: keptPayment,
    };

    // OneTap from the kept link on the restarted server: debited at Paystack.
    const consent = await consentWithPayment(app, first.database, { requiresAuth: true });
    const granted = await oneTapGrant(app, payer, consent.consentId, kept.accountId);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ paymentResults: { total: 1, succeeded: 1 } });
    expect(chargedAtPaystack()).toHaveLength(2);
    expect(await ledgerKinds(first.database, consent.paymentId)).toEqual(['account_debit']);

    // The operator names the provider of the link that named none (npm run link:debit-provider):
    // once its claim is stale, the next run collects it there.
    expect(await linksNamingNoDebitProvider(first.database.db)).toMatchObject([{ id: unnamed.id }]);
    expect(await nameDebitProvider(first.database.db, unnamed.id, 'monnify')).toEqual({
      kind: 'not_a_debits_provider',
    });
    expect(await nameDebitProvider(first.database.db, unnamed.id, 'paystack')).toEqual({
      kind: 'named',
    });
    expect(await nameDebitProvider(first.database.db, unnamed.id, 'sandbox')).toEqual({
      kind: 'named_already',
      provider: 'paystack',
    });
    clock.advance(STALE_COLLECTION_MS + 1_000);
    expect(await runCollections(app.appContext)).toMatchObject({ collected: 1, unrouted: 0 });
    expect(chargedAtPaystack().at(-1)).toBe(toPaystackReference(`${unnamedCollection.id}.0`));
    expect(await sandboxDebitsOf(unnamedCollection.id)).toEqual([]);
  });

  // Goes on from the collections above.
  it('puts the debit under Paystack, which took it, though its account had a Remita mandate before', async () => {
    if (!collectedAtPaystack) throw new Error('The collection above was not debited');
    const { id, amount, link } = collectedAtPaystack;
    // A mandate Remita kept on the same account before, cancelled since: not the one debited.
    await first.database.db.insert(accountLinks).values({
      id: newLinkId(),
      payerId: link.payerId,
      accountId: link.accountId,
      route: 'auth_params',
      state: 'cancelled',
      mandateProvider: 'remita',
      debitProvider: 'remita',
      expiresAt: clock.now(),
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    const { settlement } = first.context.providers.payments;
    const checked = (lacking: string | null) =>
      checkLedger(first.database.db, {
        provider: {
          settlementReport: async () =>
            (await settlement.settlementReport()).filter((line) => line.reference !== lacking),
        },
      });
    expect((await checked(null)).providerDifferences).toEqual([]);
    // Paystack's record without the debit: the books hold it under Paystack.
    expect((await checked(`${id}.0`)).providerDifferences).toEqual([
      { holder: 'paystack', channel: 'debit', reference: `${id}.0`, provider: 0, books: amount },
    ]);
  });

  // Goes on from the collections above.
  it('refunds the future payment Paystack debited at Paystack, never at the sandbox', async () => {
    if (!collectedAtPaystack) throw new Error('The collection above was not debited');
    const { payment } = collectedAtPaystack;
    const since = paystack.requests.length;
    const refunded = await restarted.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${payment.id}/refunds`,
      headers: { authorization: payment.merchant.authorization },
      payload: { amount: 100_000 },
    });
    expect(refunded.statusCode, refunded.body).toBeLessThan(300);
    const asked = paystack.requests
      .slice(since)
      .filter((r) => r.method === 'POST' && r.path === '/refund');
    expect(asked).toHaveLength(1);
    const refunds = () =>
      first.database.db
        .select({ provider: paymentRefunds.provider, status: paymentRefunds.status })
        .from(paymentRefunds)
        .where(eq(paymentRefunds.paymentId, payment.id));
    // Paystack's word that it refunded comes by its notice; booked, the books balance at close.
    await paystack.idle();
    await expect.poll(refunds).toEqual([{ provider: 'paystack', status: 'processed' }]);
  });
});

// Remita's give-backs move from Paystack's payouts to the sandbox's: a server with
// MANDATE_PROVIDER=remita and payouts on Paystack gave back a debit Remita took (Remita gives
// none back itself: a payout to the debited account does), then the server restarted on the
// same database with PAYOUT_PROVIDERS=sandbox. The requery of that give-back, and the give-back
// sent again, still go to Paystack, the payouts provider kept for it (provider_references): the
// simulator's requests and the sandbox's books show it. A debit never given back is asked of no
// payouts provider, and its give-back then goes to the sandbox. Restarted again with
// MANDATE_PROVIDERS=sandbox, the settlement report still holds the debits Remita took on the
// mandates it keeps, asked of Remita. On PGlite and on PostgreSQL.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../db/database';
import { accountLinks, payerAccounts, payers, paymentAttempts, sandboxPayouts } from '../db/schema';
import { newLinkId } from '../services/linking/link-lifecycle';
import { consentWithPayment } from '../testing/payments';
import { SANDBOX_ACCOUNTS } from '../sandbox/fixtures';
import { resolveAccountName } from '../testing/paystack-simulator/banks';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../testing/paystack-simulator/paystack-simulator';
import {
  remitaSimulatorEnv,
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../testing/remita-simulator/remita-simulator';
import { secondServer } from '../testing/second-server';
import { openTestDatabase, testClock, testConfig } from '../testing/test-app';
import { contractMandateTerms, contractReference } from './contract/contract-references';
import { usable } from './off';
import { toPaystackReference } from './paystack/paystack-references';
import { giveBackReference } from './remita/remita-debits';

const PAYSTACK_KEY = 'sk_test_switchgivebacks0000000000000000';
const clock = testClock(new Date());
const PAYER = { id: 'pyr_give_back', fullName: 'Adaeze Okafor', phoneNumber: '+2348030000001' };
/** An account Paystack's simulator pays out to, and one the sandbox bank holds. */
const AT_PAYSTACK = {
  institutionCode: '058',
  accountNumber: '0123456789',
  accountName: resolveAccountName('058', '0123456789') ?? '',
};
const SANDBOX_HELD = SANDBOX_ACCOUNTS.find((a) => a.scenario === 'links_by_test_transfer');
const AT_SANDBOX = {
  institutionCode: SANDBOX_HELD?.institutionCode ?? '',
  accountNumber: SANDBOX_HELD?.accountNumber ?? '',
  accountName: SANDBOX_HELD?.accountName ?? '',
};
type TAccount = typeof AT_PAYSTACK;

let paystack: TPaystackSimulator;
let remita: TRemitaSimulator;
let database: TDatabase;
let first: Awaited<ReturnType<typeof secondServer>>;
let restarted: Awaited<ReturnType<typeof secondServer>> | undefined;
const env = () => ({
  PAYMENT_PROVIDER: 'paystack',
  PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
  PAYSTACK_BASE_URL: paystack.url,
  ...remitaSimulatorEnv(remita),
});

beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY, clock: () => clock.now() });
  remita = await startRemitaSimulator();
  for (const account of [AT_PAYSTACK, AT_SANDBOX]) {
    remita.accounts.push({
      bankCode: account.institutionCode,
      accountNumber: account.accountNumber,
      balanceKobo: 10_000_000,
      activation: 'branch',
      cardLast4: account.accountNumber.slice(-4),
    });
  }
  database = await openTestDatabase();
  first = await secondServer({ database, config: testConfig(env()) }, clock);
});
afterAll(async () => {
  await restarted?.close();
  await first.close();
  await database.close();
  await paystack.close();
  await remita.close();
});

/** The mandates Remita keeps, as the app's registry reaches them. */
function remitaOf(app: FastifyInstance) {
  const own = app.appContext.providers.registry.byName('remita', 'debits').mandates?.own;
  if (!own) throw new Error('Remita keeps no mandates on this server');
  return own;
}

/** A debit of 250,000 kobo Remita took from `account` on a paper mandate activated at its bank. */
async function debitTaken(app: FastifyInstance, account: TAccount) {
  const own = remitaOf(app);
  const mandate = await own.openPaperMandate({
    reference: contractReference(),
    institutionCode: account.institutionCode,
    accountNumber: account.accountNumber,
    payer: PAYER,
    terms: contractMandateTerms(),
  });
  remita.activateAtBank(mandate.providerReference);
  const reference = contractReference();
  const debit = await own.debits.debitAccount({
    reference,
    mandateReference: mandate.providerReference,
    payerId: PAYER.id,
    institutionCode: account.institutionCode,
    accountNumber: account.accountNumber,
    amount: 250_000,
    narration: 'Membership',
  });
  if (debit.kind !== 'succeeded') throw new Error(`Remita did not take the debit: ${debit.kind}`);
  return {
    reference,
    mandate: mandate.providerReference,
    reversal: { providerReference: debit.providerReference, reference, account },
  };
}

/** Paystack's requests since `since` that name the payout `reference`. */
const atPaystack = (since: number, reference: string) =>
  paystack.requests
    .slice(since)
    .filter(
      (r) =>
        r.path.includes(toPaystackReference(reference)) ||
        (r.body as { reference?: string } | undefined)?.reference ===
          toPaystackReference(reference),
    )
    .map((r) => `${r.method} ${r.path}`);

const sandboxPayoutsOf = (reference: string) =>
  database.db
    .select({ outcome: sandboxPayouts.outcome, amount: sandboxPayouts.amount })
    .from(sandboxPayouts)
    .where(eq(sandboxPayouts.reference, reference));

describe('a server restarted with PAYOUT_PROVIDERS=sandbox after Paystack paid a Remita give-back', () => {
  it('asks Paystack about the give-back it paid, and sends it again there, never to the sandbox', async () => {
    expect(usable(first.app.appContext.providers.payments.payouts).provider).toBe('paystack');
    const taken = await debitTaken(first.app, AT_PAYSTACK);
    const back = giveBackReference(taken.reference);
    expect(await remitaOf(first.app).debits.reverseDebit(taken.reversal)).toEqual({
      reversed: true,
      payoutReference: back,
    });
    expect(atPaystack(0, back)).toContain('POST /transfer');

    await first.app.close();
    restarted = await secondServer(
      { database, config: testConfig({ ...env(), PAYOUT_PROVIDERS: 'sandbox' }) },
      clock,
    );
    const { app } = restarted;
    expect(usable(app.appContext.providers.payments.payouts).provider).toBe('sandbox');
    const since = paystack.requests.length;

    // Asked about: Paystack, which paid it, says it was given back.
    expect(await remitaOf(app).debits.requeryDebit(taken.reference, taken.mandate)).toMatchObject({
      kind: 'taken',
      amount: 250_000,
      givenBack: true,
    });
    expect(atPaystack(since, back)).toEqual([`GET /transfer/verify/${toPaystackReference(back)}`]);

    // Sent again (its answer lost, say): to Paystack, which answers the first payout.
    expect(await remitaOf(app).debits.reverseDebit(taken.reversal)).toEqual({
      reversed: true,
      payoutReference: back,
    });
    expect(atPaystack(since, back)).toContain('POST /transfer');
    expect(await sandboxPayoutsOf(back)).toEqual([]);
  });

  // Goes on from the restart above.
  it('asks no payouts provider about a debit never given back, then gives it back by the sandbox', async () => {
    if (!restarted) throw new Error('The server above did not restart');
    const { debits } = remitaOf(restarted.app);
    const taken = await debitTaken(restarted.app, AT_SANDBOX);
    const back = giveBackReference(taken.reference);
    const since = paystack.requests.length;

    expect(await debits.requeryDebit(taken.reference, taken.mandate)).toMatchObject({
      kind: 'taken',
      givenBack: false,
    });
    // The sandbox was not asked: asked, it would have closed the reference the give-back needs.
    expect(await sandboxPayoutsOf(back)).toEqual([]);

    expect(await debits.reverseDebit(taken.reversal)).toEqual({
      reversed: true,
      payoutReference: back,
    });
    expect(await sandboxPayoutsOf(back)).toEqual([{ outcome: 'succeeded', amount: 250_000 }]);
    expect(await debits.requeryDebit(taken.reference, taken.mandate)).toMatchObject({
      givenBack: true,
    });
    expect(atPaystack(since, back)).toEqual([]);
  });

  // Goes on from the restart above.
  it('still reports the debits Remita took once MANDATE_PROVIDERS names only the sandbox', async () => {
    if (!restarted) throw new Error('The server above did not restart');
    const taken = await debitTaken(restarted.app, AT_SANDBOX);
    await recordedAsPaid(restarted.app, taken);

    await restarted.close();
    restarted = await secondServer(
      {
        database,
        config: testConfig({ ...env(), PAYOUT_PROVIDERS: 'sandbox', MANDATE_PROVIDERS: 'sandbox' }),
      },
      clock,
    );
    const { providers } = restarted.app.appContext;
    expect(usable(providers.payments.mandates).provider).toBe('sandbox');
    const lines = await providers.payments.settlement.settlementReport();
    expect(lines.filter((line) => line.reference === taken.reference)).toEqual([
      {
        channel: 'debit',
        reference: taken.reference,
        amount: 250_000,
        givenBack: false,
        provider: 'remita',
      },
    ]);
  });
});

/**
 * The rows of a saved-account payment whose debit Remita took (`taken`): the payer's account,
 * its link on Remita's mandate, and the completed attempt the debit's reference is.
 */
async function recordedAsPaid(app: FastifyInstance, taken: Awaited<ReturnType<typeof debitTaken>>) {
  const { account } = taken.reversal;
  const now = clock.now();
  const accountId = `acc_${taken.reference}`;
  await database.db.insert(payers).values(PAYER).onConflictDoNothing();
  await database.db
    .insert(payerAccounts)
    .values({ id: accountId, payerId: PAYER.id, ...account, bankName: 'Any Bank' });
  await database.db.insert(accountLinks).values({
    id: newLinkId(),
    payerId: PAYER.id,
    accountId,
    route: 'auth_params',
    state: 'active',
    mandateProvider: 'remita',
    debitProvider: 'remita',
    debitAuthorization: taken.mandate,
    activatedAt: now,
    expiresAt: now,
    createdAt: now,
    updatedAt: now,
  });
  const paid = await consentWithPayment(app, database, { amount: 250_000 });
  await database.db.insert(paymentAttempts).values({
    id: taken.reference,
    paymentId: paid.paymentId,
    consentId: paid.consentId,
    method: 'account',
    status: 'completed',
    amount: 250_000,
    payerId: PAYER.id,
    provider: 'remita',
    debitAccountId: accountId,
  });
}

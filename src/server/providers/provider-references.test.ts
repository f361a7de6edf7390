// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { TEST_OTP } from '../testing/monnify-simulator/collections';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from '../testing/monnify-simulator/monnify-simulator';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../testing/paystack-simulator/paystack-simulator';
import {
  REMITA_SIM_ACCOUNTS,
  remitaSimulatorCredentials,
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../testing/remita-simulator/remita-simulator';
import { onePayoutsPort } from '../testing/one-payouts-port';
import { openTestDatabase } from '../testing/test-app';
import {
  contractMandateTerms,
  contractReference as reference,
} from './contract/contract-references';
import { monnifyProvider } from './monnify/monnify-provider';
import type { TPayoutsPort, TPlainCard } from './payments';
import { paystackProvider } from './paystack/paystack-provider';
import { fromPaystackReference, toPaystackReference } from './paystack/paystack-references';
import { remitaProvider } from './remita/remita-provider';

// What an adapter knows of its references is the database's (provider-references.ts), not one
// process's: ROLE=api runs several processes on one database. Two adapters on one database stand
// for two processes here: what one closed, opened or left waiting for its payer, the other sees,
// and acts on as the first would have.

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let paystack: TPaystackSimulator;
let remita: TRemitaSimulator;
let monnify: TMonnifySimulator;

beforeAll(async () => {
  database = await openTestDatabase();
  paystack = await startPaystackSimulator({});
  remita = await startRemitaSimulator();
  monnify = await startMonnifySimulator();
});
afterAll(async () => {
  await paystack.close();
  await remita.close();
  await monnify.close();
  await database.close();
});

const paystackProcess = () =>
  paystackProvider({
    secretKey: paystack.secretKey,
    baseUrl: paystack.url,
    db: database.db,
    clock: systemClock,
    pendingCheckDelaysMs: [20, 200],
    readRetryDelaysMs: [20],
  });

const requestsTo = (method: string, path: string) =>
  paystack.requests.filter((r) => r.method === method && r.path.startsWith(path));

/** Charges a Paystack test card under our reference in one process. */
const chargeIn = (
  process: ReturnType<typeof paystackProcess>,
  ref: string,
  card: { number: string; cvv: string; pin: string | null },
) =>
  process.cards.chargeCard({
    reference: ref,
    amount: 250_000,
    narration: 'Order 59',
    card: { ...card, expiry: '12/35' },
  });

const charged = (ref: string) => (r: { body: unknown }) =>
  (r.body as { reference?: string } | null)?.reference === toPaystackReference(ref);

describe('Paystack in two processes on one database', () => {
  it('refuses in one a charge under a reference the other closed by its requery', async () => {
    const [first, second] = [paystackProcess(), paystackProcess()];
    const ref = reference();
    expect(await first.cards.requeryCardCharge(ref)).toMatchObject({ kind: 'not_taken' });
    expect(
      await chargeIn(second, ref, { number: '4084084084084081', cvv: '408', pin: null }),
    ).toMatchObject({ kind: 'failed', reason: 'expired' });
    expect(requestsTo('POST', '/charge').filter(charged(ref))).toEqual([]);
  });

  it('reads a 3-D Secure check declined as such in the process that did not charge', async () => {
    const [first, second] = [paystackProcess(), paystackProcess()];
    const ref = reference();
    const outcome = await chargeIn(first, ref, {
      number: '4084080000000409',
      cvv: '000',
      pin: null,
    });
    if (outcome.kind !== 'three_ds_required')
      throw new Error(`expected 3-D Secure: ${outcome.kind}`);
    await paystack.answerThreeDs(outcome.providerReference, false);
    expect(fromPaystackReference(outcome.providerReference)).toBe(ref);
    // Only the charge's step, kept where both see it, tells a declined check from a decline.
    expect(await second.cards.requeryCardCharge(ref)).toMatchObject({
      kind: 'not_taken',
      reason: 'three_ds_declined',
    });
  });

  it('takes the OTP in one of a charge the other started, without asking Paystack where it waits', async () => {
    const [first, second] = [paystackProcess(), paystackProcess()];
    const ref = reference();
    const outcome = await chargeIn(first, ref, {
      number: '507850785078507812',
      cvv: '081',
      pin: '1111',
    });
    if (outcome.kind !== 'otp_required') throw new Error(`expected an OTP: ${outcome.kind}`);
    const looks = requestsTo('GET', `/charge/${outcome.providerReference}`).length;
    expect(
      await second.cards.submitCardOtp({
        providerReference: outcome.providerReference,
        otp: '123456',
      }),
    ).toMatchObject({ kind: 'succeeded' });
    expect(requestsTo('GET', `/charge/${outcome.providerReference}`)).toHaveLength(looks);
  });

  it('answers in one the one-time account the other opened, opening no second', async () => {
    const [first, second] = [paystackProcess(), paystackProcess()];
    const ref = reference();
    const request = { reference: ref, amount: 500_000, accountName: 'Tola Stores / Oya Money' };
    const opened = await first.transfersIn.openTransferAccount(request);
    expect(await second.transfersIn.openTransferAccount(request)).toEqual(opened);
    expect(opened.expiresAt).toBeInstanceOf(Date);
    expect(requestsTo('POST', '/charge').filter(charged(ref))).toHaveLength(1);
  });
});

const noPayouts: TPayoutsPort = {
  provider: 'none',
  payOut: () => Promise.reject(new Error('No payout here')),
  requeryPayout: () => Promise.reject(new Error('No payout here')),
};

const remitaProcess = () =>
  remitaProvider({
    credentials: remitaSimulatorCredentials(remita),
    db: database.db,
    clock: systemClock,
    payouts: onePayoutsPort(noPayouts),
    pendingCheckDelaysMs: [],
  });

describe('Remita in two processes on one database', () => {
  it('refuses in one a debit under a reference the other closed by its requery', async () => {
    const account = REMITA_SIM_ACCOUNTS.find((a) => a.activation === 'branch');
    if (!account) throw new Error('The simulator has no branch-only account');
    const [first, second] = [remitaProcess(), remitaProcess()];
    const mandate = await first.own.openPaperMandate({
      reference: reference(),
      institutionCode: account.bankCode,
      accountNumber: account.accountNumber,
      payer: { id: 'pyr_two', fullName: 'Adaeze Okafor', phoneNumber: '+2348030000001' },
      terms: contractMandateTerms(),
    });
    remita.activateAtBank(mandate.providerReference);
    const ref = reference();
    expect(await first.own.debits.requeryDebit(ref, mandate.providerReference)).toMatchObject({
      kind: 'not_taken',
    });
    const sent = remita.requests.length;
    expect(
      await second.own.debits.debitAccount({
        reference: ref,
        mandateReference: mandate.providerReference,
        payerId: 'pyr_two',
        institutionCode: account.bankCode,
        accountNumber: account.accountNumber,
        amount: 100_000,
        narration: 'Membership',
      }),
    ).toMatchObject({ kind: 'failed', reason: 'expired' });
    expect(remita.requests.slice(sent)).toEqual([]);
  });
});

/** A Monnify adapter as one process runs it; `clock` where each must compute its own times. */
const monnifyProcess = (clock = systemClock) =>
  monnifyProvider({
    apiKey: monnify.apiKey,
    secretKey: monnify.secretKey,
    contractCode: monnify.contractCode,
    baseUrl: monnify.url,
    walletAccountNumber: monnify.walletAccountNumber,
    db: database.db,
    clock,
    readRetryDelaysMs: [20],
  });

/** The POSTs Monnify received to `path` whose body names `value` as its `field`. */
const monnifyPosts = (path: string, field: string, value: string) =>
  monnify.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === path &&
      (r.body as Record<string, unknown> | null)?.[field] === value,
  );

const INIT_TRANSACTION = '/api/v1/merchant/transactions/init-transaction';

/** Charges one of Monnify's test cards under our reference in one process. */
const monnifyCharge = (
  process: ReturnType<typeof monnifyProcess>,
  ref: string,
  card: Pick<TPlainCard, 'number' | 'pin'>,
) =>
  process.cards.chargeCard({
    reference: ref,
    amount: 250_000,
    narration: 'Order 60',
    card: { ...card, expiry: '12/35', cvv: '123' },
  });

describe('Monnify in two processes on one database', () => {
  it('refuses in one a charge under a reference the other closed by its requery', async () => {
    const [first, second] = [monnifyProcess(), monnifyProcess()];
    const ref = reference();
    expect(await first.cards.requeryCardCharge(ref)).toMatchObject({
      kind: 'not_taken',
      reason: 'never arrived',
    });
    expect(
      await monnifyCharge(second, ref, { number: '4111111111111111', pin: '1234' }),
    ).toMatchObject({ kind: 'failed', providerReference: null, reason: 'expired' });
    expect(monnifyPosts(INIT_TRANSACTION, 'paymentReference', ref)).toEqual([]);
  });

  it('refuses in one a payout under a reference the other closed by its requery', async () => {
    const [first, second] = [monnifyProcess(), monnifyProcess()];
    if (!first.payouts || !second.payouts) throw new Error('Monnify offers payouts with a wallet');
    const ref = reference();
    expect(await first.payouts.requeryPayout(ref)).toMatchObject({ kind: 'not_taken' });
    expect(
      await second.payouts.payOut({
        reference: ref,
        institutionCode: '058',
        accountNumber: '0123456789',
        accountName: 'ADAEZE OKAFOR',
        amount: 10_000,
        narration: 'Release',
      }),
    ).toMatchObject({ kind: 'failed', providerReference: null, reason: 'expired' });
    expect(monnifyPosts('/api/v2/disbursements/single', 'reference', ref)).toEqual([]);
  });

  it('takes the OTP in one of a charge the other started, by the OTP id it was given', async () => {
    const [first, second] = [monnifyProcess(), monnifyProcess()];
    const outcome = await monnifyCharge(first, reference(), {
      number: '5060995994247093',
      pin: '1234',
    });
    if (outcome.kind !== 'otp_required') throw new Error(`expected an OTP: ${outcome.kind}`);
    expect(
      await second.cards.submitCardOtp({
        providerReference: outcome.providerReference,
        otp: TEST_OTP,
      }),
    ).toMatchObject({ kind: 'succeeded', providerReference: outcome.providerReference });
    expect(
      monnifyPosts(
        '/api/v1/merchant/cards/otp/authorize',
        'transactionReference',
        outcome.providerReference,
      ),
    ).toHaveLength(1);
  });

  it('reads a 3-D Secure check declined as such in the process that did not charge', async () => {
    const [first, second] = [monnifyProcess(), monnifyProcess()];
    const ref = reference();
    const outcome = await monnifyCharge(first, ref, { number: '4000000000000002', pin: null });
    if (outcome.kind !== 'three_ds_required')
      throw new Error(`expected 3-D Secure: ${outcome.kind}`);
    await monnify.answerThreeDs(
      new URL(outcome.challengeUrl).pathname.split('/').pop() ?? '',
      false,
    );
    // Only the charge's step, kept where both see it, tells a declined check from a decline.
    expect(await second.cards.requeryCardCharge(ref)).toMatchObject({
      kind: 'not_taken',
      reason: 'three_ds_declined',
    });
  });

  it('answers in one the one-time account the other opened, opening no second', async () => {
    const [first, second] = [monnifyProcess(), monnifyProcess()];
    const ref = reference();
    const request = { reference: ref, amount: 500_000, accountName: 'Tola Stores / Oya Money' };
    const opened = await first.transfersIn.openTransferAccount(request);
    expect(await second.transfersIn.openTransferAccount(request)).toEqual(opened);
    expect(opened.expiresAt).toBeInstanceOf(Date);
    expect(monnifyPosts(INIT_TRANSACTION, 'paymentReference', ref)).toHaveLength(1);
  });

  it('gives two processes asking at once one account, expiry and all', async () => {
    // Each process's clock runs a minute on at every look, so each computes its own expiry.
    const ticking = (start: number) => ({ now: () => new Date((start += 60_000)) });
    const [first, second] = [
      monnifyProcess(ticking(Date.now())),
      monnifyProcess(ticking(Date.now())),
    ];
    const request = { reference: reference(), amount: 500_000, accountName: 'Tola Stores' };
    const [one, other] = await Promise.all([
      first.transfersIn.openTransferAccount(request),
      second.transfersIn.openTransferAccount(request),
    ]);
    expect(other).toEqual(one);
  });
});

// The Remita adapter's calls about its own mandates beyond the capabilities' suites
// (remita.contract.test.ts), against the Remita simulator: what a mandate is set up to allow,
// and how a stop is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { onePayoutsPort } from '../../testing/one-payouts-port';
import { openTestDatabase } from '../../testing/test-app';
import {
  REMITA_SIM_ACCOUNTS,
  remitaSimulatorCredentials,
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../../testing/remita-simulator/remita-simulator';
import {
  contractMandateTerms,
  contractReference as reference,
} from '../contract/contract-references';
import { remitaProvider } from './remita-provider';

let simulator: TRemitaSimulator;
let remita: ReturnType<typeof remitaProvider>;
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
  simulator = await startRemitaSimulator();
  remita = remitaProvider({
    credentials: remitaSimulatorCredentials(simulator),
    db: database.db,
    clock: systemClock,
    payouts: onePayoutsPort({
      provider: 'unused',
      payOut: () => Promise.reject(new Error('No payout here')),
      requeryPayout: () => Promise.reject(new Error('No payout here')),
    }),
    // The simulator's bank decides a debit at the first ask about it.
    pendingCheckDelaysMs: [],
  });
});
afterAll(async () => {
  await simulator.close();
  await database.close();
});

const PAYER = { id: 'pyr_remita', fullName: 'Adaeze Okafor', phoneNumber: '+2348030000001' };
const BRANCH_ACCOUNT = REMITA_SIM_ACCOUNTS.find((a) => a.activation === 'branch');
const OTP_ACCOUNT = REMITA_SIM_ACCOUNTS.find((a) => a.activation === 'otp');

/** A mandate on the printable form, never activated at the bank: its reference and id. */
async function paperMandate(terms = contractMandateTerms()) {
  if (!BRANCH_ACCOUNT) throw new Error('The simulator has no branch-only account');
  const ref = reference();
  const opened = await remita.own.openPaperMandate({
    reference: ref,
    institutionCode: BRANCH_ACCOUNT.bankCode,
    accountNumber: BRANCH_ACCOUNT.accountNumber,
    payer: PAYER,
    terms,
  });
  return { reference: ref, providerReference: opened.providerReference };
}

describe('stopping a Remita mandate', () => {
  it('reads a stop of an active mandate as stopped, now and when asked again', async () => {
    const mandate = await paperMandate();
    simulator.activateAtBank(mandate.providerReference);
    expect(await remita.own.stopMandate(mandate)).toBe('stopped');
    // 066 Mandate Deactivated: stopped before.
    expect(await remita.own.stopMandate(mandate)).toBe('stopped');
    expect(simulator.mandateOf(mandate.reference)?.state).toBe('stopped');
  });

  it('reads 061 on a mandate Remita holds inactive as not active, having asked its status', async () => {
    const mandate = await paperMandate();
    expect(await remita.own.stopMandate(mandate)).toBe('not_active');
    expect(simulator.requests.at(-2)?.path).toBe('stop');
    expect(simulator.requests.at(-1)).toMatchObject({
      path: 'status',
      body: { mandateId: mandate.providerReference, requestId: mandate.reference },
    });
  });

  it('does not read 061 as stopped when Remita knows no mandate by the reference', async () => {
    const mandate = await paperMandate();
    simulator.activateAtBank(mandate.providerReference);
    await expect(
      remita.own.stopMandate({ ...mandate, reference: `${mandate.reference}-other` }),
    ).rejects.toThrow(/knows no mandate/);
    expect(simulator.mandateOf(mandate.reference)?.state).toBe('active');
  });
});

describe('setting up a Remita mandate', () => {
  const DAY = 24 * 60 * 60_000;

  it('asks Remita for exactly what the consent grants: its largest debit, its debits a month, its dates', async () => {
    if (!OTP_ACCOUNT) throw new Error('The simulator has no OTP account');
    const ref = reference();
    const mandate = await remita.requestAltMandate({
      reference: ref,
      institutionCode: OTP_ACCOUNT.bankCode,
      accountNumber: OTP_ACCOUNT.accountNumber,
      payer: PAYER,
      terms: {
        maxDebitKobo: 200_050,
        maxDebitsPerMonth: 2,
        startsAt: new Date('2026-12-01T10:00:00Z'),
        // 23:30 UTC is the next day in Lagos.
        endsAt: new Date('2027-02-28T23:30:00Z'),
      },
    });
    expect(mandate).not.toBeNull();
    const setup = simulator.requests.find(
      (r) => r.path === 'setup' && (r.body as { requestId?: string }).requestId === ref,
    );
    expect(setup?.body).toMatchObject({
      amount: '2000.50',
      maxNoOfDebits: '2',
      startDate: '01/12/2026',
      endDate: '01/03/2027',
      mandateType: 'DD',
    });
  });

  it('has the simulator refuse a debit above the mandate’s amount, or past its debits a month', async () => {
    if (!OTP_ACCOUNT) throw new Error('The simulator has no OTP account');
    const now = new Date();
    const mandate = await paperMandate({
      maxDebitKobo: 200_000,
      maxDebitsPerMonth: 1,
      startsAt: now,
      endsAt: new Date(now.getTime() + 40 * DAY),
    });
    simulator.activateAtBank(mandate.providerReference);
    const debit = (amount: number) =>
      remita.own.debits.debitAccount({
        reference: reference(),
        mandateReference: mandate.providerReference,
        payerId: PAYER.id,
        institutionCode: BRANCH_ACCOUNT?.bankCode ?? '',
        accountNumber: BRANCH_ACCOUNT?.accountNumber ?? '',
        amount,
        narration: 'Membership',
      });
    expect(await debit(200_001)).toMatchObject({ kind: 'failed' });
    expect(await debit(200_000)).toMatchObject({ kind: 'succeeded' });
    expect(await debit(100_000)).toMatchObject({ kind: 'failed' });
    expect(simulator.debitsTaken().filter((d) => d.amountKobo !== 200_000)).toEqual([]);
  });

  it('has the simulator refuse a debit past the mandate’s end date (063 Expired Mandate)', async () => {
    const now = new Date();
    const mandate = await paperMandate({
      maxDebitKobo: 200_000,
      maxDebitsPerMonth: 4,
      startsAt: now,
      endsAt: now,
    });
    simulator.activateAtBank(mandate.providerReference);
    simulator.useClock(() => new Date(now.getTime() + 2 * DAY));
    try {
      const answer = await remita.own.debits.debitAccount({
        reference: reference(),
        mandateReference: mandate.providerReference,
        payerId: PAYER.id,
        institutionCode: BRANCH_ACCOUNT?.bankCode ?? '',
        accountNumber: BRANCH_ACCOUNT?.accountNumber ?? '',
        amount: 100_000,
        narration: 'Membership',
      });
      expect(answer).toMatchObject({ kind: 'failed' });
      // Refused at the send, which the status asked after it confirms: no debit was kept.
      expect(simulator.requests.slice(-2).map((r) => r.path)).toEqual([
        'payment/send',
        'payment/status',
      ]);
    } finally {
      simulator.useClock(() => new Date());
    }
  });
});

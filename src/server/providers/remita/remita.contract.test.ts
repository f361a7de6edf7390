import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { onePayoutsPort } from '../../testing/one-payouts-port';
import { openTestDatabase } from '../../testing/test-app';
import {
  remitaSimulatorCredentials,
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../../testing/remita-simulator/remita-simulator';
import { contractMandateTerms, contractReference } from '../contract/contract-references';
import { debitsContract, type TMandatedAccount } from '../contract/debits.contract';
import { mandateSetupContract } from '../contract/mandate-setup.contract';
import type { TPayoutsPort, TSettlementPort } from '../payments';
import { giveBackReference, REMITA_DEBIT_PENDING_MS } from './remita-debits';
import { remitaProvider } from './remita-provider';

/*
 * The Remita adapter through the suites of the capabilities it offers (mandate setup, and the
 * debits on its own mandates), against the Remita simulator (testing/remita-simulator). Remita
 * gives a taken debit back by a payout, here a recording stand-in; it keeps no settlement report
 * by our reference, so the debits' suite reads the simulator's own record of the debits taken.
 */

let simulator: TRemitaSimulator | undefined;
const paidOut = new Map<string, number>();

const payouts: TPayoutsPort = {
  provider: 'recording',
  payOut: async ({ reference, amount }) => {
    paidOut.set(reference, amount);
    return { kind: 'succeeded', providerReference: `po_${reference}` };
  },
  requeryPayout: async (reference) => {
    const amount = paidOut.get(reference);
    return amount === undefined
      ? { kind: 'not_taken', providerReference: null, reason: 'never sent' }
      : { kind: 'taken', providerReference: `po_${reference}`, amount, givenBack: false };
  },
};

let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined;

const started = async () => {
  simulator ??= await startRemitaSimulator();
  database ??= await openTestDatabase();
  const remita = remitaProvider({
    credentials: remitaSimulatorCredentials(simulator),
    db: database.db,
    clock: systemClock,
    payouts: onePayoutsPort(payouts),
    // The simulator's bank decides a debit at the first ask about it.
    pendingCheckDelaysMs: [],
  });
  return { simulator, remita };
};

beforeAll(started);
afterAll(async () => {
  await simulator?.close();
  await database?.close();
});

const PAYER = { id: 'pyr_remita', fullName: 'Adaeze Okafor', phoneNumber: '+2348030000001' };

/** A mandate set up on a simulator account and activated by its OTP and card digits. */
async function activeMandate(index: number): Promise<TMandatedAccount> {
  const { simulator: sim, remita } = await started();
  const account = sim.accounts[index];
  if (!account) throw new Error(`No simulator account ${index}`);
  const mandate = await remita.requestAltMandate({
    reference: contractReference(),
    institutionCode: account.bankCode,
    accountNumber: account.accountNumber,
    payer: PAYER,
    terms: contractMandateTerms(),
  });
  if (!mandate?.providerReference) throw new Error('Remita set up no mandate');
  const { verified } = await remita.verifyAltMandate({
    authReference: mandate.authReference,
    reference: mandate.requestId,
    providerReference: mandate.providerReference,
    institutionCode: account.bankCode,
    accountNumber: account.accountNumber,
    answers: [
      { param: 'OTP', value: sim.otp },
      { param: 'CARD', value: account.cardLast4 },
    ],
  });
  if (!verified) throw new Error('The mandate was not activated');
  return {
    institutionCode: account.bankCode,
    accountNumber: account.accountNumber,
    mandateReference: mandate.providerReference,
    payerId: PAYER.id,
  };
}

mandateSetupContract('remita (simulator)', async () => {
  const { simulator: sim, remita } = await started();
  const [otpAccount, , branchAccount] = sim.accounts;
  if (!otpAccount || !branchAccount) throw new Error('The simulator has no accounts');
  return {
    provider: remita,
    altAccount: {
      institutionCode: otpAccount.bankCode,
      accountNumber: otpAccount.accountNumber,
      answers: [
        { param: 'OTP', value: sim.otp },
        { param: 'CARD', value: otpAccount.cardLast4 },
      ],
    },
    // Its bank activates mandates only at the branch: no auth parameters.
    notAltAccount: {
      institutionCode: branchAccount.bankCode,
      accountNumber: branchAccount.accountNumber,
    },
  };
});

debitsContract('remita (simulator)', async () => {
  const { simulator: sim, remita } = await started();
  const settlement: TSettlementPort = {
    provider: 'remita',
    settlementReport: async () =>
      sim.debitsTaken().map(({ requestId, amountKobo }) => ({
        channel: 'debit' as const,
        reference: requestId,
        amount: amountKobo,
        givenBack: paidOut.has(giveBackReference(requestId)),
      })),
  };
  const fundedAccount = await activeMandate(0);
  return {
    provider: remita.own.debits,
    settlement,
    fundedAccount,
    poorAccount: await activeMandate(1),
    unknownAccount: { ...fundedAccount, mandateReference: '990000000000' },
  };
});

describe('Remita debits that wait at the bank', () => {
  const debitOf = async (mandated: TMandatedAccount, reference: string) => {
    const { remita } = await started();
    return remita.own.debits.debitAccount({
      reference,
      mandateReference: mandated.mandateReference,
      payerId: mandated.payerId,
      institutionCode: mandated.institutionCode,
      accountNumber: mandated.accountNumber,
      amount: 250_000,
      narration: 'Membership',
    });
  };

  it('answers a debit awaiting the bank as pending, named with its transactionRef, and cancels it by that name', async () => {
    const { simulator: sim, remita } = await started();
    const mandated = await activeMandate(0);
    const ref = contractReference();
    sim.holdDebits(true);
    try {
      const pending = await debitOf(mandated, ref);
      expect(pending).toEqual({
        kind: 'pending',
        providerReference: expect.stringMatching(
          new RegExp(`^${mandated.mandateReference}:${ref}:\\d+$`),
        ),
        pendingAtMostMs: REMITA_DEBIT_PENDING_MS,
      });
      if (pending.kind !== 'pending') return;
      // Asked again, it is not sent again: still pending, without the transactionRef to cancel by.
      expect(await debitOf(mandated, ref)).toMatchObject({ kind: 'pending' });
      expect(
        sim.requests.filter(
          (r) => r.path === 'payment/send' && (r.body as { requestId: string }).requestId === ref,
        ),
      ).toHaveLength(1);
      const cancel = (providerReference: string | null) =>
        remita.own.debits.cancelDebit({
          reference: ref,
          mandateReference: mandated.mandateReference,
          providerReference,
        });
      expect(await cancel(null)).toMatchObject({ kind: 'pending' });
      expect(await cancel(pending.providerReference)).toMatchObject({
        kind: 'not_taken',
        reason: 'cancelled',
      });
      sim.holdDebits(false);
      expect(await debitOf(mandated, ref)).toMatchObject({ kind: 'failed' });
      expect(sim.debitsTaken().filter((d) => d.requestId === ref)).toEqual([]);
    } finally {
      sim.holdDebits(false);
    }
  });

  it('asks Remita about a debit whose instruction was answered with a refusal', async () => {
    const { simulator: sim } = await started();
    const mandated = await activeMandate(0);
    const ref = contractReference();
    sim.answerNextSendWith({ statuscode: '999', status: 'System Error' });
    expect(await debitOf(mandated, ref)).toMatchObject({ kind: 'succeeded' });
    expect(sim.debitsTaken()).toContainEqual({ requestId: ref, amountKobo: 250_000 });
  });
});

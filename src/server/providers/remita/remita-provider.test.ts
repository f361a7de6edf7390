// The Remita adapter's calls about its own mandates beyond the capabilities' suites
// (remita.contract.test.ts), against the Remita simulator: how a stop is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import {
  REMITA_SIM_ACCOUNTS,
  remitaSimulatorCredentials,
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../../testing/remita-simulator/remita-simulator';
import { contractReference as reference } from '../contract/contract-references';
import { remitaProvider } from './remita-provider';

let simulator: TRemitaSimulator;
let remita: ReturnType<typeof remitaProvider>;

beforeAll(async () => {
  simulator = await startRemitaSimulator();
  remita = remitaProvider({
    credentials: remitaSimulatorCredentials(simulator),
    clock: systemClock,
    payouts: {
      provider: 'unused',
      payOut: () => Promise.reject(new Error('No payout here')),
      requeryPayout: () => Promise.reject(new Error('No payout here')),
    },
  });
});
afterAll(async () => {
  await simulator.close();
});

const PAYER = { id: 'pyr_remita', fullName: 'Adaeze Okafor', phoneNumber: '+2348030000001' };
const BRANCH_ACCOUNT = REMITA_SIM_ACCOUNTS.find((a) => a.activation === 'branch');

/** A mandate on the printable form, never activated at the bank: its reference and id. */
async function paperMandate() {
  if (!BRANCH_ACCOUNT) throw new Error('The simulator has no branch-only account');
  const ref = reference();
  const opened = await remita.own.openPaperMandate({
    reference: ref,
    institutionCode: BRANCH_ACCOUNT.bankCode,
    accountNumber: BRANCH_ACCOUNT.accountNumber,
    payer: PAYER,
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

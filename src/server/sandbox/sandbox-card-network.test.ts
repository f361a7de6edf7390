import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import type { TDatabase } from '../db/database';
import { openTestDatabase } from '../testing/test-app';
import { sandboxPaymentProvider } from './sandbox-provider';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_CARDS,
  SANDBOX_CHIP_CARDS,
  SANDBOX_READERS,
  type TAccountScenario,
} from './fixtures';
import { readSandboxCard } from './sandbox-reader';
import { withIccValue } from '../testing/terminal';
import { paymentProviderContract } from '../providers/payments.contract';
import { sandboxCardNetwork, type TCardScenario } from './sandbox-card-network';

let database: TDatabase | undefined;
const openDb = async () => (database ??= await openTestDatabase()).db;

const network = async () =>
  sandboxCardNetwork({
    db: await openDb(),
    clock: systemClock,
    cards: SANDBOX_CARDS,
    publicUrl: 'http://localhost:3999',
    timeoutMs: 5,
  });

const fixtureFor = (scenario: TCardScenario) => {
  const fixture = SANDBOX_CARDS.find((card) => card.scenario === scenario);
  if (!fixture) throw new Error(`No sandbox card for ${scenario}`);
  return fixture;
};

afterAll(async () => {
  await database?.close();
});

function sandboxAccount(scenario: TAccountScenario) {
  const account = SANDBOX_ACCOUNTS.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`No sandbox account for ${scenario}`);
  const { institutionCode, accountNumber, accountName } = account;
  return { institutionCode, accountNumber, accountName };
}

paymentProviderContract('sandbox network', async () => {
  const cards = await network();
  const provider = sandboxPaymentProvider({ cards, db: await openDb(), clock: systemClock });
  return {
    provider,
    cardFor: (scenario) => {
      const { number, expiry, cvv, pin, otp } = fixtureFor(scenario);
      return { card: { number, expiry, cvv, pin }, otp };
    },
    cardAccount: fixtureFor('pin_only').account,
    knownAccount: sandboxAccount('links_by_test_transfer'),
    poorAccount: sandboxAccount('insufficient_funds'),
    altAccount: (() => {
      const { institutionCode, accountNumber } = sandboxAccount('links_by_auth_params');
      const params = SANDBOX_ACCOUNTS.find((a) => a.accountNumber === accountNumber)?.authParams;
      if (!params) throw new Error('The auth-params account has no auth parameters');
      return {
        institutionCode,
        accountNumber,
        answers: [
          { param: 'CARD', value: params.cardLast4 },
          { param: 'OTP', value: params.otp },
        ],
      };
    })(),
    answerThreeDs: async (outcome, approved) => {
      const answer = await cards.resolveThreeDs(outcome.providerReference, approved);
      if (!answer) throw new Error('The sandbox did not know its own challenge');
      return answer;
    },
    reader: SANDBOX_READERS[0]!,
    chipPurchaseFor: (scenario, amount, pin) => {
      const card = SANDBOX_CHIP_CARDS.find((c) => c.scenario === scenario);
      if (!card) throw new Error(`No sandbox chip card for ${scenario}`);
      const read = readSandboxCard({
        reader: SANDBOX_READERS[0]!,
        card,
        amount,
        pin: pin ?? card.pin,
        now: new Date(),
      });
      return {
        rrn: read.rrn,
        transDatetime: read.trans_datetime,
        serial: read.serial,
        tid: read.tid,
        mid: read.mid,
        amount: read.amount,
        pan: read.pan,
        track2: read.track2,
        expiry: read.expirydate,
        pinBlock: read.pin_block,
        iccData: read.icc_data,
      };
    },
    tamper: withIccValue,
  };
});

describe('sandbox card network', () => {
  it('has a published card for every scenario it plays', () => {
    const scenarios = [...new Set(SANDBOX_CARDS.map((card) => card.scenario))].sort();
    expect(scenarios).toEqual(
      ['declined', 'insufficient_funds', 'pin_only', 'pin_otp', 'three_ds', 'timeout'].sort(),
    );
  });

  it('opens the challenge page on our own sandbox, and describes the charge it is for', async () => {
    const provider = await network();
    const { number, expiry, cvv, pin } = fixtureFor('three_ds');
    const outcome = await provider.chargeCard({
      reference: 'att_1',
      amount: 1_250_00,
      narration: 'Order 1',
      card: { number, expiry, cvv, pin },
    });
    if (outcome.kind !== 'three_ds_required') throw new Error(outcome.kind);
    expect(outcome.challengeUrl).toBe(
      `http://localhost:3999/sandbox/3ds/${outcome.providerReference}`,
    );
    expect(await provider.describeCharge(outcome.providerReference)).toEqual({
      amount: 1_250_00,
      card: { brand: 'visa', first6: number.slice(0, 6), last4: number.slice(-4) },
    });
  });

  it('knows no reference it did not make, and no OTP for a charge that asked for none', async () => {
    const provider = await network();
    expect(await provider.describeCharge('sbx_ch_bm90IGpzb24')).toBeNull();
    expect(await provider.resolveThreeDs('pa_123', true)).toBeNull();
    const { number, expiry, cvv, pin } = fixtureFor('pin_only');
    const paid = await provider.chargeCard({
      reference: 'att_2',
      amount: 100,
      narration: 'x',
      card: { number, expiry, cvv, pin },
    });
    if (paid.kind !== 'succeeded') throw new Error(paid.kind);
    expect(
      await provider.submitCardOtp({ providerReference: paid.providerReference, otp: '123456' }),
    ).toMatchObject({ kind: 'failed' });
    expect(await provider.resolveThreeDs(paid.providerReference, true)).toBeNull();
  });
});

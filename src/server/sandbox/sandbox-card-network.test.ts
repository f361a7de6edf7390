import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import type { TDatabase } from '../db/database';
import { openTestDatabase } from '../testing/test-app';
import { sandboxPaymentProvider } from './sandbox-provider';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_CARDS,
  SANDBOX_CHIP_CARDS,
  SANDBOX_PEOPLE,
  SANDBOX_READERS,
  type TAccountScenario,
} from './fixtures';
import { mintSandboxPerson } from './sandbox-people';
import { receiveTransfer } from './sandbox-bank';
import { owedTransferNotice } from './sandbox-notices';
import type { TBvnRecord, TPlainCard } from '../providers/payments';
import { readSandboxCard } from './sandbox-reader';
import { withIccValue } from '../testing/terminal';
import {
  paymentProviderContract,
  type TPaymentProviderUnderTest,
} from '../providers/payments.contract';
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

/** The cards and accounts a contract run plays with: the fixtures', or a minted person's. */
type TPlayers = {
  card(scenario: TCardScenario): {
    number: string;
    expiry: string;
    cvv: string;
    pin: string;
    otp: string;
    account: { institutionCode: string; accountNumber: string };
  };
  account(scenario: TAccountScenario): {
    institutionCode: string;
    accountNumber: string;
    accountName: string;
    bvn: string;
  };
  holder(bvn: string): TBvnRecord;
};

const FIXTURE_PLAYERS: TPlayers = {
  card: fixtureFor,
  account: (scenario) => {
    const account = SANDBOX_ACCOUNTS.find((a) => a.scenario === scenario);
    if (!account) throw new Error(`No sandbox account for ${scenario}`);
    const { institutionCode, accountNumber, accountName, bvn } = account;
    return { institutionCode, accountNumber, accountName, bvn };
  },
  holder: (bvn) => {
    const person = SANDBOX_PEOPLE.find((p) => p.bvn === bvn);
    if (!person) throw new Error(`No sandbox person has BVN ${bvn}`);
    const { fullName, dateOfBirth, phoneNumber } = person;
    return { fullName, dateOfBirth, phoneNumber };
  },
};

/** A minted person's accounts and cards, as the fixtures' are played. */
const mintedPlayers = async (): Promise<TPlayers> => {
  const person = await mintSandboxPerson(await openDb(), { fullName: 'Yemi Salami' });
  return {
    card: (scenario) => {
      const card = person.cards.find((c) => c.scenario === scenario);
      if (!card) throw new Error(`No minted card for ${scenario}`);
      return card;
    },
    account: (scenario) => {
      const account = person.accounts.find((a) => a.scenario === scenario);
      if (!account) throw new Error(`No minted account for ${scenario}`);
      const { institutionCode, accountNumber, accountName } = account;
      return { institutionCode, accountNumber, accountName, bvn: person.bvn };
    },
    holder: () => ({
      fullName: person.fullName,
      dateOfBirth: person.dateOfBirth,
      phoneNumber: person.phoneNumber,
    }),
  };
};

const underTest = async (players: TPlayers): Promise<TPaymentProviderUnderTest> => {
  const cards = await network();
  // The sandbox registry's SMS, as the holder's phone would read them.
  const bvnSms: string[] = [];
  const provider = sandboxPaymentProvider({
    cards,
    db: await openDb(),
    clock: systemClock,
    deliverBvnCode: async ({ body }) => {
      bvnSms.push(body);
    },
  });
  const knownAccount = players.account('links_by_test_transfer');
  const alt = players.account('links_by_auth_params');
  const params = SANDBOX_ACCOUNTS.find((a) => a.scenario === 'links_by_auth_params')?.authParams;
  if (!params) throw new Error('The auth-params account has no auth parameters');
  return {
    provider,
    cardFor: (scenario) => {
      const { number, expiry, cvv, pin, otp } = players.card(scenario);
      return { card: { number, expiry, cvv, pin }, otp };
    },
    cardAccount: players.card('pin_only').account,
    knownAccount,
    knownHolder: players.holder(knownAccount.bvn),
    bvnCodeSent: async () => {
      const code = /code is (\d{6})/.exec(bvnSms.at(-1) ?? '')?.[1];
      if (!code) throw new Error('The sandbox registry sent no code');
      return code;
    },
    poorAccount: players.account('insufficient_funds'),
    altAccount: {
      institutionCode: alt.institutionCode,
      accountNumber: alt.accountNumber,
      answers: [
        { param: 'CARD', value: params.cardLast4 },
        { param: 'OTP', value: params.otp },
      ],
    },
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
    transferNotice: async (account, amount) => {
      const db = await openDb();
      const sent = { accountNumber: account.accountNumber, amount, sender: null };
      const { id } = await receiveTransfer(db, systemClock, sent);
      const notice = await owedTransferNotice(db, id);
      if (!notice) throw new Error('The sandbox bank owes no notice of its own transfer');
      return notice;
    },
  };
};

paymentProviderContract('sandbox network', () => underTest(FIXTURE_PLAYERS));

// A minted person's accounts and cards take every path the fixtures' take.
paymentProviderContract('sandbox network, a minted person', async () =>
  underTest(await mintedPlayers()),
);

/*
 * What the sandbox promises beyond the port's contract (a real provider's test mode may not: see
 * docs/providers/paystack.md): which account a card draws on, refusals of a card's details
 * before any charge begins, and a one-time account named as asked.
 */
describe.each([
  ['the fixtures', async () => underTest(FIXTURE_PLAYERS)],
  ['a minted person', async () => underTest(await mintedPlayers())],
] as const)('sandbox network beyond the port contract, %s', (_players, make) => {
  let played: TPaymentProviderUnderTest;
  beforeAll(async () => {
    played = await make();
  });
  const charge = (scenario: TCardScenario, change: Partial<TPlainCard> = {}) =>
    played.provider.cards.chargeCard({
      reference: `att_sandbox_${Date.now()}_${Math.random().toString(36).slice(2)}`,
      amount: 250_000,
      narration: 'Order 17',
      card: { ...played.cardFor(scenario).card, ...change },
    });

  it('says a card draws on its own account only, by its number or a succeeded charge’s token', async () => {
    const provider = played.provider.cards;
    const { card } = played.cardFor('pin_only');
    const own = played.cardAccount;
    const other = played.knownAccount;
    const byNumber = { number: card.number };
    expect(await provider.isCardOnAccount({ card: byNumber, ...own })).toBe(true);
    expect(await provider.isCardOnAccount({ card: byNumber, ...other })).toBe(false);
    const paid = await charge('pin_only');
    if (paid.kind !== 'succeeded' || !paid.token) throw new Error('no token');
    expect(await provider.isCardOnAccount({ card: { token: paid.token }, ...own })).toBe(true);
    expect(await provider.isCardOnAccount({ card: { token: paid.token }, ...other })).toBe(false);
    expect(await provider.isCardOnAccount({ card: { number: '4111111111111111' }, ...own })).toBe(
      false,
    );
  });

  it('refuses a wrong CVV, and a card it does not know, without a reference', async () => {
    expect(await charge('pin_only', { cvv: '000' })).toMatchObject({
      kind: 'failed',
      providerReference: null,
    });
    expect(await charge('pin_only', { number: '4000000000000002', pin: '1234' })).toMatchObject({
      kind: 'failed',
      providerReference: null,
    });
  });

  it('names a one-time account as asked', async () => {
    const account = await played.provider.transfersIn.openTransferAccount({
      reference: `att_sandbox_${Date.now()}`,
      amount: 250_000,
      accountName: 'Tola Stores',
    });
    expect(account.accountName).toBe('Tola Stores');
  });
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
      reference: 'att_1',
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

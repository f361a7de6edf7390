// The sandbox's people beyond the fixtures (docs/sandbox.md "Minting a person"): the bank and the
// card network find a minted person's accounts and cards as they find the fixtures'.
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import type { TDatabase } from '../db/database';
import { openTestDatabase } from '../testing/test-app';
import { SANDBOX_ACCOUNTS, SANDBOX_CARDS, SANDBOX_PEOPLE } from './fixtures';
import { sandboxSender } from './sandbox-bank';
import { sandboxCardNetwork } from './sandbox-card-network';
import { debitSandboxAccount } from './sandbox-debits';
import { findSandboxAccount, lookupSandboxBvn, mintSandboxPerson } from './sandbox-people';

let database: TDatabase | undefined;
const openDb = async () => (database ??= await openTestDatabase()).db;
afterAll(async () => {
  await database?.close();
});

let seq = 0;
const reference = () => `dd_people_${Date.now()}_${(seq += 1)}`;

describe('sandbox people', () => {
  it('debits a minted account from its scenario’s opening balance, never below zero', async () => {
    const db = await openDb();
    const person = await mintSandboxPerson(db);
    const poor = person.accounts.find((a) => a.scenario === 'insufficient_funds');
    const fixture = SANDBOX_ACCOUNTS.find((a) => a.scenario === 'insufficient_funds');
    if (!poor || !fixture) throw new Error('no insufficient_funds account');
    const debit = (amount: number) =>
      debitSandboxAccount(db, systemClock, {
        reference: reference(),
        mandateReference: 'alk_people',
        payerId: 'pyr_test',
        institutionCode: poor.institutionCode,
        accountNumber: poor.accountNumber,
        amount,
        narration: 'Membership',
      });
    expect(await debit(fixture.balance + 1)).toMatchObject({ reason: 'insufficient_funds' });
    expect(await debit(fixture.balance)).toMatchObject({ kind: 'succeeded' });
    expect(await debit(1)).toMatchObject({ kind: 'failed', reason: 'insufficient_funds' });
  });

  it('names a minted account as a transfer’s sender: its bank, number and holder', async () => {
    const db = await openDb();
    const person = await mintSandboxPerson(db, { fullName: 'Halima Yusuf' });
    const account = person.accounts.find((a) => a.scenario === 'links_by_test_transfer');
    if (!account) throw new Error('no links_by_test_transfer account');
    expect(await sandboxSender(db, account)).toEqual({
      institutionCode: account.institutionCode,
      bankName: account.bankName,
      accountNumber: account.accountNumber,
      accountName: 'Halima Yusuf',
    });
    expect(await findSandboxAccount(db, account)).toMatchObject({ bvn: person.bvn });
  });

  it('shows a minted card’s 3-D Secure challenge with its amount and last 4 digits', async () => {
    const db = await openDb();
    const person = await mintSandboxPerson(db);
    const card = person.cards.find((c) => c.scenario === 'three_ds');
    if (!card) throw new Error('no three_ds card');
    const network = sandboxCardNetwork({
      db,
      clock: systemClock,
      cards: SANDBOX_CARDS,
      publicUrl: 'http://localhost:3999',
      timeoutMs: 5,
    });
    const { number, expiry, cvv, pin } = card;
    const ours = reference();
    const outcome = await network.chargeCard({
      reference: ours,
      amount: 75_000,
      narration: 'Order 3',
      card: { number, expiry, cvv, pin },
    });
    if (outcome.kind !== 'three_ds_required') throw new Error(outcome.kind);
    expect(await network.describeCharge(outcome.providerReference)).toEqual({
      reference: ours,
      amount: 75_000,
      card: { brand: 'visa', first6: number.slice(0, 6), last4: number.slice(-4) },
    });
  });

  it('mints people whose BVNs, account numbers and card digits no one else has, each account with its own last 4', async () => {
    const db = await openDb();
    const people = [];
    for (let i = 0; i < 12; i += 1) people.push(await mintSandboxPerson(db));
    const bvns = [...SANDBOX_PEOPLE.map((p) => p.bvn), ...people.map((p) => p.bvn)];
    expect(new Set(bvns).size).toBe(bvns.length);
    const accounts = [
      ...SANDBOX_ACCOUNTS.map((a) => `${a.institutionCode}:${a.accountNumber}`),
      ...people.flatMap((p) => p.accounts.map((a) => `${a.institutionCode}:${a.accountNumber}`)),
    ];
    expect(new Set(accounts).size).toBe(accounts.length);
    // A person's accounts, masked on the page to their last 4 digits, each read as its own.
    for (const person of people) {
      const lastFours = person.accounts.map((a) => a.accountNumber.slice(-4));
      expect(new Set(lastFours).size).toBe(lastFours.length);
    }
    const digits = (scenario: string, number: string) =>
      `${scenario}:${number.slice(0, 6)}:${number.slice(-4)}`;
    const cards = [
      ...SANDBOX_CARDS.map((c) => digits(c.scenario, c.number)),
      ...people.flatMap((p) => p.cards.map((c) => digits(c.scenario, c.number))),
    ];
    expect(new Set(cards).size).toBe(cards.length);
  });

  it('answers the registry for a fixture person, and nobody for a BVN never issued', async () => {
    const db = await openDb();
    expect(await lookupSandboxBvn(db, '22200000033')).toEqual({
      fullName: 'Chukwuemeka Eze',
      dateOfBirth: '1979-01-25',
      phoneNumber: '+2348030000042',
    });
    expect(await lookupSandboxBvn(db, '00000000000')).toBeNull();
  });
});

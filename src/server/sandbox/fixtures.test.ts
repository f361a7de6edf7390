import { describe, expect, it } from 'vitest';
import { validateCardNumber } from '../../domain/card-number';
import { serviceCodeHasChip } from '../../domain/emv/track2';
import { isValidNuban } from '../../domain/nuban';
import {
  ACCOUNT_SCENARIOS,
  CHIP_CARD_SCENARIOS,
  SANDBOX_ACCOUNTS,
  SANDBOX_BANKS,
  SANDBOX_CARDS,
  SANDBOX_CHIP_CARDS,
  SANDBOX_PEOPLE,
  SANDBOX_READERS,
} from './fixtures';
import { formatNigerianPhone, toNigerianE164 } from '../../domain/schemas/auth';

const luhnValid = (digits: string) =>
  [...digits].reverse().reduce((sum, d, i) => {
    const doubled = i % 2 === 1 ? Number(d) * 2 : Number(d);
    return sum + (doubled > 9 ? doubled - 9 : doubled);
  }, 0) %
    10 ===
  0;

describe('sandbox fixtures', () => {
  it('lists at least 10 banks with distinct codes, Rubies MFB among them', () => {
    expect(SANDBOX_BANKS.length).toBeGreaterThanOrEqual(10);
    const codes = SANDBOX_BANKS.map((bank) => bank.institutionCode);
    expect(new Set(codes).size).toBe(codes.length);
    expect(SANDBOX_BANKS.map((bank) => bank.name)).toContain('Rubies MFB');
  });

  it('gives every account a NUBAN valid for its bank, and a bank the list knows', () => {
    for (const account of SANDBOX_ACCOUNTS) {
      expect(
        isValidNuban(account.institutionCode, account.accountNumber),
        account.accountNumber,
      ).toBe(true);
      expect(SANDBOX_BANKS.some((bank) => bank.institutionCode === account.institutionCode)).toBe(
        true,
      );
      expect(Number.isSafeInteger(account.balance)).toBe(true);
    }
  });

  it('has an account for every account scenario, and not-supported sits at a bank with none', () => {
    for (const scenario of ACCOUNT_SCENARIOS) {
      expect(
        SANDBOX_ACCOUNTS.some((account) => account.scenario === scenario),
        scenario,
      ).toBe(true);
    }
    const unsupported = SANDBOX_ACCOUNTS.find((account) => account.scenario === 'not_supported');
    const bank = SANDBOX_BANKS.find((b) => b.institutionCode === unsupported?.institutionCode);
    expect(bank?.integrations).toEqual([]);
  });

  it('gives every card a Luhn-valid number the card form accepts, of each brand', () => {
    for (const card of SANDBOX_CARDS) {
      expect(luhnValid(card.number), card.number).toBe(true);
      expect(validateCardNumber(card.number)).toBeNull();
      expect(card.expiry).toMatch(/^(0[1-9]|1[0-2])\/\d{2}$/);
    }
    expect(new Set(SANDBOX_CARDS.map((card) => card.brand))).toEqual(
      new Set(['visa', 'mastercard', 'verve']),
    );
  });

  it('gives every chip card a Luhn-valid number of its own, a chip service code but for the stripe-only card, one card per scenario', () => {
    const numbers = [...SANDBOX_CARDS, ...SANDBOX_CHIP_CARDS].map((card) => card.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const card of SANDBOX_CHIP_CARDS) {
      expect(luhnValid(card.number), card.number).toBe(true);
      expect(validateCardNumber(card.number)).toBeNull();
      expect(card.expiry).toMatch(/^(0[1-9]|1[0-2])\/\d{2}$/);
      expect(serviceCodeHasChip(card.serviceCode)).toBe(card.scenario !== 'magstripe_only');
    }
    expect(SANDBOX_CHIP_CARDS.map((card) => card.scenario).sort()).toEqual(
      [...CHIP_CARD_SCENARIOS].sort(),
    );
  });

  it('registers each person once under an 11-digit BVN, with a date of birth and Nigerian mobiles in E.164', () => {
    const bvns = SANDBOX_PEOPLE.map((person) => person.bvn);
    expect(new Set(bvns).size).toBe(bvns.length);
    for (const person of SANDBOX_PEOPLE) {
      expect(person.bvn).toMatch(/^\d{11}$/);
      expect(new Date(`${person.dateOfBirth}T00:00:00Z`).toISOString().slice(0, 10)).toBe(
        person.dateOfBirth,
      );
      expect(toNigerianE164(person.phoneNumber)).toBe(person.phoneNumber);
      expect(toNigerianE164(person.signInPhone)).toBe(person.signInPhone);
    }
  });

  it('holds every account under the BVN of a person whose name is the account’s', () => {
    for (const account of SANDBOX_ACCOUNTS) {
      const holder = SANDBOX_PEOPLE.find((person) => person.bvn === account.bvn);
      expect(holder?.fullName, account.accountNumber).toBe(account.accountName);
    }
  });

  it('registers the demo payer’s BVN to her own phone, and one person’s to a phone they do not sign in with', () => {
    const adaeze = SANDBOX_PEOPLE.find((person) => person.fullName === 'Adaeze Okafor');
    expect(adaeze).toMatchObject({ phoneNumber: '+2348030000001', signInPhone: '+2348030000001' });
    const demoAccount = SANDBOX_ACCOUNTS.find((a) => a.accountNumber === '0123456785');
    expect(demoAccount).toMatchObject({ institutionCode: '058', bvn: adaeze?.bvn });
    const oldLine = SANDBOX_PEOPLE.filter((person) => person.phoneNumber !== person.signInPhone);
    expect(oldLine.length).toBeGreaterThan(0);
    for (const person of oldLine) {
      // The page and the doc say which phone the code goes to.
      expect(person.description).toContain(
        `Registered to ${formatNigerianPhone(person.phoneNumber)}`,
      );
    }
  });

  it('registers card readers with distinct serials and terminal ids', () => {
    expect(SANDBOX_READERS.length).toBeGreaterThan(0);
    expect(new Set(SANDBOX_READERS.map((r) => r.serial)).size).toBe(SANDBOX_READERS.length);
    expect(new Set(SANDBOX_READERS.map((r) => r.tid)).size).toBe(SANDBOX_READERS.length);
  });
});

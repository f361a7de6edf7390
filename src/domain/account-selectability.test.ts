import { describe, expect, it } from 'vitest';
import {
  isAccountAlreadyLinked,
  isAccountSelectable,
  isAccountSupported,
} from './account-selectability';
import type { TAccountIntegrations } from './schemas/user-account';
import { anAccount } from './test-support/fixtures';

const ts = (over: Partial<NonNullable<TAccountIntegrations['transactionService']>> = {}) => ({
  possible: true,
  authorized: false,
  approved: false,
  linked: false,
  ...over,
});
const alt = { possible: true, authorized: false, status: null, linked: false, remitaLogoUrl: null };
const card = (over: Partial<NonNullable<TAccountIntegrations['card']>> = {}) => ({
  possible: true,
  active: false,
  linked: false,
  obfuscatedCard: null,
  token: null,
  ...over,
});

describe('isAccountSupported', () => {
  it.each<[string, TAccountIntegrations, boolean]>([
    ['transaction service possible', { transactionService: ts() }, true],
    ['alternate service possible', { altTransactionService: alt }, true],
    ['card possible', { card: card() }, true],
    ['nothing offered', {}, false],
    [
      'nothing possible',
      { transactionService: ts({ possible: false }), card: card({ possible: false }) },
      false,
    ],
    ['only nibssAlt possible', { nibssAlt: { possible: true } }, false],
  ])('%s → %s', (_, integrations, supported) => {
    expect(isAccountSupported(anAccount({ integrations }))).toBe(supported);
  });
});

describe('isAccountAlreadyLinked', () => {
  const candidate = anAccount();
  it.each([
    [
      'same number and code, transaction service linked',
      anAccount({ integrations: { transactionService: ts({ linked: true }) } }),
      true,
    ],
    [
      'same number and code, card linked',
      anAccount({ integrations: { card: card({ linked: true }) } }),
      true,
    ],
    ['same number and code, nothing linked', anAccount(), false],
    [
      'same number, other institution',
      anAccount({
        institutionCode: '000013',
        integrations: { transactionService: ts({ linked: true }) },
      }),
      false,
    ],
    [
      'other number, same institution',
      anAccount({
        accountNumber: '9876543210',
        integrations: { transactionService: ts({ linked: true }) },
      }),
      false,
    ],
  ])('against an account with %s → %s', (_, linked, expected) => {
    expect(isAccountAlreadyLinked(candidate, [linked])).toBe(expected);
  });

  it('trusts the server flag isAlreadyLinked', () => {
    expect(isAccountAlreadyLinked(anAccount({ isAlreadyLinked: true }), [])).toBe(true);
  });

  it('never matches card-only accounts by their missing number', () => {
    const cardOnly = anAccount({
      accountNumber: null,
      integrations: { card: card({ linked: true }) },
    });
    expect(isAccountAlreadyLinked(cardOnly, [cardOnly])).toBe(false);
  });
});

describe('isAccountSelectable', () => {
  const linkedTwin = anAccount({ integrations: { transactionService: ts({ linked: true }) } });
  it.each([
    ['supported and not linked', anAccount(), [], true],
    ['supported but already linked', anAccount(), [linkedTwin], false],
    ['not supported', anAccount({ integrations: {} }), [], false],
  ])('%s → %s', (_, account, linkedAccounts, selectable) => {
    expect(isAccountSelectable(account, linkedAccounts)).toBe(selectable);
  });
});

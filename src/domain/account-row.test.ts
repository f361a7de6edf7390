import { describe, expect, it } from 'vitest';
import {
  accountDeletionId,
  accountKind,
  accountRowBadges,
  accountRowSubtitle,
  deleteAccountConfirmation,
  maskAccountNumber,
  sortAccountsForList,
} from './account-row';
import { anAccount } from './test-support/fixtures';

const linkedCard = {
  possible: true,
  active: true,
  linked: true,
  obfuscatedCard: '539983******1234',
  token: 'tok_1',
};
const bank = anAccount();
const cardAndBank = anAccount({ integrations: { card: linkedCard } });
const cardOnly = anAccount({ accountNumber: null, integrations: { card: linkedCard } });

describe('account rows', () => {
  it.each([
    [
      'a bank account',
      bank,
      'bank',
      'Account • ****6789',
      'Are you sure you want to delete this Bank Account?',
    ],
    [
      'a bank account with a card',
      cardAndBank,
      'card_and_bank',
      'Card & Bank • ****6789',
      'Are you sure you want to delete this Card & Bank Account?',
    ],
    [
      'a card alone',
      cardOnly,
      'card',
      'Card • **** **** **** 1234',
      'Are you sure you want to delete this Card?',
    ],
  ] as const)('%s: kind %s, subtitle %j, delete text %j', (_, account, kind, subtitle, confirm) => {
    expect(accountKind(account)).toBe(kind);
    expect(accountRowSubtitle(account)).toBe(subtitle);
    expect(deleteAccountConfirmation(account)).toBe(confirm);
  });

  it('shows only the last 4 digits of an account number', () => {
    expect(maskAccountNumber('0123456789')).toBe('****6789');
  });
});

describe('accountRowBadges', () => {
  it.each([
    ['an account with no possible integration', anAccount({ integrations: {} }), ['Not supported']],
    ['a supported account not yet authorized', anAccount(), ['Not authorized yet']],
    [
      'an account whose mandate is authorized',
      anAccount({
        integrations: {
          transactionService: { possible: true, authorized: true, approved: false, linked: true },
        },
      }),
      [],
    ],
    ['an account with an active card', cardAndBank, []],
    ['an account the bank approved', anAccount({ linkStatus: 'bank_approved' }), []],
  ])('%s → %j', (_, account, badges) => {
    expect(accountRowBadges(account)).toEqual(badges);
  });
});

describe('sortAccountsForList', () => {
  it('puts supported accounts first and keeps the order otherwise', () => {
    const a = anAccount({ bankName: 'A', integrations: {} });
    const b = anAccount({ bankName: 'B' });
    const c = anAccount({ bankName: 'C', integrations: {} });
    const d = anAccount({ bankName: 'D' });
    expect(sortAccountsForList([a, b, c, d]).map((x) => x.bankName)).toEqual(['B', 'D', 'A', 'C']);
  });
});

describe('accountDeletionId', () => {
  it.each([
    [{ bankId: 'b', accountId: 'a', _id: 'i' }, 'b'],
    [{ bankId: undefined, accountId: 'a', _id: 'i' }, 'a'],
    [{ bankId: undefined, accountId: undefined, _id: 'i' }, 'i'],
    [{ bankId: undefined, accountId: undefined, _id: undefined }, null],
  ])('uses bankId, accountId or _id in that order: %j → %j', (ids, id) => {
    expect(accountDeletionId(anAccount(ids))).toBe(id);
  });
});

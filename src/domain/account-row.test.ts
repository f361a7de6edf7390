import { describe, expect, it } from 'vitest';
import {
  accountDeletionId,
  accountKind,
  accountRowBadges,
  accountRowSubtitle,
  isAccountDebitable,
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
    [
      'a link made before BVNs were checked, the payer with no verified BVN',
      anAccount({ linkStatus: 'approved', bvnHold: 'bvn_unverified' }),
      ['Verify your BVN to pay from this account'],
    ],
    [
      'a link made before BVNs were checked, on an account another BVN holds',
      anAccount({ linkStatus: 'approved', bvnHold: 'not_under_bvn' }),
      ['Not registered to your BVN'],
    ],
  ])('%s → %j', (_, account, badges) => {
    expect(accountRowBadges(account)).toEqual(badges);
  });

  it('says what to do about a link made before BVNs were checked, never Not authorized yet', () => {
    const held = anAccount({ bvnHold: 'bvn_unverified' });
    expect(accountRowBadges(held)).not.toContain('Not authorized yet');
    expect(isAccountDebitable(held)).toBe(false);
    expect(isAccountDebitable(anAccount({ linkStatus: 'approved' }))).toBe(true);
    expect(isAccountDebitable(anAccount())).toBe(false);
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

import { describe, expect, it } from 'vitest';
import { isFromAccount, sameHolderName } from './account-ownership';

const account = {
  institutionCode: '058',
  accountNumber: '0123456785',
  accountName: 'Adaeze Okafor',
};

describe('sameHolderName', () => {
  it.each([
    ['Adaeze Okafor', 'ADAEZE OKAFOR', true],
    ['Adaeze Okafor', 'Okafor, Adaeze', true],
    ['Adaézé Okafor', 'Adaeze Okafor', true],
    ['Adaeze Okafor', 'Adaeze Okafor Jr', false],
    ['Adaeze Okafor', 'Aisha Bello', false],
    ['', '', false],
    ['...', '--', false],
  ])('%j and %j: %s', (a, b, same) => {
    expect(sameHolderName(a, b)).toBe(same);
  });
});

describe('isFromAccount', () => {
  it('takes a transfer from the very account, its holder named in any order or case', () => {
    expect(isFromAccount({ ...account, accountName: 'OKAFOR ADAEZE' }, account)).toBe(true);
  });

  it.each([
    ['no sender', null],
    ['another number at the bank', { ...account, accountNumber: '0690000018' }],
    ['the same number at another bank', { ...account, institutionCode: '044' }],
    ['another holder', { ...account, accountName: 'Aisha Bello' }],
  ])('refuses %s', (_case, sender) => {
    expect(isFromAccount(sender, account)).toBe(false);
  });
});

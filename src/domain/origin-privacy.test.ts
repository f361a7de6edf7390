import { describe, expect, it } from 'vitest';
import { isMaskedAccountNumber, isOriginAccount, maskOrigin } from './origin-privacy';
import type { TPaymentOrigin } from './schemas/consent';

const origin: TPaymentOrigin = {
  paymentMethod: 'bank_transfer',
  accountNumber: '0123456785',
  accountName: 'Adaeze Okonkwo',
  institutionCode: '058',
  bankId: 'pac_1',
  bankName: 'Guaranty Trust Bank',
  logo: '/api/bank-logos/058',
  isNewAccount: false,
  shouldPromptBankAccountLinking: true,
  integrations: { transactionService: { linked: true } },
};

describe('maskOrigin', () => {
  it('keeps the bank and the last four digits, and nothing of the account holder', () => {
    expect(maskOrigin(origin)).toEqual({
      paymentMethod: 'bank_transfer',
      accountNumber: '****6785',
      accountName: null,
      institutionCode: '058',
      bankId: null,
      bankName: 'Guaranty Trust Bank',
      logo: '/api/bank-logos/058',
      isNewAccount: false,
      shouldPromptBankAccountLinking: true,
    });
  });

  it('keeps the fields in their order, and changes nothing masked twice', () => {
    const masked = maskOrigin(origin);
    expect(Object.keys(masked)).toEqual(Object.keys(origin).filter((k) => k !== 'integrations'));
    expect(maskOrigin(masked)).toEqual(masked);
  });

  it('masks a status event’s payerBank alike, and leaves an unknown sender and a card as they are', () => {
    expect(
      maskOrigin({
        bankName: 'Guaranty Trust Bank',
        accountName: 'Adaeze Okonkwo',
        accountNumber: '0123456785',
        institutionCode: '058',
      }),
    ).toEqual({
      bankName: 'Guaranty Trust Bank',
      accountName: null,
      accountNumber: '****6785',
      institutionCode: '058',
    });
    const unknown: TPaymentOrigin = {
      paymentMethod: 'bank_transfer',
      accountNumber: null,
      accountName: null,
    };
    expect(maskOrigin(unknown)).toEqual(unknown);
    const card: TPaymentOrigin = {
      paymentMethod: 'card',
      obfuscatedCard: '539983******1234',
      maskedCardNumber: '539983******1234',
    };
    expect(maskOrigin(card)).toEqual(card);
  });
});

describe('isOriginAccount', () => {
  const mine = { accountNumber: '0123456785', institutionCode: '058' };

  it('matches the same number at the same bank, or for a masked origin the same last four', () => {
    expect(isOriginAccount(origin, mine)).toBe(true);
    expect(isOriginAccount(maskOrigin(origin), mine)).toBe(true);
    expect(isOriginAccount(origin, { ...mine, institutionCode: '044' })).toBe(false);
    expect(isOriginAccount(maskOrigin(origin), { ...mine, accountNumber: '9999996785' })).toBe(
      true,
    );
    expect(isOriginAccount(origin, { ...mine, accountNumber: '9999996785' })).toBe(false);
    expect(isOriginAccount(maskOrigin(origin), { ...mine, accountNumber: '0123456786' })).toBe(
      false,
    );
  });

  it('matches nothing for an unknown sender', () => {
    expect(isOriginAccount({ accountNumber: null, institutionCode: null }, mine)).toBe(false);
  });

  it('tells a masked number from a number', () => {
    expect(isMaskedAccountNumber('****6785')).toBe(true);
    expect(isMaskedAccountNumber('0123456785')).toBe(false);
  });
});

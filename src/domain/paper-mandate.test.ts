import { describe, expect, it } from 'vitest';
import { PAPER_MANDATE_TEXT, paperMandateFormOfAccount, mandateFormOfLink } from './paper-mandate';
import type { TAccountLink } from './schemas/account-link';
import type { TUserAccount } from './schemas/user-account';

const link = (over: Partial<TAccountLink>): TAccountLink => ({
  id: 'alk_1',
  payInDetails: null,
  authParams: [],
  mandateType: 'otp',
  remitaTransRef: null,
  requestId: null,
  remitaLogoUrl: null,
  formUrl: null,
  ...over,
});

const account = (over: Partial<TUserAccount>): TUserAccount => ({
  accountNumber: '0030000015',
  accountName: 'Ibrahim Musa',
  bankName: 'Sandbox Paper Bank',
  institutionCode: '221',
  integrations: { nibssAlt: { possible: true } },
  ...over,
});

describe('paper mandates', () => {
  it("says the payer's part and its time, and what the bank then does", () => {
    expect(PAPER_MANDATE_TEXT.nextSteps).toEqual([
      'Print the form, sign it and give it to your bank within 7 days.',
      "Your account is linked once your bank approves the signed form; until then it shows 'Not authorized yet'.",
    ]);
  });

  it("finds the form of a paper mandate link and the bank's page of a bank mandate only", () => {
    expect(mandateFormOfLink(link({ mandateType: 'bank', formUrl: 'https://bank/m/1' }))).toEqual({
      type: 'bank',
      url: 'https://bank/m/1',
    });
    expect(mandateFormOfLink(link({ mandateType: 'paper', formUrl: 'https://x/m/1' }))).toEqual({
      type: 'paper',
      url: 'https://x/m/1',
    });
    expect(mandateFormOfLink(link({ mandateType: 'paper', formUrl: null }))).toBeNull();
    expect(mandateFormOfLink(link({ formUrl: 'https://x/m/1' }))).toBeNull();
    expect(mandateFormOfLink(null)).toBeNull();
  });

  it('offers the form of an account whose paper mandate waits for its bank', () => {
    const waiting = { formUrl: 'https://x/m/1', expiresAt: '2027-05-17T09:00:00.000Z' };
    expect(paperMandateFormOfAccount(account({ paperMandate: waiting }))).toBe('https://x/m/1');
    expect(paperMandateFormOfAccount(account({ paperMandate: null }))).toBeNull();
    expect(paperMandateFormOfAccount(account({}))).toBeNull();
  });
});

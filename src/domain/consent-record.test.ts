import { describe, expect, it } from 'vitest';
import {
  auditLabel,
  consentReceiptMessage,
  consentReceiptUrl,
  consentRecordText,
  consentScopes,
  dataSharingExpiry,
  dataSharingTermText,
  WITHDRAW_LINE,
} from './consent-record';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

const consent = aConsent({
  consentId: 'cns_gym',
  payments: [
    anImmediatePayment(),
    aPayment({
      paymentId: 'pay_monthly',
      amount: 500_000,
      frequency: 'monthly',
      interval: 1,
      dueDate: '2031-02-01T09:00:00.000Z',
      startDate: '2031-02-01T09:00:00.000Z',
      endDate: '2031-12-01T09:00:00.000Z',
      narration: 'Membership',
    }),
  ],
  dataSharing: { bvnData: true, ninData: false, userImages: false, bankAccounts: false },
  formId: 'frm_1',
});

describe('consentRecordText', () => {
  it('writes the merchant, each scope in plain words, each payment’s terms and the withdraw line', () => {
    expect(consentRecordText(consent)).toBe(
      [
        'FitLife Gym - Consent Request',
        'Consent cns_gym',
        'They would like to:',
        '- Collect ₦2,500.00 immediately',
        '- Schedule 1 future payment',
        '- Access your BVN data',
        '- Complete a form',
        'Payments:',
        '- ₦2,500.00 now: First month',
        '- ₦5,000.00 Fixed, Monthly, due 1 Feb 2031, 1 Feb 2031 to 1 Dec 2031: Membership',
        WITHDRAW_LINE,
      ].join('\n'),
    );
  });

  it('is the same text for the same consent, whatever its state since', () => {
    const paid = { ...consent, status: 'granted' as const, grantedAt: '2031-01-01T00:00:00Z' };
    expect(consentRecordText(paid)).toBe(consentRecordText(consent));
  });

  it('says where to withdraw: Your consents, or the SMS receipt’s link', () => {
    expect(WITHDRAW_LINE).toBe(
      'You can withdraw this consent at any time in Your consents, or by the link in the SMS receipt we send you.',
    );
    expect(consentScopes(aConsent())).toEqual([]);
  });
});

describe('data sharing’s 12 months', () => {
  it('ends on the same day a year on, a leap day on the 1st of March', () => {
    expect(dataSharingExpiry(new Date('2031-03-02T09:00:00Z')).toISOString()).toBe(
      '2032-03-02T09:00:00.000Z',
    );
    expect(dataSharingExpiry(new Date('2032-02-29T09:00:00Z')).toISOString()).toBe(
      '2033-03-01T09:00:00.000Z',
    );
  });

  it('reads until when, or when it ended', () => {
    expect(dataSharingTermText({ expiresAt: '2032-03-02T09:00:00Z', endedAt: null })).toBe(
      'Data sharing until 2 Mar 2032. Confirm it to keep sharing for 12 more months.',
    );
    expect(
      dataSharingTermText({ expiresAt: '2032-03-02T09:00:00Z', endedAt: '2032-03-02T10:00:00Z' }),
    ).toBe('Data sharing ended on 2 Mar 2032: it was not confirmed within 12 months.');
    expect(dataSharingTermText({ expiresAt: null, endedAt: null })).toBeNull();
  });
});

describe('the receipt', () => {
  it('links to /consents with the token and says what was granted, when', () => {
    const url = consentReceiptUrl('https://pay.example', 'cns_1.abc');
    expect(url).toBe('https://pay.example/consents?receipt=cns_1.abc');
    expect(
      consentReceiptMessage({
        productName: 'Oya Money',
        merchantName: 'FitLife Gym',
        grantedAt: new Date('2031-03-02T09:00:00Z'),
        receiptUrl: url,
      }),
    ).toBe(
      `You granted FitLife Gym a consent on your Oya Money account on 2 Mar 2031, 10:00 am. See it, or withdraw it at any time: ${url}`,
    );
  });

  it('words each audit entry, and one without words by its name made a sentence', () => {
    expect(auditLabel('consent.revoked')).toBe('Withdrawn');
    expect(auditLabel('payment.executed')).toBe('Payment made');
    expect(auditLabel('future_payment.collected')).toBe('Future payment collected');
    expect(auditLabel('future_payment.retry_scheduled')).toBe('Future payment to be tried again');
    expect(auditLabel('consent.some_new_change')).toBe('Some new change');
  });
});

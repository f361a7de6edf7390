import { describe, expect, it } from 'vitest';
import {
  isPaymentFailure,
  isUnusableCardEnvelope,
  payNowGrantRequest,
  payNowPayment,
  paymentSourceText,
} from './pay-now';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

describe('payNowPayment', () => {
  it('is the immediate payment of a pending consent that asks for nothing else', () => {
    const payment = anImmediatePayment();
    expect(payNowPayment(aConsent({ payments: [payment] }))).toEqual(payment);
  });

  it('stays the screen once the payment is paid, until the consent is granted', () => {
    const paid = anImmediatePayment({ status: 'executed' });
    expect(payNowPayment(aConsent({ payments: [paid] }))).toEqual(paid);
    expect(payNowPayment(aConsent({ payments: [paid], status: 'granted' }))).toBeNull();
  });

  it('is none when the consent also asks for future payments, data or a form', () => {
    const immediate = anImmediatePayment();
    expect(payNowPayment(aConsent({ payments: [immediate, aPayment()] }))).toBeNull();
    expect(
      payNowPayment(aConsent({ payments: [immediate], dataSharing: { bvnData: true } })),
    ).toBeNull();
    expect(payNowPayment(aConsent({ payments: [immediate], formId: 'frm_1' }))).toBeNull();
    expect(payNowPayment(aConsent({ payments: [] }))).toBeNull();
  });
});

describe('payNowGrantRequest', () => {
  it('grants the immediate payment paid by the method used, and nothing else', () => {
    const payment = anImmediatePayment({ status: 'executed' });
    const consent = aConsent({ payments: [payment] });
    expect(payNowGrantRequest(consent, payment, 'transfer', false)).toEqual({
      originalRequestId: null,
      consentData: { consentId: consent.consentId },
      userAuthenticated: false,
      attestDiscoveryId: consent.attestDiscoveryId,
      immediatePayments: {
        granted: true,
        selectedAccounts: [],
        paymentMethods: [{ type: 'transfer', paymentId: payment.paymentId }],
      },
    });
  });
});

describe('paymentSourceText', () => {
  it("names the sender's bank, account name and last 4 digits once known", () => {
    expect(
      paymentSourceText({
        method: 'transfer',
        payerBank: {
          bankName: 'Guaranty Trust Bank',
          accountName: 'Adaeze Okafor',
          accountNumber: '0123456785',
          institutionCode: '058',
        },
      }),
    ).toBe('Guaranty Trust Bank · Adaeze Okafor · ****6785');
    expect(
      paymentSourceText({
        method: 'transfer',
        payerBank: {
          bankName: 'Access Bank',
          accountName: null,
          accountNumber: null,
          institutionCode: null,
        },
      }),
    ).toBe('Access Bank');
  });
  it('names the card that paid by brand and its last 4 digits, never its first 6', () => {
    expect(
      paymentSourceText({
        method: 'card',
        payerCard: { obfuscatedCard: '408408******0003', brand: 'visa' },
      }),
    ).toBe('Visa **** **** **** 0003');
  });
  it('says how the payer pays until the bank names the source', () => {
    expect(paymentSourceText({ method: 'transfer', payerBank: null })).toBe('Bank transfer');
    expect(paymentSourceText({ method: 'card' })).toBe('Card');
  });
});

describe('isPaymentFailure', () => {
  it("is the bank's or network's refusal, not a mistake in the form", () => {
    expect(isPaymentFailure('CARD_PAYMENT_FAILED')).toBe(true);
    expect(isPaymentFailure('CARD_PAYMENT_PROCESSING_FAILED')).toBe(true);
    expect(isPaymentFailure('THREE_DS_FAILED')).toBe(true);
    expect(isPaymentFailure('CARD_EXPIRED')).toBe(false);
    expect(isPaymentFailure('PAYMENT_IN_PROGRESS')).toBe(false);
  });
});

describe('isUnusableCardEnvelope', () => {
  it('is a retired key or an unreadable envelope, not a refusal of the card itself', () => {
    expect(isUnusableCardEnvelope('ENCRYPTION_KEY_RETIRED')).toBe(true);
    expect(isUnusableCardEnvelope('CARD_DETAILS_UNREADABLE')).toBe(true);
    expect(isUnusableCardEnvelope('CARD_EXPIRED')).toBe(false);
    expect(isUnusableCardEnvelope('CARD_PAYMENT_FAILED')).toBe(false);
  });
});

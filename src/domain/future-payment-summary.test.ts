import { describe, expect, it } from 'vitest';
import { futurePaymentSummary, morePaymentsText } from './future-payment-summary';
import { aPayment, anImmediatePayment } from './test-support/fixtures';

describe('futurePaymentSummary', () => {
  it.each([
    [[aPayment()], 'FitLife would like to collect 1 payment totalling ₦5,000.00'],
    [
      [aPayment(), aPayment({ amount: 123_456 }), anImmediatePayment()],
      'FitLife would like to collect 2 payments totalling ₦6,234.56',
    ],
    [[], 'FitLife would like to collect 0 payments totalling ₦0.00'],
  ])('counts and totals only future payments (%#)', (payments, text) => {
    expect(futurePaymentSummary('FitLife', payments)).toBe(text);
  });
});

describe('morePaymentsText', () => {
  it.each([
    [1, '+1 more payment'],
    [4, '+4 more payments'],
  ])('%i → %j', (n, text) => {
    expect(morePaymentsText(n)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { isGrantedByPayment, paymentGrantsConsent } from './granted-by-payment';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

const paid = anImmediatePayment({ status: 'executed', executedAt: '2026-11-25T08:00:00.000Z' });

describe('isGrantedByPayment', () => {
  it('grants a consent asking only for an immediate payment, once it is executed', () => {
    expect(isGrantedByPayment(aConsent({ payments: [paid] }))).toBe(true);
  });

  it.each([
    ['its payment is not executed yet', aConsent({ payments: [anImmediatePayment()] })],
    [
      'it asks for sign-in',
      aConsent({
        payments: [paid],
        requirements: { requiresAuth: true, requiresAccount: false },
      }),
    ],
    ['it also asks for future payments', aConsent({ payments: [paid, aPayment()] })],
    ['it also asks to share data', aConsent({ payments: [paid], dataSharing: { bvnData: true } })],
    [
      'it asks for named data sub-items',
      aConsent({ payments: [paid], dataSharing: { bankAccounts: ['Salary account'] } }),
    ],
    ['it has a form to complete', aConsent({ payments: [paid], formId: 'frm_1' })],
    ['it asks for no payment at all', aConsent()],
  ])('leaves the grant to the payer when %s', (_, consent) => {
    expect(isGrantedByPayment(consent)).toBe(false);
  });

  it('treats a data category asked as false as not asked', () => {
    const consent = aConsent({ payments: [paid], dataSharing: { bvnData: false } });
    expect(isGrantedByPayment(consent)).toBe(true);
  });
});

describe('paymentGrantsConsent', () => {
  it('is true of a consent its unpaid immediate payment will grant once paid', () => {
    const unpaid = aConsent({ payments: [anImmediatePayment()] });
    expect(paymentGrantsConsent(unpaid)).toBe(true);
    expect(isGrantedByPayment(unpaid)).toBe(false);
  });

  const unpaid = anImmediatePayment();
  it.each([
    [
      'it asks for sign-in',
      aConsent({
        payments: [unpaid],
        requirements: { requiresAuth: true, requiresAccount: false },
      }),
    ],
    ['it also asks for future payments', aConsent({ payments: [unpaid, aPayment()] })],
    [
      'it also asks to share data',
      aConsent({ payments: [unpaid], dataSharing: { bvnData: true } }),
    ],
    ['it has a form to complete', aConsent({ payments: [unpaid], formId: 'frm_1' })],
    ['it asks for no payment at all', aConsent()],
  ])('is false when %s', (_, consent) => {
    expect(paymentGrantsConsent(consent)).toBe(false);
  });
});

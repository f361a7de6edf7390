import { describe, expect, it } from 'vitest';
import {
  canRevoke,
  payerConsentSummary,
  revokeConsequences,
  declinedConsentMessage,
  revokedConsentMessage,
  upcomingDebits,
} from './payer-consents';
import { CONSENT_STATUSES, type TPayment } from './schemas/consent';
import { aPayment, anImmediatePayment } from './test-support/fixtures';

const future = (id: string, dueDate: string | null, overrides: Partial<TPayment> = {}) =>
  aPayment({ paymentId: id, dueDate, amount: 100_000, ...overrides });

describe('canRevoke', () => {
  it('lets only a granted consent be revoked', () => {
    const revocable = CONSENT_STATUSES.filter((status) => canRevoke({ status }));
    expect(revocable).toEqual(['granted']);
  });
});

describe('upcomingDebits', () => {
  const payments = [
    anImmediatePayment({ status: 'executed' }),
    future('pay_march', '2031-03-01T00:00:00.000Z'),
    future('pay_as_needed', null, { amountType: 'variable' }),
    future('pay_jan', '2031-01-01T00:00:00.000Z', { status: 'executed' }),
    future('pay_feb', '2031-02-01T00:00:00.000Z', { narration: 'February' }),
    future('pay_cancelled', '2031-01-15T00:00:00.000Z', { status: 'cancelled' }),
  ];

  it('lists future payments still owed, soonest first, As needed last', () => {
    expect(upcomingDebits({ status: 'granted', payments }).map((debit) => debit.paymentId)).toEqual(
      ['pay_feb', 'pay_march', 'pay_as_needed'],
    );
  });

  it('keeps the debit details the list shows', () => {
    expect(upcomingDebits({ status: 'granted', payments }, 1)).toEqual([
      {
        paymentId: 'pay_feb',
        amount: 100_000,
        amountType: 'fixed',
        narration: 'February',
        dueDate: '2031-02-01T00:00:00.000Z',
      },
    ]);
  });

  it('owes nothing on a consent that is not granted', () => {
    expect(upcomingDebits({ status: 'revoked', payments })).toEqual([]);
    expect(upcomingDebits({ status: 'pending', payments })).toEqual([]);
  });

  it('keeps the order of payments due on the same day, and at most three by default', () => {
    const sameDay = ['a', 'b', 'c', 'd'].map((id) => future(id, '2031-05-01T00:00:00.000Z'));
    expect(
      upcomingDebits({ status: 'granted', payments: sameDay }).map((d) => d.paymentId),
    ).toEqual(['a', 'b', 'c']);
  });
});

describe('payerConsentSummary', () => {
  it('says what an active consent paid, its future payments and the next debit', () => {
    const payments = [
      anImmediatePayment({ status: 'executed', amount: 250_000 }),
      future('pay_1', '2031-02-01T00:00:00.000Z', { amount: 500_000 }),
      future('pay_2', '2031-03-01T00:00:00.000Z', { amount: 500_050 }),
    ];
    const summary = payerConsentSummary({
      status: 'granted',
      payments,
      upcomingDebits: upcomingDebits({ status: 'granted', payments }),
    });
    expect(summary).toEqual({
      statusLabel: 'Active',
      amountPaid: '₦2,500.00',
      futurePayments: '2 payments totalling ₦10,000.50',
      nextDebit: '₦5,000.00 on 1 Feb 2031',
      cancelled: null,
    });
  });

  it("says 'as needed' for a next debit without a due date, and one payment in the singular", () => {
    const payments = [future('pay_1', null, { amount: 120_000 })];
    const summary = payerConsentSummary({
      status: 'granted',
      payments,
      upcomingDebits: upcomingDebits({ status: 'granted', payments }),
    });
    expect(summary.futurePayments).toBe('1 payment totalling ₦1,200.00');
    expect(summary.nextDebit).toBe('₦1,200.00 as needed');
    expect(summary.amountPaid).toBeNull();
  });

  it('shows a revoked consent with no next debit and the payments it cancelled', () => {
    const payments = [
      future('pay_1', '2031-01-01T00:00:00.000Z', { status: 'executed' }),
      future('pay_2', '2031-02-01T00:00:00.000Z', { status: 'cancelled' }),
      future('pay_3', '2031-03-01T00:00:00.000Z', { status: 'cancelled' }),
    ];
    expect(payerConsentSummary({ status: 'revoked', payments, upcomingDebits: [] })).toMatchObject({
      statusLabel: 'Revoked',
      futurePayments: '3 payments totalling ₦3,000.00',
      nextDebit: null,
      cancelled: '2 payments',
    });
  });

  it('shows a paused consent as paused, with no next debit while it is', () => {
    const payments = [future('pay_1', '2031-01-01T00:00:00.000Z')];
    const upcomingDebits = [
      {
        paymentId: 'pay_1',
        amount: 1000,
        amountType: 'fixed' as const,
        narration: 'Rent',
        dueDate: '2031-01-01T00:00:00.000Z',
      },
    ];
    const granted = { status: 'granted' as const, payments, upcomingDebits };
    expect(payerConsentSummary({ ...granted, pausedAt: '2030-12-01T00:00:00.000Z' })).toMatchObject(
      { statusLabel: 'Paused', nextDebit: null },
    );
    expect(payerConsentSummary({ ...granted, pausedAt: null })).toMatchObject({
      statusLabel: 'Active',
      nextDebit: '₦10.00 on 1 Jan 2031',
    });
  });

  it('has no future payment line for a consent without future payments', () => {
    const summary = payerConsentSummary({
      status: 'granted',
      payments: [anImmediatePayment({ status: 'executed' })],
      upcomingDebits: [],
    });
    expect(summary.futurePayments).toBeNull();
    expect(summary.nextDebit).toBeNull();
  });
});

describe('revokeConsequences', () => {
  it('says the debits still due stop and the merchant is told', () => {
    expect(revokeConsequences('FitLife Gym', 2)).toEqual([
      'The 2 future payments still due to FitLife Gym will be cancelled: nothing more will be debited from your accounts.',
      'FitLife Gym will be told that you revoked it.',
      'Payments already made are not refunded by revoking.',
    ]);
  });

  it('says the merchant can no longer debit when nothing is due', () => {
    expect(revokeConsequences('FitLife Gym', 0)[0]).toBe(
      'FitLife Gym will not be able to debit your accounts under this consent.',
    );
  });
});

describe('revokedConsentMessage', () => {
  it('names the merchant, or Merchant without a name', () => {
    expect(revokedConsentMessage('FitLife Gym')).toBe(
      'This consent to FitLife Gym was revoked by the payer. No further payments will be collected under it.',
    );
    expect(revokedConsentMessage('')).toContain('consent to Merchant was');
  });
});

describe('declinedConsentMessage', () => {
  it('says in plain words that the request was declined and nothing granted', () => {
    expect(declinedConsentMessage('FitLife Gym')).toBe(
      'You declined this request from FitLife Gym. Nothing was granted to them.',
    );
    expect(declinedConsentMessage('')).toContain('request from Merchant.');
  });
});

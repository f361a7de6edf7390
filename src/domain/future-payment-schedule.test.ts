import { describe, expect, it } from 'vitest';
import { groupFuturePayments } from './future-payment-schedule';
import { aPayment, anImmediatePayment } from './test-support/fixtures';

const monthly = (id: string, dueDate: string, over = {}) =>
  aPayment({ paymentId: id, dueDate, frequency: 'monthly', interval: 1, ...over });

describe('groupFuturePayments', () => {
  it('groups identical monthly payments into one row with count, start and end date', () => {
    const rows = groupFuturePayments([
      monthly('p1', '2025-01-05'),
      monthly('p2', '2025-02-05'),
      monthly('p3', '2025-03-05'),
    ]);
    expect(rows).toEqual([
      {
        paymentIds: ['p1', 'p2', 'p3'],
        count: 3,
        amount: 500_000,
        amountType: 'fixed',
        frequency: 'monthly',
        interval: 1,
        narration: 'Gym membership',
        paypointId: null,
        startDate: '2025-01-05',
        endDate: '2025-03-05',
        recurring: true,
      },
    ]);
  });

  it.each([
    ['frequency', { frequency: 'weekly' }],
    ['interval', { interval: 2 }],
    ['amount', { amount: 1 }],
    ['amountType', { amountType: 'variable' }],
    ['narration', { narration: 'Other' }],
    ['paypointId', { paypointId: 'pp_1' }],
  ] as const)('keeps payments apart when their %s differs', (_, change) => {
    const rows = groupFuturePayments([
      monthly('p1', '2025-01-05'),
      monthly('p2', '2025-02-05', change),
    ]);
    expect(rows.map((r) => r.count)).toEqual([1, 1]);
  });

  it.each([
    ['no frequency', { frequency: null, interval: 1 }],
    ['no interval', { frequency: 'monthly', interval: null }],
    ['neither', { frequency: null, interval: null }],
  ] as const)('never groups payments with %s: each is a single row', (_, change) => {
    const rows = groupFuturePayments([
      aPayment({ paymentId: 'p1', ...change }),
      aPayment({ paymentId: 'p2', ...change }),
    ]);
    expect(rows.map((r) => [r.paymentIds, r.count, r.recurring])).toEqual([
      [['p1'], 1, false],
      [['p2'], 1, false],
    ]);
  });

  it('leaves immediate payments out of the schedule', () => {
    expect(groupFuturePayments([anImmediatePayment(), monthly('p1', '2025-01-05')])).toHaveLength(
      1,
    );
  });

  it('keeps rows in the order each first appears', () => {
    const rows = groupFuturePayments([
      monthly('p1', '2025-01-05'),
      aPayment({ paymentId: 'one-off' }),
      monthly('p2', '2025-02-05'),
      monthly('w1', '2025-01-06', { frequency: 'weekly' }),
    ]);
    expect(rows.map((r) => r.paymentIds)).toEqual([['p1', 'p2'], ['one-off'], ['w1']]);
  });

  it('takes the earliest start and the latest end, whatever the order given', () => {
    const rows = groupFuturePayments([
      monthly('p2', '2025-02-05', { startDate: null }),
      monthly('p1', '2025-01-05'),
      monthly('p3', '2025-03-05', { endDate: '2025-12-05' }),
    ]);
    expect(rows[0]).toMatchObject({ startDate: '2025-01-05', endDate: '2025-12-05' });
  });

  it('has no dates for payments due as needed', () => {
    const [row] = groupFuturePayments([aPayment({ dueDate: null })]);
    expect(row).toMatchObject({ startDate: null, endDate: null });
  });
});

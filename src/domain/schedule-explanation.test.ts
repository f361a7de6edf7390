import { describe, expect, it } from 'vitest';
import type { TScheduleRow } from './future-payment-schedule';
import { scheduleExplanation } from './schedule-explanation';

const row: TScheduleRow = {
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
};

describe('scheduleExplanation', () => {
  it.each<[string, TScheduleRow, string]>([
    [
      'a fixed monthly series',
      row,
      "FitLife will collect a fixed amount of ₦5,000.00 every month from 5 Jan 2025 to 5 Mar 2025: 3 payments in all. Each payment is exactly this amount. You'll be notified before each debit.",
    ],
    [
      'a variable two-monthly series without an end',
      { ...row, amountType: 'variable', interval: 2, count: 1, endDate: null },
      "FitLife will collect a variable amount of up to ₦5,000.00 every 2 months starting 5 Jan 2025: 1 payment in all. Each payment may be less, but never more than ₦5,000.00. You'll be notified before each debit.",
    ],
    [
      'a one-off payment with a date',
      {
        ...row,
        count: 1,
        frequency: null,
        interval: null,
        recurring: false,
        endDate: '2025-01-05',
      },
      "FitLife will collect a fixed amount of ₦5,000.00 once on 5 Jan 2025. Each payment is exactly this amount. You'll be notified before each debit.",
    ],
    [
      'a one-off payment as needed',
      {
        ...row,
        count: 1,
        frequency: null,
        interval: null,
        recurring: false,
        startDate: null,
        endDate: null,
      },
      "FitLife will collect a fixed amount of ₦5,000.00 once, when needed. Each payment is exactly this amount. You'll be notified before each debit.",
    ],
  ])('explains %s', (_, input, text) => {
    expect(scheduleExplanation(input, 'FitLife')).toBe(text);
  });
});

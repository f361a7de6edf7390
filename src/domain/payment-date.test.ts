import { describe, expect, it } from 'vitest';
import { dueDateLabel, formatPaymentDate } from './payment-date';

describe('formatPaymentDate', () => {
  it.each([
    ['2025-01-05', '5 Jan 2025'],
    ['2025-01-04T23:30:00Z', '5 Jan 2025'],
    ['2025-12-31T22:59:59Z', '31 Dec 2025'],
    ['not a date', null],
    [null, null],
  ])('reads %j on the Lagos calendar as %j', (iso, text) => {
    expect(formatPaymentDate(iso)).toBe(text);
  });
});

describe('dueDateLabel', () => {
  it.each([
    ['2025-01-05', '5 Jan 2025'],
    [null, 'As needed'],
  ])('%j → %j', (due, text) => {
    expect(dueDateLabel(due)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import {
  dueDateLabel,
  formatLagosDateTime,
  formatPaymentDate,
  sidePanelDueText,
} from './payment-date';

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

describe('formatLagosDateTime', () => {
  it.each([
    ['2026-11-25T02:57:00Z', '25 Nov 2026, 3:57 am'],
    ['2026-11-25T23:05:00Z', '26 Nov 2026, 12:05 am'],
    ['2026-11-25T14:30:00Z', '25 Nov 2026, 3:30 pm'],
  ])('reads %j on the Lagos clock as %j', (iso, text) => {
    expect(formatLagosDateTime(iso)).toBe(text);
  });
});

describe('sidePanelDueText', () => {
  const due = '2027-03-01T09:00:00Z';
  it.each([
    ['an immediate payment to pay', 'immediate', 'pending', false, 'Due now'],
    ['an immediate payment executed', 'immediate', 'executed', false, 'Paid'],
    [
      'an immediate payment completed here, not read again yet',
      'immediate',
      'pending',
      true,
      'Paid',
    ],
    ['a future payment', 'future', 'pending', false, '1 Mar 2027'],
    ['a future payment executed', 'future', 'executed', false, 'Paid'],
  ] as const)('%s: %s', (_, type, status, paidHere, text) => {
    expect(
      sidePanelDueText({ type, status, dueDate: type === 'future' ? due : null }, paidHere),
    ).toBe(text);
  });
});

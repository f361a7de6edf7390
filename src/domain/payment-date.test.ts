import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCY_LOCALE } from './constants';
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

  it('refuses a value that is no date, as Intl did', () => {
    expect(() => formatLagosDateTime('not a date')).toThrow(RangeError);
  });
});

describe("the Lagos calendar and clock, as Intl's en-NG writes them for Africa/Lagos", () => {
  const lagos = { timeZone: 'Africa/Lagos' } as const;
  const date = new Intl.DateTimeFormat(CURRENCY_LOCALE, {
    ...lagos,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  const dateTime = new Intl.DateTimeFormat(CURRENCY_LOCALE, {
    ...lagos,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: 'h12',
  });
  // From 1970 to 2200: every instant a consent, payment or mandate can carry.
  const instants = fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) });

  it('dates every instant as Intl does, each month and each hour around midnight included', () => {
    fc.assert(
      fc.property(instants, (time) => {
        const iso = new Date(time).toISOString();
        expect(formatPaymentDate(iso)).toBe(date.format(time));
        expect(formatLagosDateTime(iso)).toBe(dateTime.format(time));
      }),
      { numRuns: 5_000 },
    );
    for (let month = 0; month < 12; month += 1) {
      for (const hour of [0, 11, 12, 22, 23]) {
        const time = Date.UTC(2026, month, 28, hour, 5);
        expect(formatLagosDateTime(new Date(time))).toBe(dateTime.format(time));
      }
    }
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

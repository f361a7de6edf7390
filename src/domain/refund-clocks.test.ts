import { describe, expect, it } from 'vitest';
import {
  addWorkingDays,
  refundExpectedBy,
  refundExpectedText,
  reversalExpectedBy,
} from './refund-clocks';

describe('refund clocks', () => {
  it('counts working days on the Lagos calendar, skipping the weekend', () => {
    // Friday 4 Dec 2026, 10:00 in Lagos: two working days on is Tuesday 8 Dec.
    expect(addWorkingDays(new Date('2026-12-04T09:00:00Z'), 2)).toBe('2026-12-08');
    // Thursday 23:30 UTC is already Friday in Lagos.
    expect(addWorkingDays(new Date('2026-12-03T23:30:00Z'), 1)).toBe('2026-12-07');
    expect(addWorkingDays(new Date('2026-12-05T12:00:00Z'), 0)).toBe('2026-12-05');
  });

  it('gives a pending card refund ten working days and a transfer reversal two', () => {
    const createdAt = new Date('2026-12-01T10:00:00Z'); // a Tuesday
    expect(refundExpectedBy({ channel: 'card', status: 'pending', createdAt })).toBe('2026-12-15');
    expect(refundExpectedBy({ channel: 'transfer', status: 'pending', createdAt })).toBe(
      '2026-12-03',
    );
    expect(refundExpectedBy({ channel: 'debit', status: 'pending', createdAt })).toBe('2026-12-04');
  });

  it('has no date for a refund already given back or refused', () => {
    const createdAt = new Date('2026-12-01T10:00:00Z');
    expect(refundExpectedBy({ channel: 'card', status: 'processed', createdAt })).toBeNull();
    expect(refundExpectedBy({ channel: 'card', status: 'failed', createdAt })).toBeNull();
  });

  it('gives a reversal its channel’s working days from when it was given back, kept after', () => {
    const since = new Date('2026-12-04T09:00:00Z'); // a Friday
    expect(reversalExpectedBy({ channel: 'debit', since })).toBe('2026-12-09');
    expect(reversalExpectedBy({ channel: 'card', since })).toBe('2026-12-18');
  });

  it('refuses a negative count of days', () => {
    expect(() => addWorkingDays(new Date(), -1)).toThrow(RangeError);
  });

  it('says the date a pending refund is expected by, and nothing once it is not waited for', () => {
    expect(refundExpectedText('2031-06-10')).toBe('Expected by 10 Jun 2031');
    expect(refundExpectedText('2031-12-31')).toBe('Expected by 31 Dec 2031');
    expect(refundExpectedText(null)).toBeNull();
  });
});

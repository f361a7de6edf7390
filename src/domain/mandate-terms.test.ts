import { describe, expect, it } from 'vitest';
import { keptTermsOf, mandateCovers, mandateTermsOf, OPEN_MANDATE_DAYS } from './mandate-terms';

const NOW = new Date('2026-11-28T10:00:00Z');
const at = (iso: string) => new Date(iso);
const payment = (amount: number, dueDate: Date | null, more: object = {}) => ({
  amount,
  onDemand: false,
  dueDate,
  startDate: null,
  endDate: null,
  ...more,
});

describe('mandateTermsOf', () => {
  it('allows the largest payment, the most payments due in one Lagos month, from the first date to the last', () => {
    const terms = mandateTermsOf(
      [
        payment(200_000, at('2026-12-05T09:00:00Z')),
        payment(350_000, at('2026-12-20T09:00:00Z')),
        // 23:30 UTC on 31 December is 1 January in Lagos.
        payment(100_000, at('2026-12-31T23:30:00Z')),
        payment(200_000, at('2027-03-05T09:00:00Z')),
      ],
      NOW,
    );
    expect(terms).toEqual({
      maxDebitKobo: 350_000,
      maxDebitsPerMonth: 2,
      startsAt: at('2026-12-05T09:00:00Z'),
      endsAt: at('2027-03-05T09:00:00Z'),
    });
  });

  it('counts a payment with no due date in every month, from now, to its end date or a year on', () => {
    expect(
      mandateTermsOf(
        [
          payment(500_000, null, { endDate: at('2027-06-01T00:00:00Z') }),
          payment(100_000, at('2026-12-05T09:00:00Z')),
        ],
        NOW,
      ),
    ).toEqual({
      maxDebitKobo: 500_000,
      maxDebitsPerMonth: 2,
      startsAt: NOW,
      endsAt: at('2027-06-01T00:00:00Z'),
    });
    expect(mandateTermsOf([payment(500_000, null)], NOW)?.endsAt).toEqual(
      new Date(NOW.getTime() + OPEN_MANDATE_DAYS * 24 * 60 * 60_000),
    );
  });

  it('allows a payment its merchant collects when they ask from now, in every month, though it names a due date', () => {
    expect(
      mandateTermsOf(
        [
          payment(800_000, at('2026-12-28T09:00:00Z'), { onDemand: true }),
          payment(100_000, at('2027-01-05T09:00:00Z')),
        ],
        NOW,
      ),
    ).toEqual({
      maxDebitKobo: 800_000,
      maxDebitsPerMonth: 2,
      startsAt: NOW,
      endsAt: new Date(NOW.getTime() + OPEN_MANDATE_DAYS * 24 * 60 * 60_000),
    });
  });

  it('allows nothing without payments', () => {
    expect(mandateTermsOf([], NOW)).toBeNull();
  });

  it('covers what it was set up for, and no more per debit, per month or past its dates', () => {
    const setUpFor = [payment(300_000, at('2026-12-05T09:00:00Z'))];
    const terms = mandateTermsOf(setUpFor, NOW);
    if (!terms) throw new Error('no terms');
    const kept = keptTermsOf(terms, NOW);
    expect(mandateCovers(kept, setUpFor)).toBe(true);
    expect(mandateCovers(kept, [payment(300_000, at('2026-12-05T20:00:00Z'))])).toBe(true);
    expect(mandateCovers(kept, [payment(300_001, at('2026-12-05T09:00:00Z'))])).toBe(false);
    expect(mandateCovers(kept, [...setUpFor, payment(100_000, at('2026-12-05T09:00:00Z'))])).toBe(
      false,
    );
    expect(mandateCovers(kept, [payment(100_000, at('2026-12-06T09:00:00Z'))])).toBe(false);
    expect(mandateCovers(kept, [payment(100_000, at('2026-12-04T09:00:00Z'))])).toBe(false);
  });

  it('covers a payment with no end as of its set-up, however long after it is read', () => {
    const open = [payment(50_000, null, { onDemand: true })];
    const terms = mandateTermsOf(open, NOW);
    if (!terms) throw new Error('no terms');
    expect(mandateCovers(keptTermsOf(terms, NOW), open)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { collectionNoticeWords, collectionTimelineWords } from './dashboard-texts';

const collection = { amount: 250_000, dueAt: '2031-07-01T08:00:00.000Z', failureReason: null };

describe("a collection on the merchant's payment timeline", () => {
  it('says the payer skipped it, or that it fell due while paused, and that nothing was debited', () => {
    expect(
      collectionTimelineWords({ ...collection, status: 'skipped', failureReason: 'payer_skipped' }),
    ).toEqual({
      title: '₦2,500.00 skipped by the payer',
      detail: 'Due 1 Jul 2031, 9:00 am. Nothing was debited.',
    });
    expect(
      collectionTimelineWords({
        ...collection,
        status: 'skipped',
        failureReason: 'consent_paused',
      }),
    ).toEqual({
      title: '₦2,500.00 skipped: it fell due while the payer’s payments were paused',
      detail: 'Due 1 Jul 2031, 9:00 am. Nothing was debited.',
    });
  });

  it("names a failed or cancelled collection with its reason, and says nothing of one under way or paid (the payment's own entry does)", () => {
    expect(
      collectionTimelineWords({
        ...collection,
        status: 'failed',
        failureReason: 'insufficient_funds',
      }),
    ).toEqual({ title: 'Collection of ₦2,500.00 failed', detail: 'insufficient_funds' });
    expect(collectionTimelineWords({ ...collection, status: 'cancelled' })).toEqual({
      title: 'Collection of ₦2,500.00 cancelled',
      detail: null,
    });
    for (const status of ['pending', 'collecting', 'succeeded']) {
      expect(collectionTimelineWords({ ...collection, status })).toBeNull();
    }
  });

  it('says the payer was told of the debit, and when it falls due', () => {
    expect(collectionNoticeWords(collection)).toEqual({
      title: 'The payer was told of the ₦2,500.00 debit',
      detail: 'Due 1 Jul 2031, 9:00 am',
    });
  });
});

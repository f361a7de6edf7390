import { describe, expect, it } from 'vitest';
import {
  canSkip,
  collectableAt,
  debitNoticeMessage,
  debitNoticeUrl,
  debitNoticeWords,
  debitReceiptMessage,
  latestNoticeBefore,
  NOTICE_MARGIN_MS,
  NOTICE_RETRY_MS,
  nextNoticeWindow,
  noticeLeadMs,
} from './debit-notices';

const DAY = noticeLeadMs(24);

describe('the notice before each debit', () => {
  it('keeps the due date when the notice went the whole lead before, and waits the lead otherwise', () => {
    const due = new Date('2031-01-10T09:00:00Z');
    expect(collectableAt(due, new Date(due.getTime() - DAY - 1), DAY)).toEqual(due);
    const late = new Date(due.getTime() - 1_000);
    expect(collectableAt(due, late, DAY)).toEqual(new Date(late.getTime() + DAY));
    expect(latestNoticeBefore(due, DAY)).toEqual(new Date(due.getTime() - DAY));
  });

  it('moves a debit whose notice could not be sent to the next window, its notice a lead before', () => {
    const now = new Date('2031-01-09T08:00:00Z');
    const due = new Date(now.getTime() + DAY + NOTICE_MARGIN_MS);
    const moved = nextNoticeWindow(due, now, DAY);
    // Noticed again a retry later (the claim takes what falls due within the lead and the margin).
    expect(moved.getTime() - DAY - NOTICE_MARGIN_MS).toBe(now.getTime() + NOTICE_RETRY_MS);
    expect(moved.getTime()).toBeGreaterThan(due.getTime());
    const farOff = new Date(now.getTime() + 10 * DAY);
    expect(nextNoticeWindow(farOff, now, DAY)).toEqual(farOff);
  });

  it('lets only a collection nobody has started be skipped', () => {
    expect(canSkip({ status: 'pending' })).toBe(true);
    for (const status of ['collecting', 'succeeded', 'failed', 'cancelled', 'skipped']) {
      expect(canSkip({ status })).toBe(false);
    }
  });

  it('says who, how much, for what, from which account, when, and the link', () => {
    expect(
      debitNoticeMessage({
        productName: 'Oya Money',
        merchantName: 'Tola Stores',
        amount: 1_500_000,
        narration: 'Gym membership',
        collectAt: new Date('2031-01-13T09:00:00Z'),
        accountNumber: '0123456789',
        url: debitNoticeUrl('https://pay.example/', 'col_1.0.abc'),
      }),
    ).toBe(
      'Oya Money: Tola Stores will debit ₦15,000.00 for Gym membership from your account ' +
        '****6789 on 13 Jan 2031. To skip it or stop all future payments: ' +
        'https://pay.example/debits/col_1.0.abc',
    );
  });

  it('says in the receipt who debited how much, from which account, when, and the outcome', () => {
    const receipt = {
      productName: 'Oya Money',
      merchantName: 'Tola Stores',
      amount: 1_500_000,
      narration: 'Gym membership',
      accountNumber: '0123456789',
      at: new Date('2031-01-13T09:00:00Z'),
    };
    expect(debitReceiptMessage({ ...receipt, outcome: 'collected' })).toBe(
      'Oya Money: Tola Stores debited ₦15,000.00 for Gym membership from your account ****6789 ' +
        'on 13 Jan 2031. Payment made.',
    );
    expect(debitReceiptMessage({ ...receipt, outcome: 'failed' })).toBe(
      'Oya Money: Tola Stores could not debit ₦15,000.00 for Gym membership from your account ' +
        '****6789 on 13 Jan 2031. Payment failed: nothing was collected.',
    );
  });

  it('says why a payment was skipped in plain words', () => {
    const notice = {
      merchantName: 'Tola Stores',
      amount: 250_000,
      collectAt: '2031-01-13T09:00:00Z',
    };
    expect(debitNoticeWords({ ...notice, state: 'skipped', skipReason: 'payer_skipped' })).toEqual({
      title: 'Payment skipped',
      line: 'Tola Stores will not debit ₦2,500.00. Tola Stores has been told.',
    });
    expect(
      debitNoticeWords({ ...notice, state: 'skipped', skipReason: 'consent_paused' }).line,
    ).toContain('while your payments were paused');
    expect(debitNoticeWords({ ...notice, state: 'upcoming', skipReason: null }).title).toBe(
      'Tola Stores will debit ₦2,500.00',
    );
  });
});

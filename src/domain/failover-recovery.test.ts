import { describe, expect, it } from 'vitest';
import {
  failedTechnically,
  lagosMonthStart,
  recoveredTotals,
  recoveringAttempt,
  type TRecoveryAttempt,
} from './failover-recovery';

const at = (iso: string) => new Date(iso);

const attempt = (over: Partial<TRecoveryAttempt>): TRecoveryAttempt => ({
  provider: 'paystack',
  status: 'failed',
  failureCode: null,
  failureReason: null,
  createdAt: at('2026-11-28T10:00:00Z'),
  ...over,
});

const noAnswerAtPaystack = attempt({ failureCode: 'CARD_BANK_NO_ANSWER' });
const paidAtMonnify = attempt({
  provider: 'monnify',
  status: 'completed',
  createdAt: at('2026-11-28T10:05:00Z'),
});

describe('failedTechnically', () => {
  it('counts a provider that never answered: a charge, a terminal, an account not opened', () => {
    expect(failedTechnically(noAnswerAtPaystack)).toBe(true);
    expect(failedTechnically(attempt({ failureCode: 'TERMINAL_TIMEOUT' }))).toBe(true);
    expect(
      failedTechnically(
        attempt({ failureCode: 'PAYMENT_FAILED', failureReason: 'provider_error' }),
      ),
    ).toBe(true);
  });

  it("does not count the payer's answers: a decline, a wrong OTP, an account left to expire", () => {
    for (const failureCode of [
      'CARD_PAYMENT_FAILED',
      'OTP_VERIFICATION_FAILED',
      'TRANSFER_ACCOUNT_EXPIRED',
      'PAYMENT_ALREADY_MADE',
    ]) {
      expect(failedTechnically(attempt({ failureCode, failureReason: 'declined' }))).toBe(false);
    }
  });

  it('counts only an attempt that ended', () => {
    expect(failedTechnically({ ...noAnswerAtPaystack, status: 'in_progress' })).toBe(false);
  });
});

describe('recoveringAttempt', () => {
  it('is the completed attempt at a second provider after the first failed technically', () => {
    expect(recoveringAttempt([noAnswerAtPaystack, paidAtMonnify])).toBe(paidAtMonnify);
  });

  it('is null when the first provider declined the payer rather than failing', () => {
    const declined = attempt({ failureCode: 'CARD_PAYMENT_FAILED', failureReason: 'declined' });
    expect(recoveringAttempt([declined, paidAtMonnify])).toBeNull();
  });

  it('is null when the same provider failed and then completed it', () => {
    expect(
      recoveringAttempt([noAnswerAtPaystack, { ...paidAtMonnify, provider: 'paystack' }]),
    ).toBeNull();
  });

  it('is null for a payment no attempt completed', () => {
    expect(recoveringAttempt([noAnswerAtPaystack])).toBeNull();
  });

  it('is null when the failure at the other provider came after the payment was paid', () => {
    const later = { ...noAnswerAtPaystack, createdAt: at('2026-11-28T10:09:00Z') };
    expect(recoveringAttempt([paidAtMonnify, later])).toBeNull();
  });
});

describe('recoveredTotals', () => {
  const now = at('2026-11-28T22:30:00Z'); // 11:30 pm on 28 Nov in Lagos

  it("counts today's and this month's payments and kobo on Lagos's calendar", () => {
    const totals = recoveredTotals(
      [
        { amount: 250_000, executedAt: at('2026-11-28T08:00:00Z') },
        // 00:30 on 28 Nov in Lagos: today there, still the 27th in UTC.
        { amount: 100_000, executedAt: at('2026-11-27T23:30:00Z') },
        { amount: 70_000, executedAt: at('2026-11-02T12:00:00Z') },
        // 00:30 on 1 Nov in Lagos: this month.
        { amount: 5_000, executedAt: at('2026-10-31T23:30:00Z') },
        // Last month.
        { amount: 999_999, executedAt: at('2026-10-31T22:30:00Z') },
      ],
      now,
    );
    expect(totals).toEqual({
      today: { payments: 2, amount: 350_000 },
      month: { payments: 4, amount: 425_000 },
    });
  });

  it('is zero without recovered payments', () => {
    expect(recoveredTotals([], now)).toEqual({
      today: { payments: 0, amount: 0 },
      month: { payments: 0, amount: 0 },
    });
  });

  it('starts the month at midnight of its first day in Lagos', () => {
    expect(lagosMonthStart(now).toISOString()).toBe('2026-10-31T23:00:00.000Z');
    // 00:10 on 1 Dec in Lagos is already December there.
    expect(lagosMonthStart(at('2026-11-30T23:10:00Z')).toISOString()).toBe(
      '2026-11-30T23:00:00.000Z',
    );
  });
});

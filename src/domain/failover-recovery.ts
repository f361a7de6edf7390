/*
 * "Recovered by failover" on the dashboard's Routes screen (docs/routing.md): a payment that a
 * second provider completed after the first one failed it technically. It is read from the rows
 * alone, so every process and every later reading counts the same payments:
 *
 * - the payment was executed, by its one completed attempt;
 * - an earlier attempt of the same payment, at another provider, failed technically: the
 *   provider never answered (a charge its bank or network left unanswered, a one-time account it
 *   could not open, a terminal that timed out).
 *
 * A payer's decline, insufficient funds, a wrong PIN or OTP, or an account left to expire is an
 * answer, not a failure of the provider: a payment paid after one of them is not recovered,
 * whichever provider took it. Nor is a payment whose earlier attempt failed at the same provider.
 */

import type { TErrorCode } from './errors';

/** What the rule reads of one attempt. */
export type TRecoveryAttempt = {
  provider: string;
  status: 'pending' | 'in_progress' | 'completed' | 'failed';
  failureCode: string | null;
  failureReason: string | null;
  createdAt: Date;
};

/**
 * The ends of an attempt that say its provider did not answer, as the attempt rows keep them:
 * by the catalogue's code, or by the reason where the code is a general one.
 */
export const TECHNICAL_FAILURE_CODES: readonly TErrorCode[] = [
  // A card charge the card network left unanswered, asked about after and not taken.
  'CARD_BANK_NO_ANSWER',
  // A pushed terminal's request that timed out at its provider.
  'TERMINAL_TIMEOUT',
];
/** A one-time account the provider could not open (PAYMENT_FAILED, its reason 'provider_error'). */
export const TECHNICAL_FAILURE_REASONS: readonly string[] = ['provider_error'];

/** Whether an attempt ended because its provider did not answer (not by the payer's answer). */
export function failedTechnically(attempt: TRecoveryAttempt): boolean {
  if (attempt.status !== 'failed') return false;
  return (
    TECHNICAL_FAILURE_CODES.some((code) => code === attempt.failureCode) ||
    (attempt.failureReason !== null && TECHNICAL_FAILURE_REASONS.includes(attempt.failureReason))
  );
}

/**
 * The attempt that recovered an executed payment by failover, or null: its completed attempt,
 * where an earlier attempt at another provider failed technically.
 */
export function recoveringAttempt<T extends TRecoveryAttempt>(attempts: readonly T[]): T | null {
  const completed = attempts.find((attempt) => attempt.status === 'completed');
  if (!completed) return null;
  const failedBefore = attempts.some(
    (attempt) =>
      attempt.provider !== completed.provider &&
      attempt.createdAt.getTime() <= completed.createdAt.getTime() &&
      attempt !== completed &&
      failedTechnically(attempt),
  );
  return failedBefore ? completed : null;
}

/** Payments and kobo recovered in one period. */
export type TRecoveredTotal = { payments: number; amount: number };

/** A recovered payment, as the totals count it: its amount and when it was executed. */
export type TRecoveredPayment = { amount: number; executedAt: Date };

/** The Lagos day and month an instant falls in, as 'YYYY-MM-DD' (Lagos is UTC+1 all year). */
function lagosDayOf(at: Date): string {
  return new Date(at.getTime() + 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * Recovered payments of today and of this month on Lagos's calendar, as of `now`: a payment
 * counts on the day it was executed.
 */
export function recoveredTotals(
  recovered: readonly TRecoveredPayment[],
  now: Date,
): { today: TRecoveredTotal; month: TRecoveredTotal } {
  const today = lagosDayOf(now);
  const month = today.slice(0, 7);
  const totals = {
    today: { payments: 0, amount: 0 },
    month: { payments: 0, amount: 0 },
  };
  for (const payment of recovered) {
    const day = lagosDayOf(payment.executedAt);
    if (day.slice(0, 7) !== month || day > today) continue;
    totals.month.payments += 1;
    totals.month.amount += payment.amount;
    if (day === today) {
      totals.today.payments += 1;
      totals.today.amount += payment.amount;
    }
  }
  return totals;
}

/** The first instant of `now`'s month on Lagos's calendar: where the month's count starts. */
export function lagosMonthStart(now: Date): Date {
  const month = lagosDayOf(now).slice(0, 7);
  return new Date(Date.parse(`${month}-01T00:00:00+01:00`));
}

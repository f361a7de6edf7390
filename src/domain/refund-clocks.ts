import { formatPaymentDate } from './payment-date';
import type { TRefundState } from './refunds';

/*
 * When a refund should reach the payer (docs/payer-consents.md "Clocks you can hold us to"): a
 * date the payer can hold us to, shown beside a pending refund on /consents and on the SMS
 * receipt's page.
 *
 * Assumptions, stated because no rule we can cite fixes them for every bank:
 * - A card refund goes back through the card scheme and the card's bank posts it: allowed
 *   CARD_REFUND_WORKING_DAYS working days, the longest the schemes' issuers commonly take.
 * - A transfer reversal (money sent back by an instant transfer to the account it came from) and
 *   a direct debit given back are bank-to-bank: allowed TRANSFER_REVERSAL_WORKING_DAYS and
 *   DEBIT_REVERSAL_WORKING_DAYS.
 * - Working days are Monday to Friday on Lagos's calendar (WAT, UTC+1). Public holidays are not
 *   known to this rule, so a refund asked for around one may arrive a day or two after the date.
 * - The clock starts when the refund is asked of the provider (the refund's createdAt); a refund
 *   already given back or refused has no date to wait for.
 */

/** How a refund goes back to the payer (the refund's channel, services/payments/refunds.ts). */
export const REFUND_CHANNELS = ['card', 'transfer', 'debit'] as const;
export type TRefundChannel = (typeof REFUND_CHANNELS)[number];

export const CARD_REFUND_WORKING_DAYS = 10;
export const TRANSFER_REVERSAL_WORKING_DAYS = 2;
export const DEBIT_REVERSAL_WORKING_DAYS = 3;

/** Working days each channel is allowed, counted from the day after the refund was asked. */
export const REFUND_WORKING_DAYS: Readonly<Record<TRefundChannel, number>> = {
  card: CARD_REFUND_WORKING_DAYS,
  transfer: TRANSFER_REVERSAL_WORKING_DAYS,
  debit: DEBIT_REVERSAL_WORKING_DAYS,
};

const DAY_MS = 24 * 60 * 60 * 1000;
const LAGOS_OFFSET_MS = 60 * 60 * 1000;

/**
 * The Lagos calendar date (YYYY-MM-DD) `days` working days after the Lagos day of `from`:
 * Saturdays and Sundays are not counted.
 */
export function addWorkingDays(from: Date, days: number): string {
  if (!Number.isInteger(days) || days < 0) throw new RangeError(`addWorkingDays: ${days} days`);
  const day = new Date(from.getTime() + LAGOS_OFFSET_MS);
  day.setUTCHours(0, 0, 0, 0);
  let left = days;
  while (left > 0) {
    day.setTime(day.getTime() + DAY_MS);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return day.toISOString().slice(0, 10);
}

/**
 * The date a refund should have reached the payer by (YYYY-MM-DD, Lagos), or null when it is no
 * longer waited for (given back, or refused).
 */
export function refundExpectedBy(refund: {
  channel: TRefundChannel;
  status: TRefundState;
  createdAt: Date;
}): string | null {
  if (refund.status !== 'pending') return null;
  return addWorkingDays(refund.createdAt, REFUND_WORKING_DAYS[refund.channel]);
}

/**
 * The date money we give back ourselves should reach the payer by (YYYY-MM-DD, Lagos): a debit
 * a bank made after its payment was cancelled, or a charge that reached a payment paid another
 * way, both reversals, not a merchant's refund. The clock starts `since`: when it was given back
 * at the provider, or, still owed, when it became owed. Unlike a refund's, the date stays once it
 * is given back: the payer's bank or card scheme posts it within the channel's working days.
 */
export function reversalExpectedBy(reversal: { channel: TRefundChannel; since: Date }): string {
  return addWorkingDays(reversal.since, REFUND_WORKING_DAYS[reversal.channel]);
}

/** What the payer reads of how a refund comes back. */
export const REFUND_CHANNEL_TEXTS: Readonly<Record<TRefundChannel, string>> = {
  card: 'Back to your card',
  transfer: 'Sent back to the account you paid from',
  debit: 'Given back to the debited account',
};

/**
 * The line a payer reads under a pending refund, on /consents and the SMS receipt's page:
 * 'Expected by 10 Jun 2031'; null once it is no longer waited for.
 */
export function refundExpectedText(expectedBy: string | null): string | null {
  const date = formatPaymentDate(expectedBy);
  return date ? `Expected by ${date}` : null;
}

import { CURRENCY_LOCALE } from './constants';

// Payers are in Nigeria: dates are read on Lagos's calendar wherever the code runs.
const PAYMENT_DATE = new Intl.DateTimeFormat(CURRENCY_LOCALE, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Africa/Lagos',
});

const LAGOS_DATE_TIME = new Intl.DateTimeFormat(CURRENCY_LOCALE, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  // en-NG alone reads '15:55' in some runtimes and '3:55' in others: always '3:55 pm', and
  // '12:05 am' after midnight (hour12 alone gives en-NG's '0:05 am').
  hourCycle: 'h12',
  timeZone: 'Africa/Lagos',
});

/** '1 Dec 2026, 9:00 am', on Lagos's clock. */
export const formatLagosDateTime = (at: Date | string): string =>
  LAGOS_DATE_TIME.format(new Date(at));

/** '5 Jan 2025' for an ISO date or date-time; null when there is no readable date. */
export function formatPaymentDate(isoDate: string | null): string | null {
  if (isoDate === null) return null;
  const time = Date.parse(isoDate);
  return Number.isNaN(time) ? null : PAYMENT_DATE.format(time);
}

/** A future payment's due date, or 'As needed' when it has none (spec §2 Consent Granted). */
export function dueDateLabel(dueDate: string | null): string {
  return formatPaymentDate(dueDate) ?? 'As needed';
}

/**
 * A payment's line in the standalone side panel (spec §2 Desktop side panel; the Immediate
 * Payment's '{amount} due now' or 'paid'): 'Paid' once it is executed, or `paidHere` (told
 * completed on this page before the consent is read again); else an immediate payment is
 * 'Due now' and a future one shows its due date.
 */
export function sidePanelDueText(
  payment: { type: 'immediate' | 'future'; status: string; dueDate: string | null },
  paidHere = false,
): string {
  if (paidHere || payment.status === 'executed') return 'Paid';
  return payment.type === 'immediate' ? 'Due now' : dueDateLabel(payment.dueDate);
}

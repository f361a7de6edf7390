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

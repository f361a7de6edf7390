// Payers are in Nigeria: dates are read on Lagos's calendar wherever the code runs. Lagos keeps
// West Africa Time, UTC+1 all year (no daylight saving), so its calendar is UTC's an hour on.
// Written out rather than asked of Intl, as formatNaira is (money.ts): a browser's first Intl
// formatter loads the locale's data, tens of milliseconds of the consent's first script, and the
// texts differ between runtimes ('15:55' or '3:55 pm'). payment-date.test.ts holds them to Intl's
// own en-NG output for Africa/Lagos.
const LAGOS_OFFSET_MS = 60 * 60 * 1000;
/** en-NG's short months ('Sept', as its locale data writes it). */
const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sept',
  'Oct',
  'Nov',
  'Dec',
];

/** The Lagos calendar's date of an instant, and the Date whose UTC fields read its clock. */
function onLagosClock(time: number): { date: string; clock: Date } {
  const clock = new Date(time + LAGOS_OFFSET_MS);
  return {
    date: `${clock.getUTCDate()} ${MONTHS[clock.getUTCMonth()]} ${clock.getUTCFullYear()}`,
    clock,
  };
}

/** '1 Dec 2026, 9:00 am', on Lagos's clock; '12:05 am' after midnight. */
export function formatLagosDateTime(at: Date | string): string {
  const time = new Date(at).getTime();
  if (Number.isNaN(time)) throw new RangeError(`formatLagosDateTime: no date in ${String(at)}`);
  const { date, clock } = onLagosClock(time);
  const hours = clock.getUTCHours();
  const minutes = String(clock.getUTCMinutes()).padStart(2, '0');
  return `${date}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'am' : 'pm'}`;
}

/** '5 Jan 2025' for an ISO date or date-time; null when there is no readable date. */
export function formatPaymentDate(isoDate: string | null): string | null {
  if (isoDate === null) return null;
  const time = Date.parse(isoDate);
  return Number.isNaN(time) ? null : onLagosClock(time).date;
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

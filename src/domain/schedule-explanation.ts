import { cadencePhrase } from './frequency-label';
import type { TScheduleRow } from './future-payment-schedule';
import { formatNaira } from './money';
import { formatPaymentDate } from './payment-date';
import { countNoun } from './plural';

/**
 * The 'What this means' text of a schedule row (spec §2), in plain English. A variable amount is
 * read as a ceiling: the merchant may take less, never more.
 */
export function scheduleExplanation(row: TScheduleRow, merchantName: string): string {
  const amount = formatNaira(row.amount);
  const what =
    row.amountType === 'fixed'
      ? `a fixed amount of ${amount}`
      : `a variable amount of up to ${amount}`;
  const start = formatPaymentDate(row.startDate);
  const end = formatPaymentDate(row.endDate);

  const sentences: string[] = [];
  if (row.recurring && row.frequency !== null) {
    const when =
      start && end && start !== end
        ? ` from ${start} to ${end}`
        : start
          ? ` starting ${start}`
          : '';
    sentences.push(
      `${merchantName} will collect ${what} ${cadencePhrase(row.frequency, row.interval)}${when}: ${countNoun(row.count, 'payment')} in all.`,
    );
  } else {
    sentences.push(
      `${merchantName} will collect ${what} once${start ? ` on ${start}` : ', when needed'}.`,
    );
  }
  sentences.push(
    row.amountType === 'fixed'
      ? 'Each payment is exactly this amount.'
      : `Each payment may be less, but never more than ${amount}.`,
  );
  sentences.push("You'll be notified before each debit.");
  return sentences.join(' ');
}

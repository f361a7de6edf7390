import { amountTypeLabel, frequencyLabel } from '../../../domain/frequency-label';
import type { TScheduleRow } from '../../../domain/future-payment-schedule';
import { formatNaira } from '../../../domain/money';
import { formatPaymentDate } from '../../../domain/payment-date';

/**
 * One row of the payment schedule (spec §2 Future Payment step): its narration, 'N × amount',
 * and Fixed or Variable with the frequency label and the dates it runs between.
 */
export function ScheduleRowText({ row }: { row: TScheduleRow }) {
  return (
    <>
      <span>{row.narration}</span>
      <span className="amount">
        {row.count > 1 ? `${row.count} × ` : ''}
        {formatNaira(row.amount)}
      </span>
      <span className="secondary-text">
        {amountTypeLabel(row.amountType)} · {frequencyLabel(row.frequency, row.interval)}
        {row.startDate ? ` · ${formatPaymentDate(row.startDate)}` : ''}
        {row.endDate && row.count > 1 ? ` – ${formatPaymentDate(row.endDate)}` : ''}
      </span>
    </>
  );
}

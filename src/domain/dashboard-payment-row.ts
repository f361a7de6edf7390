import { frequencyLabel } from './frequency-label';
import { dueDateLabel, formatLagosDateTime } from './payment-date';
import type { TDashboardPaymentRow } from './schemas/dashboard';

/**
 * How the dashboard's payment list says one payment. A future payment still owed is not a payment
 * that failed to happen: it is 'scheduled', dated by when it falls due (and how often it repeats),
 * not by when the consent asked for it. Every other payment is dated by its asking.
 */
export function dashboardPaymentFacts(row: TDashboardPaymentRow): {
  status: string;
  paid: string;
  when: string;
} {
  if (row.type === 'future' && row.status === 'pending') {
    const repeats = row.frequency ? ` · ${frequencyLabel(row.frequency, row.interval)}` : '';
    return {
      status: 'scheduled',
      paid: 'Not due yet',
      when: `Due ${dueDateLabel(row.dueDate)}${repeats}`,
    };
  }
  return {
    status: row.status,
    paid: row.paidWith ?? 'Not paid',
    when: formatLagosDateTime(row.createdAt),
  };
}

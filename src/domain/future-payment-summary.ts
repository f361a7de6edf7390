import { formatNaira } from './money';
import { countNoun } from './plural';
import type { TPayment } from './schemas/consent';

/**
 * The Future Payment step's summary (spec §2): '{merchant} would like to collect N payment(s)
 * totalling {amount}', over the consent's future payments only.
 */
export function futurePaymentSummary(merchantName: string, payments: readonly TPayment[]): string {
  const future = payments.filter((p) => p.type === 'future');
  const total = future.reduce((sum, p) => sum + p.amount, 0);
  return `${merchantName} would like to collect ${countNoun(future.length, 'payment')} totalling ${formatNaira(total)}`;
}

/** '+N more payment(s)' after the first two future payments of the granted details (spec §2). */
export function morePaymentsText(hiddenCount: number): string {
  return `+${countNoun(hiddenCount, 'more payment', 'more payments')}`;
}

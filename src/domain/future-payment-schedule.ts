import type { TAmountType, TFrequency, TPayment } from './schemas/consent';

/** One row of the Future Payment step's schedule (spec §2): a recurring group or a single payment. */
export type TScheduleRow = {
  /** Ids of the payments the row stands for, in the consent's order; the first keys the row. */
  paymentIds: string[];
  count: number;
  /** Kobo per payment; for a variable amount, the most any one payment may be. */
  amount: number;
  amountType: TAmountType;
  frequency: TFrequency | null;
  interval: number | null;
  narration: string;
  paypointId: string | null;
  /** Earliest start (or due) date of the row's payments; null when none has a date. */
  startDate: string | null;
  /** Latest end (or due) date of the row's payments; null when none has a date. */
  endDate: string | null;
  /** Whether the row repeats: it has both a frequency and an interval (spec §9). */
  recurring: boolean;
};

const isRecurring = (p: TPayment): boolean => p.frequency !== null && p.interval !== null;

// spec §2: identical recurring payments share frequency, interval, amount, amountType, narration
// and paypointId. JSON keeps the key unambiguous whatever characters the narration holds.
const groupKey = (p: TPayment): string =>
  JSON.stringify([p.frequency, p.interval, p.amount, p.amountType, p.narration, p.paypointId]);

const pick = (dates: Array<string | null>, choose: (a: number, b: number) => boolean) =>
  dates.reduce<string | null>((best, date) => {
    if (date === null || Number.isNaN(Date.parse(date))) return best;
    return best === null || choose(Date.parse(date), Date.parse(best)) ? date : best;
  }, null);

function toRow(group: TPayment[]): TScheduleRow {
  // A group is created with its first payment, so it is never empty.
  const [first] = group as [TPayment, ...TPayment[]];
  return {
    paymentIds: group.map((p) => p.paymentId),
    count: group.length,
    amount: first.amount,
    amountType: first.amountType,
    frequency: first.frequency,
    interval: first.interval,
    narration: first.narration,
    paypointId: first.paypointId,
    startDate: pick(
      group.map((p) => p.startDate ?? p.dueDate),
      (a, b) => a < b,
    ),
    endDate: pick(
      group.map((p) => p.endDate ?? p.dueDate),
      (a, b) => a > b,
    ),
    recurring: isRecurring(first),
  };
}

/**
 * The schedule rows of a consent's future payments (spec §2 Future Payment step): identical
 * recurring payments become one row with a count, start and end date; any payment without both a
 * frequency and an interval is a row of its own (spec §9). Rows keep the order in which each first
 * appears. Immediate payments are not part of the schedule and are left out.
 */
export function groupFuturePayments(payments: readonly TPayment[]): TScheduleRow[] {
  const groups = new Map<string, TPayment[]>();
  payments.forEach((payment, index) => {
    if (payment.type !== 'future') return;
    const key = isRecurring(payment) ? groupKey(payment) : `single:${index}`;
    const group = groups.get(key);
    if (group) group.push(payment);
    else groups.set(key, [payment]);
  });
  return [...groups.values()].map(toRow);
}

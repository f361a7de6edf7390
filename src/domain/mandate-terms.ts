/*
 * What a mandate a provider keeps itself (Remita's, docs/providers/remita.md "Terms") allows: no
 * more than the consent it is set up for grants. Each future payment of a consent is one debit
 * (docs/merchant-clients.md: one entry per expected debit), of at most its amount (a variable
 * payment's amount is its cap, spec §3), on its due date, or whenever its merchant asks when it
 * has none ('As needed'), within its start and end dates.
 */

/** A consent's future payment, as its mandate's terms read it. */
export type TTermsPayment = {
  amount: number;
  dueDate: Date | null;
  startDate: Date | null;
  endDate: Date | null;
};

export type TMandateTerms = {
  /** The most one debit may take: the largest payment, in kobo. */
  maxDebitKobo: number;
  /** The most debits in one calendar month (Lagos): the payments that may fall in it. */
  maxDebitsPerMonth: number;
  /** The first day a debit may be made. */
  startsAt: Date;
  /** The last day a debit may be made. */
  endsAt: Date;
};

/** A payment named by no date at all ('As needed', no end): how long its mandate runs. */
export const OPEN_MANDATE_DAYS = 365;
const DAY_MS = 24 * 60 * 60_000;
/** Lagos is UTC+1 all year: a calendar month there, as the bank counts its debits. */
const LAGOS_OFFSET_MS = 60 * 60_000;

const lagosMonth = (at: Date) => {
  const lagos = new Date(at.getTime() + LAGOS_OFFSET_MS);
  return `${lagos.getUTCFullYear()}-${lagos.getUTCMonth()}`;
};

/**
 * The terms of a mandate that serves these future payments, from `now`; null when there are
 * none to serve. A payment with a due date falls in its month; one without may fall in any, so it
 * counts in every month.
 */
export function mandateTermsOf(
  payments: readonly TTermsPayment[],
  now: Date,
): TMandateTerms | null {
  if (payments.length === 0) return null;
  const perMonth = new Map<string, number>();
  let undated = 0;
  for (const p of payments) {
    if (p.dueDate === null) undated += 1;
    else perMonth.set(lagosMonth(p.dueDate), (perMonth.get(lagosMonth(p.dueDate)) ?? 0) + 1);
  }
  const firsts = payments.map((p) => p.startDate ?? p.dueDate);
  const lasts = payments.map((p) => p.endDate ?? p.dueDate);
  const earliest = Math.min(...firsts.map((d) => d?.getTime() ?? now.getTime()));
  const open = lasts.some((d) => d === null) ? now.getTime() + OPEN_MANDATE_DAYS * DAY_MS : 0;
  const latest = Math.max(open, ...lasts.map((d) => d?.getTime() ?? 0));
  return {
    maxDebitKobo: Math.max(...payments.map((p) => p.amount)),
    maxDebitsPerMonth: Math.max(0, ...perMonth.values()) + undated,
    startsAt: new Date(Math.max(earliest, now.getTime())),
    endsAt: new Date(Math.max(latest, now.getTime())),
  };
}

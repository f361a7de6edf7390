/*
 * What a mandate a provider keeps itself (Remita's, docs/providers/remita.md "Terms") allows: no
 * more than the consent it is set up for grants. Each future payment of a consent is one debit
 * (docs/merchant-clients.md: one entry per expected debit), of at most its amount (a variable
 * payment's amount is its cap, spec §3), on its due date; one its merchant collects when they ask
 * (a variable amount, or 'As needed': POST /api/v1/payments/{id}/collect takes either at any time
 * after the grant) may be debited from now to its end date.
 */

/** A consent's future payment, as its mandate's terms read it. */
export type TTermsPayment = {
  amount: number;
  /** Collected when its merchant asks (variable, or no due date), not on its due date. */
  onDemand: boolean;
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
 * none to serve. A payment collected on its due date falls in that date's month; one collected
 * when its merchant asks may fall in any, so it counts in every month, from now to its end date
 * (a year on when it has none).
 */
export function mandateTermsOf(
  payments: readonly TTermsPayment[],
  now: Date,
): TMandateTerms | null {
  if (payments.length === 0) return null;
  const perMonth = new Map<string, number>();
  let anyMonth = 0;
  const firsts: number[] = [];
  const lasts: number[] = [];
  const open = now.getTime() + OPEN_MANDATE_DAYS * DAY_MS;
  for (const p of payments) {
    if (p.onDemand || p.dueDate === null) {
      anyMonth += 1;
      firsts.push(now.getTime());
      lasts.push(p.endDate?.getTime() ?? open);
    } else {
      const month = lagosMonth(p.dueDate);
      perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
      firsts.push((p.startDate ?? p.dueDate).getTime());
      lasts.push((p.endDate ?? p.dueDate).getTime());
    }
  }
  return {
    maxDebitKobo: Math.max(...payments.map((p) => p.amount)),
    maxDebitsPerMonth: Math.max(0, ...perMonth.values()) + anyMonth,
    startsAt: new Date(Math.max(Math.min(...firsts), now.getTime())),
    endsAt: new Date(Math.max(...lasts, now.getTime())),
  };
}

/** A mandate's terms as a link keeps them: its dates as ISO strings, and when it was set up. */
export type TKeptMandateTerms = {
  maxDebitKobo: number;
  maxDebitsPerMonth: number;
  startsAt: string;
  endsAt: string;
  setUpAt: string;
};

export const keptTermsOf = (terms: TMandateTerms, setUpAt: Date): TKeptMandateTerms => ({
  maxDebitKobo: terms.maxDebitKobo,
  maxDebitsPerMonth: terms.maxDebitsPerMonth,
  startsAt: terms.startsAt.toISOString(),
  endsAt: terms.endsAt.toISOString(),
  setUpAt: setUpAt.toISOString(),
});

/** The Lagos calendar day of a moment, as the bank reads a mandate's dates. */
const lagosDay = (at: Date) => new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10);

/**
 * Whether a mandate set up with `kept` allows every debit of `payments` (all it will serve: what
 * it serves already and what a grant would add). They are read as of the mandate's set-up, so the
 * payments it was set up for fit it exactly: a payment collected when its merchant asks runs from
 * then, and one with no end a year from then, as the mandate does.
 */
export function mandateCovers(kept: TKeptMandateTerms, payments: readonly TTermsPayment[]) {
  const needed = mandateTermsOf(payments, new Date(kept.setUpAt));
  if (!needed) return true;
  return (
    needed.maxDebitKobo <= kept.maxDebitKobo &&
    needed.maxDebitsPerMonth <= kept.maxDebitsPerMonth &&
    lagosDay(needed.startsAt) >= lagosDay(new Date(kept.startsAt)) &&
    lagosDay(needed.endsAt) <= lagosDay(new Date(kept.endsAt))
  );
}

import { formatNaira } from './money';
import { formatPaymentDate } from './payment-date';
import { countNoun } from './plural';
import type { TConsentStatus, TPayment } from './schemas/consent';
import type { TPayerConsent, TUpcomingDebit } from './schemas/payer-consents';

/*
 * The rules of the payer's own consents (docs/payer-consents.md): which can be revoked, what
 * their future payments still owe and when, and the words the list and its dialog show.
 */

/** How many of a consent's next debits its list entry carries. */
export const UPCOMING_DEBITS_SHOWN = 3;

/** Only a granted consent can be revoked: it is the one whose future payments still run. */
export function canRevoke(consent: { status: TConsentStatus }): boolean {
  return consent.status === 'granted';
}

const dueTime = (debit: Pick<TPayment, 'dueDate'>): number => {
  const time = debit.dueDate === null ? Number.NaN : Date.parse(debit.dueDate);
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
};

/**
 * The debits still to come: future payments neither collected nor cancelled, the soonest due
 * first and the 'As needed' ones (no due date) last, at most `limit`. A consent that is not
 * granted owes none.
 */
export function upcomingDebits(
  consent: { status: TConsentStatus; payments: readonly TPayment[] },
  limit = UPCOMING_DEBITS_SHOWN,
): TUpcomingDebit[] {
  if (consent.status !== 'granted') return [];
  return consent.payments
    .filter((p) => p.type === 'future' && p.status === 'pending')
    .map((p, order) => ({ p, order }))
    .sort((a, b) => dueTime(a.p) - dueTime(b.p) || a.order - b.order)
    .slice(0, limit)
    .map(({ p }) => ({
      paymentId: p.paymentId,
      amount: p.amount,
      amountType: p.amountType,
      narration: p.narration,
      dueDate: p.dueDate,
    }));
}

/** What one list entry says about what was granted. */
export type TPayerConsentSummary = {
  statusLabel: 'Active' | 'Paused' | 'Revoked';
  /** The immediate payment paid at the grant, or null when there was none. */
  amountPaid: string | null;
  /** 'N payment(s) totalling ₦…' over the consent's future payments; null without any. */
  futurePayments: string | null;
  /** '₦… on 5 Feb 2031' (or '₦… as needed'): the next debit; null when nothing more is owed. */
  nextDebit: string | null;
  /** 'N payment(s)': the future payments the revocation cancelled; null when it cancelled none. */
  cancelled: string | null;
};

/** 'on 5 Feb 2031', or 'as needed' for a payment the merchant collects when it asks. */
const whenDue = (dueDate: string | null): string => {
  const day = formatPaymentDate(dueDate);
  return day ? `on ${day}` : 'as needed';
};

export function payerConsentSummary(
  consent: Pick<TPayerConsent, 'status' | 'payments' | 'upcomingDebits'> &
    Partial<Pick<TPayerConsent, 'pausedAt'>>,
): TPayerConsentSummary {
  // Paused: nothing is debited, so no debit is next (what falls due meanwhile is skipped).
  const paused = consent.status === 'granted' && Boolean(consent.pausedAt);
  const paid = consent.payments.find((p) => p.type === 'immediate' && p.status === 'executed');
  const future = consent.payments.filter((p) => p.type === 'future');
  const total = future.reduce((sum, p) => sum + p.amount, 0);
  const next = consent.status === 'granted' && !paused ? consent.upcomingDebits[0] : undefined;
  const cancelledCount = future.filter((p) => p.status === 'cancelled').length;
  return {
    statusLabel: paused ? 'Paused' : consent.status === 'granted' ? 'Active' : 'Revoked',
    amountPaid: paid ? formatNaira(paid.amount) : null,
    futurePayments:
      future.length > 0
        ? `${countNoun(future.length, 'payment')} totalling ${formatNaira(total)}`
        : null,
    nextDebit: next ? `${formatNaira(next.amount)} ${whenDue(next.dueDate)}` : null,
    cancelled: cancelledCount > 0 ? countNoun(cancelledCount, 'payment') : null,
  };
}

/** The revoke dialog's explanation: what stops, and that the merchant is told. */
export function revokeConsequences(merchantName: string, upcomingCount: number): string[] {
  const stops =
    upcomingCount > 0
      ? `The ${countNoun(upcomingCount, 'future payment')} still due to ${merchantName} will be cancelled: nothing more will be debited from your accounts.`
      : `${merchantName} will not be able to debit your accounts under this consent.`;
  return [
    stops,
    `${merchantName} will be told that you revoked it.`,
    'Payments already made are not refunded by revoking.',
  ];
}

/** The consent page of a declined consent (/r/{id}, spec §4 'Decline'): it ended unanswered. */
export function declinedConsentMessage(merchantName: string): string {
  return `You declined this request from ${merchantName || 'Merchant'}. Nothing was granted to them.`;
}

/** The consent page of a revoked consent (/r/{id}): whoever opens it learns it ended. */
export function revokedConsentMessage(merchantName: string): string {
  return `This consent to ${merchantName || 'Merchant'} was revoked by the payer. No further payments will be collected under it.`;
}

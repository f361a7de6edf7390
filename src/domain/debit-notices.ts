import { maskAccountNumber } from './account-row';
import { DEBIT_NOTICE_PATH } from './payer-pages';
import { formatNaira } from './money';
import { formatLagosDateTime, formatPaymentDate } from './payment-date';

/*
 * The payer is told before every debit (docs/payer-consents.md "Told before every debit"): each
 * scheduled collection of a future payment sends an SMS at least the notice's lead before it is
 * debited, and its link lets the payer skip that one debit or stop them all; after it, made or
 * failed, a receipt SMS says what became of it. These are the rules
 * the server's runner and the notice's page both follow, and the words they say.
 */

/** The notice's lead by default (DEBIT_NOTICE_HOURS): a day, as RBI's e-mandate rules ask. */
export const DEFAULT_DEBIT_NOTICE_HOURS = 24;

const HOUR_MS = 60 * 60 * 1_000;

/** The lead of `hours` in milliseconds. */
export const noticeLeadMs = (hours: number): number => hours * HOUR_MS;

/**
 * How much before the lead a collection is made and its notice sent: a runner a few minutes late
 * still tells the payer the whole lead before the due date, so the debit keeps its day.
 */
export const NOTICE_MARGIN_MS = HOUR_MS;

/**
 * When a collection whose notice went at `notifiedAt` may be debited: its due time, or the whole
 * lead after the notice when that is later. A notice sent late never shortens the lead: the debit
 * waits for it.
 */
export function collectableAt(dueAt: Date, notifiedAt: Date, leadMs: number): Date {
  return new Date(Math.max(dueAt.getTime(), notifiedAt.getTime() + leadMs));
}

/**
 * How long a collection whose notice could not be sent (the SMS provider refused it for good, or
 * the payer has no number to send it to) waits before its notice is tried again: a day, as a
 * round short of funds waits. It is never debited meanwhile, and never failed for it.
 */
export const NOTICE_RETRY_MS = 24 * HOUR_MS;

/**
 * The due time of a collection whose notice could not be sent at `now`: the next notice window.
 * Its notice is claimed again NOTICE_RETRY_MS later (the lead and the margin before this time),
 * so a fresh notice goes out the whole lead before it is debited; a later due time stays.
 */
export function nextNoticeWindow(dueAt: Date, now: Date, leadMs: number): Date {
  const windowDue = now.getTime() + NOTICE_RETRY_MS + NOTICE_MARGIN_MS + leadMs;
  return new Date(Math.max(dueAt.getTime(), windowDue));
}

/** Why a collection waits for the next notice window: its payer could not be told of it. */
export const NOT_NOTIFIED = 'payer_not_notified';

/** The latest a notice may have gone for a debit made at `now`: the whole lead before it. */
export const latestNoticeBefore = (now: Date, leadMs: number): Date =>
  new Date(now.getTime() - leadMs);

/** What a collection of a future payment is doing, as far as skipping it goes. */
export const SKIPPABLE_COLLECTION_STATUSES = ['pending'] as const;

/**
 * Only a collection nobody has started to debit can be skipped: once a runner claimed it, a bank
 * may be asked, and a debit under way is stopped by revoking (its give-back), not by a skip.
 */
export function canSkip(collection: { status: string }): boolean {
  return (SKIPPABLE_COLLECTION_STATUSES as readonly string[]).includes(collection.status);
}

/**
 * Why a payment was skipped: its payer skipped it from the notice, or it fell due while the payer
 * had paused the consent's future payments. The merchant asks for it again only by a new consent.
 */
export const SKIP_REASONS = ['payer_skipped', 'consent_paused'] as const;
export type TSkipReason = (typeof SKIP_REASONS)[number];

export const debitNoticeUrl = (publicUrl: string, token: string): string =>
  `${publicUrl.replace(/\/$/, '')}${DEBIT_NOTICE_PATH}/${encodeURIComponent(token)}`;

export type TDebitNoticeWords = {
  productName: string;
  merchantName: string;
  /** Kobo. */
  amount: number;
  narration: string;
  /** When it will be debited (collectableAt). */
  collectAt: Date;
  accountNumber: string;
  url: string;
};

/** The SMS: who will debit how much, for what, from which account and when, and the link. */
export function debitNoticeMessage(notice: TDebitNoticeWords): string {
  return (
    `${notice.productName}: ${notice.merchantName} will debit ${formatNaira(notice.amount)} ` +
    `for ${notice.narration} from your account ${maskAccountNumber(notice.accountNumber)} on ` +
    `${formatPaymentDate(notice.collectAt.toISOString())}. To skip it or stop all future ` +
    `payments: ${notice.url}`
  );
}

/** How a collection ended, as its receipt says it. */
export type TDebitOutcome = 'collected' | 'failed';

export type TDebitReceiptWords = Omit<TDebitNoticeWords, 'collectAt' | 'url'> & {
  outcome: TDebitOutcome;
  /** When it ended. */
  at: Date;
};

/**
 * The receipt SMS after each collection, made or failed: who, how much, for what, from which
 * account (masked), on which day, and what became of it.
 */
export function debitReceiptMessage(receipt: TDebitReceiptWords): string {
  const what =
    `${formatNaira(receipt.amount)} for ${receipt.narration} from your account ` +
    `${maskAccountNumber(receipt.accountNumber)} on ${formatPaymentDate(receipt.at.toISOString())}`;
  return receipt.outcome === 'collected'
    ? `${receipt.productName}: ${receipt.merchantName} debited ${what}. Payment made.`
    : `${receipt.productName}: ${receipt.merchantName} could not debit ${what}. ` +
        'Payment failed: nothing was collected.';
}

export const SKIP_PAYMENT_LABEL = 'Skip this payment';
export const STOP_PAYMENTS_LABEL = 'Stop all future payments';

/**
 * Where a noticed debit stands, as its page says it: upcoming (it may be skipped), skipped,
 * under_way (a runner is collecting it), collected, ended (cancelled, failed, or its consent is no
 * longer active).
 */
export const DEBIT_NOTICE_STATES = [
  'upcoming',
  'skipped',
  'under_way',
  'collected',
  'ended',
] as const;
export type TDebitNoticeState = (typeof DEBIT_NOTICE_STATES)[number];

/** The page's heading and its one line, in plain words. */
export function debitNoticeWords(notice: {
  state: TDebitNoticeState;
  merchantName: string;
  amount: number;
  collectAt: string;
  skipReason: TSkipReason | null;
}): { title: string; line: string } {
  const amount = formatNaira(notice.amount);
  const when = formatLagosDateTime(notice.collectAt);
  const merchant = notice.merchantName;
  switch (notice.state) {
    case 'upcoming':
      return {
        title: `${merchant} will debit ${amount}`,
        line: `On ${when}. You can skip this payment, or stop all future payments to ${merchant}.`,
      };
    case 'skipped':
      return {
        title: 'Payment skipped',
        line:
          notice.skipReason === 'consent_paused'
            ? `${merchant} will not debit ${amount}: it fell due while your payments were paused.`
            : `${merchant} will not debit ${amount}. ${merchant} has been told.`,
      };
    case 'under_way':
      return {
        title: 'This payment is being collected',
        line: `${merchant} is collecting ${amount} now, so it can no longer be skipped.`,
      };
    case 'collected':
      return { title: 'Payment made', line: `${merchant} collected ${amount}.` };
    case 'ended':
      return { title: 'No payment is due', line: `${merchant} will not debit ${amount}.` };
  }
}

/** What /consents says of a consent whose future payments are paused. */
export const PAUSED_NOTE =
  'Paused. No payment is collected while paused; payments that fall due are skipped.';

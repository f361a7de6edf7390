import { asc, eq } from 'drizzle-orm';
import { formatNaira } from '../../../domain/money';
import { formatPaymentDate } from '../../../domain/payment-date';
import type { TAppContext } from '../../context';
import { consents, futurePaymentAccounts, merchants, payers, payments } from '../../db/schema';
import { failExpiredConsents } from '../consents/consent-failures';
import { jobRunner, type TJobRunner } from '../job-runner';
import {
  claimDueCollections,
  claimNotices,
  collectClaimed,
  releaseNotice,
  scheduleDueCollections,
  type TCollectionRow,
} from './future-collections';

/*
 * The job runner of future payments (docs/payments.md "Collecting future payments"), which also
 * fails the consents that expired unanswered (docs/webhooks.md 'consent.failed'). Each run:
 * fails those consents, makes the collections that fall due within a day, sends each payer's
 * notice of them (spec §2 'You'll be notified before each debit'), then claims and collects what
 * is due, batch after batch. Every step claims its rows in one statement, so runs in several
 * processes on one PostgreSQL share the work and never do a row twice. (Answers the banks lost
 * are the reconciler's: reconciler.ts.)
 */

type TRunnerContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;

/** The payer hears of a debit this long before it, at the latest when it is made. */
export const NOTICE_AHEAD_MS = 24 * 60 * 60 * 1_000;

export type TCollectionRun = {
  /** Consents that expired unanswered, now failed. */
  expired: number;
  notified: number;
  collected: number;
  /** Refused for insufficient funds, and due again later (COLLECTION_RETRY_DELAYS_MS). */
  retried: number;
  failed: number;
};

/** The notice's words: who will debit how much, for what, and on which day. */
async function noticeOf(
  ctx: TRunnerContext,
  row: TCollectionRow,
): Promise<{ phoneNumber: string; body: string } | null> {
  const [found] = await ctx.db
    .select({
      phoneNumber: payers.phoneNumber,
      narration: payments.narration,
      merchantName: merchants.name,
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .innerJoin(futurePaymentAccounts, eq(futurePaymentAccounts.paymentId, payments.id))
    .innerJoin(payers, eq(payers.id, futurePaymentAccounts.payerId))
    .where(eq(payments.id, row.paymentId))
    .orderBy(asc(futurePaymentAccounts.position))
    .limit(1);
  if (!found) return null;
  const day = formatPaymentDate(row.dueAt.toISOString());
  return {
    phoneNumber: found.phoneNumber,
    body:
      `${ctx.config.productName}: ${found.merchantName} will debit ${formatNaira(row.amount)} ` +
      `for ${found.narration} from your linked account on ${day}.`,
  };
}

/** Sends the notices that are due; a message the provider refused is sent at the next run. */
export async function sendDebitNotices(ctx: TRunnerContext): Promise<number> {
  let sent = 0;
  for (const row of await claimNotices(ctx.db, ctx.clock.now(), NOTICE_AHEAD_MS)) {
    const notice = await noticeOf(ctx, row);
    if (!notice) continue;
    try {
      await ctx.providers.sms.send(notice.phoneNumber, notice.body);
      sent += 1;
    } catch {
      await releaseNotice(ctx.db, row);
    }
  }
  return sent;
}

/** One run: fail expired consents, schedule, notify, collect everything due now. */
export async function runCollections(ctx: TRunnerContext): Promise<TCollectionRun> {
  const expired = await failExpiredConsents(ctx.db, ctx.clock.now());
  await scheduleDueCollections(ctx.db, ctx.clock.now(), NOTICE_AHEAD_MS);
  const notified = await sendDebitNotices(ctx);
  const run = { expired, notified, collected: 0, retried: 0, failed: 0 };
  // What the bank left unanswered stays claimed until it is stale, so the loop ends.
  for (;;) {
    const claimed = await claimDueCollections(ctx.db, ctx.clock.now());
    if (claimed.length === 0) return run;
    for (const row of claimed) {
      const ended = await collectClaimed(ctx, row);
      if (ended.status === 'succeeded') run.collected += 1;
      if (ended.status === 'failed') run.failed += 1;
      if (ended.status === 'pending') run.retried += 1;
    }
  }
}

export type TCollectionRunner = TJobRunner<TCollectionRun>;

export function collectionRunner(
  ctx: TRunnerContext,
  onError: (error: unknown) => void,
): TCollectionRunner {
  return jobRunner(() => runCollections(ctx), onError);
}

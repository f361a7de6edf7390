import { asc, eq } from 'drizzle-orm';
import { formatNaira } from '../../../domain/money';
import { formatPaymentDate } from '../../../domain/payment-date';
import type { TAppContext } from '../../context';
import { consents, futurePaymentAccounts, merchants, payers, payments } from '../../db/schema';
import { failExpiredConsents } from '../consents/consent-failures';
import { openSmsOutbox, SMS_ASKED_BY_NO_CALL } from '../../jobs/sms-job';
import {
  claimDueCollections,
  claimNotices,
  collectClaimed,
  scheduleDueCollections,
  type TCollectionRow,
} from './future-collections';

/*
 * Future payments (docs/payments.md "Collecting future payments"), as three periodic kinds of the
 * job engine (jobs/kinds.ts), each its own so that one failing never stops the others: failing
 * the consents that expired unanswered (docs/webhooks.md 'consent.failed'); making the
 * collections that fall due within a day and queueing each payer's notice of them (spec §2
 * 'You'll be notified before each debit') as an SMS job in the transaction that marks it sent;
 * claiming and collecting what is due, batch after batch. Every step claims its rows in one
 * statement, so runs in several processes on one PostgreSQL share the work and never do a row
 * twice. (Answers the banks lost are the reconciler's: reconciler.ts.)
 */

type TRunnerContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

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

/**
 * Queues the notices that are due: each is marked sent and its SMS queued in one transaction
 * (the outbox), so a crash leaves neither a notice marked and never sent nor one sent twice.
 */
export async function sendDebitNotices(ctx: TRunnerContext): Promise<number> {
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  return ctx.db.transaction(async (tx) => {
    let queued = 0;
    for (const row of await claimNotices(tx, ctx.clock.now(), NOTICE_AHEAD_MS)) {
      const notice = await noticeOf({ ...ctx, db: tx }, row);
      if (!notice) continue;
      await outbox.queue(tx, `debit-notice:${row.id}`, notice);
      queued += 1;
    }
    return queued;
  });
}

/** Makes the collections that fall due within a day, and queues their notices. */
export async function scheduleAndNotify(ctx: TRunnerContext): Promise<number> {
  await scheduleDueCollections(ctx.db, ctx.clock.now(), NOTICE_AHEAD_MS);
  return sendDebitNotices(ctx);
}

/** Claims and collects everything due now, batch after batch. */
export async function collectDue(
  ctx: TRunnerContext,
): Promise<Pick<TCollectionRun, 'collected' | 'retried' | 'failed'>> {
  const run = { collected: 0, retried: 0, failed: 0 };
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

/** Fails the consents that expired unanswered. */
export const expireConsents = (ctx: TRunnerContext) => failExpiredConsents(ctx, ctx.clock.now());

/** Every step once, in order: fail expired consents, schedule, notify, collect what is due now. */
export async function runCollections(ctx: TRunnerContext): Promise<TCollectionRun> {
  const expired = await expireConsents(ctx);
  const notified = await scheduleAndNotify(ctx);
  return { expired, notified, ...(await collectDue(ctx)) };
}

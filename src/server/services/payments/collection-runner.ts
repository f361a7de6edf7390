import { NOTICE_MARGIN_MS, noticeLeadMs } from '../../../domain/debit-notices';
import type { TAppContext } from '../../context';
import { failExpiredConsents } from '../consents/consent-failures';
import { claimDueCollections, collectClaimed } from './future-collections';
import { scheduleDueCollections, sendDebitNotices } from './debit-notices';
import { skipPausedDue } from './skipped-payments';
import { UNROUTED, unlessUnrouted } from './unrouted-rows';

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

export type TCollectionRun = {
  /** Consents that expired unanswered, now failed. */
  expired: number;
  notified: number;
  /** Fell due while their consent was paused: skipped, never collected. */
  skipped: number;
  collected: number;
  /** Refused for insufficient funds, and due again later (COLLECTION_RETRY_DELAYS_MS). */
  retried: number;
  failed: number;
  /** Naming a provider this server does not run now: skipped, logged (unrouted-rows.ts). */
  unrouted: number;
};

/** Makes the collections that fall due within the notice's lead and its margin, and queues their notices. */
export async function scheduleAndNotify(ctx: TRunnerContext): Promise<number> {
  const aheadMs = noticeLeadMs(ctx.config.debitNoticeHours) + NOTICE_MARGIN_MS;
  await scheduleDueCollections(ctx.db, ctx.clock.now(), aheadMs);
  return sendDebitNotices(ctx);
}

/** Claims and collects everything due now, batch after batch. */
export async function collectDue(
  ctx: TRunnerContext,
): Promise<Pick<TCollectionRun, 'collected' | 'retried' | 'failed' | 'unrouted'>> {
  const run = { collected: 0, retried: 0, failed: 0, unrouted: 0 };
  // What the bank left unanswered stays claimed until it is stale, so the loop ends.
  for (;;) {
    const claimed = await claimDueCollections(
      ctx.db,
      ctx.clock.now(),
      noticeLeadMs(ctx.config.debitNoticeHours),
    );
    if (claimed.length === 0) return run;
    for (const row of claimed) {
      // Left 'collecting' when skipped: claimed again once stale, at a later run.
      const ended = await unlessUnrouted(row.id, () => collectClaimed(ctx, row));
      if (ended === UNROUTED) {
        run.unrouted += 1;
        continue;
      }
      if (ended.status === 'succeeded') run.collected += 1;
      if (ended.status === 'failed') run.failed += 1;
      if (ended.status === 'pending') run.retried += 1;
    }
  }
}

/** Fails the consents that expired unanswered. */
export const expireConsents = (ctx: TRunnerContext) => failExpiredConsents(ctx, ctx.clock.now());

/**
 * Every step once, in order: fail expired consents, schedule, notify, skip what fell due while
 * paused, collect what is due now.
 */
export async function runCollections(ctx: TRunnerContext): Promise<TCollectionRun> {
  const expired = await expireConsents(ctx);
  const notified = await scheduleAndNotify(ctx);
  const skipped = await skipPausedDue(ctx);
  return { expired, notified, skipped, ...(await collectDue(ctx)) };
}

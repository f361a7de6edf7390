import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { SKIPPABLE_COLLECTION_STATUSES, type TSkipReason } from '../../../domain/debit-notices';
import type { TDebitNotice } from '../../../domain/schemas/debit-notices';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import { claimRows } from '../../jobs/claim-rows';
import { consents, futurePaymentCollections, payments } from '../../db/schema';
import { AppError } from '../../app-error';
import { recordConsentChange } from '../consents/consent-changes';
import { noticeOfToken, noticeView } from './debit-notices';
import type { TCollectionRow } from './future-collections';

/*
 * Skipped payments (docs/payer-consents.md "Told before every debit", "Pause and resume"). A
 * scheduled collection is skipped in one conditional statement that requires it still pending
 * (SKIPPABLE_COLLECTION_STATUSES): the runner's claim (future-collections.ts claimDueCollections)
 * moves it to 'collecting' in one statement too, so of a skip and a claim at once exactly one
 * changes it. In the same transaction its payment becomes 'skipped', and the consent's audit row
 * and the merchant's payment.skipped are written. Nothing was debited, so nothing is booked. A
 * skipped payment is never collected again: the merchant asks for it by a new consent.
 */

type TSkipContext = Pick<TAppContext, 'db' | 'clock' | 'config' | 'jobs'>;

/** The payment of a skipped collection skipped too, the audit row and the merchant told. */
async function recordSkip(
  jobs: TJobQueue,
  tx: TDb,
  skipped: TCollectionRow,
  reason: TSkipReason,
  actor: string,
  now: Date,
): Promise<void> {
  await tx
    .update(payments)
    .set({ status: 'skipped' })
    .where(and(eq(payments.id, skipped.paymentId), eq(payments.status, 'pending')));
  const [consent] = await tx
    .select({ clientId: consents.clientId })
    .from(consents)
    .where(eq(consents.id, skipped.consentId));
  if (!consent) throw new Error(`Consent ${skipped.consentId} vanished`);
  await recordConsentChange(jobs, tx, {
    clientId: consent.clientId,
    consentId: skipped.consentId,
    type: 'payment.skipped',
    actor,
    data: {
      consentId: skipped.consentId,
      paymentId: skipped.paymentId,
      collectionId: skipped.id,
      amount: skipped.amount,
      trigger: skipped.trigger,
      dueAt: skipped.dueAt.toISOString(),
      reason,
      skippedAt: now.toISOString(),
    },
    now,
  });
}

const skippedSet = (reason: TSkipReason, now: Date) => ({
  status: 'skipped' as const,
  failureReason: reason,
  completedAt: now,
  updatedAt: now,
});

/**
 * POST /api/debit-notices/{token}/skip: the payer skips the one debit their notice names. Only
 * while nobody has started to collect it, and only by the notice of its current round: else
 * PAYMENT_NOT_SKIPPABLE (409), a second skip by the same link too.
 */
export async function skipByNotice(ctx: TSkipContext, token: string): Promise<TDebitNotice> {
  const { collection, round } = await noticeOfToken(ctx.db, ctx.config, token);
  const now = ctx.clock.now();
  const skipped = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(futurePaymentCollections)
      .set(skippedSet('payer_skipped', now))
      .where(
        and(
          eq(futurePaymentCollections.id, collection.id),
          inArray(futurePaymentCollections.status, SKIPPABLE_COLLECTION_STATUSES),
          eq(futurePaymentCollections.rounds, round),
          sql`EXISTS (SELECT 1 FROM consents c WHERE c.id = ${futurePaymentCollections.consentId}
            AND c.status = 'granted')`,
        ),
      )
      .returning();
    if (!row) return null;
    const [consent] = await tx
      .select({ payerId: consents.grantedBy })
      .from(consents)
      .where(eq(consents.id, row.consentId));
    await recordSkip(ctx.jobs, tx, row, 'payer_skipped', `payer:${consent?.payerId ?? ''}`, now);
    return row;
  });
  if (!skipped) throw new AppError('PAYMENT_NOT_SKIPPABLE');
  return noticeView(ctx, skipped, round);
}

/**
 * Skips the scheduled collections that fell due while their consent was paused, batch after batch
 * (claimed in one statement, several runners share them): none is collected, and the merchant is
 * told by payment.skipped. Answers how many.
 */
export async function skipPausedDue(ctx: TSkipContext): Promise<number> {
  const now = ctx.clock.now();
  const t = futurePaymentCollections;
  let skipped = 0;
  for (;;) {
    const batch = await ctx.db.transaction(async (tx) => {
      const rows = await claimRows(tx, t, {
        due: and(
          inArray(t.status, SKIPPABLE_COLLECTION_STATUSES),
          lte(t.dueAt, now),
          sql`EXISTS (SELECT 1 FROM consents c WHERE c.id = ${t.consentId}
            AND c.paused_at IS NOT NULL)`,
        ),
        oldestBy: t.dueAt,
        limit: 50,
        set: skippedSet('consent_paused', now),
      });
      for (const row of rows) {
        await recordSkip(ctx.jobs, tx, row, 'consent_paused', 'system:collections', now);
      }
      return rows.length;
    });
    skipped += batch;
    if (batch === 0) return skipped;
  }
}

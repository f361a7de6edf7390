import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { CONSENT_TRANSITIONS } from '../../../domain/consent-lifecycle';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import { consents, payments } from '../../db/schema';
import { claimRows } from '../../jobs/claim-rows';
import { recordConsentChange } from './consent-changes';

const { expire } = CONSENT_TRANSITIONS;

/*
 * 'consent.failed' (docs/webhooks.md): a consent that can no longer be granted. Its one cause is
 * an expiry that passes while the consent is still pending (spec §9: 24 h unless the merchant
 * said otherwise); nothing else ends a pending consent without the payer, because a failed
 * payment leaves it pending for the payer to try again (docs/payments.md "The grant").
 *
 * The runner sweeps them on the clock: each batch is claimed and failed in one statement along
 * the lifecycle's `expire` edge (domain/consent-lifecycle.ts; pending and due, rows another
 * process holds skipped), with the audit row and the merchant's event in that statement's
 * transaction, so runners in several processes fail each consent once, and of a grant and the
 * sweep racing at the expiry exactly one changes the consent (both move it only from pending).
 */

/** What the merchant is told of a consent that expired unanswered. */
export const CONSENT_EXPIRED = {
  code: 'CONSENT_EXPIRED',
  reason: 'The consent expired before the payer answered it',
} as const;

/** Fails every pending consent whose expiry has passed by `now`; answers how many. */
export async function failExpiredConsents(
  { db, jobs }: { db: TDb; jobs: TJobQueue },
  now: Date,
  batch = 100,
): Promise<number> {
  let failed = 0;
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const rows = await claimRows(tx, consents, {
        due: and(inArray(consents.status, [...expire.from]), lte(consents.expiresAt, now)),
        still: inArray(consents.status, [...expire.from]),
        oldestBy: consents.expiresAt,
        limit: batch,
        set: { status: expire.to },
      });
      // A payment made before the expiry stays paid: the merchant is told which, to fulfil or
      // refund the order (nothing is returned on its own).
      const paid = rows.length
        ? await tx
            .select({ consentId: payments.consentId, id: payments.id })
            .from(payments)
            .where(
              and(
                inArray(
                  payments.consentId,
                  rows.map((row) => row.id),
                ),
                eq(payments.status, 'executed'),
              ),
            )
            .orderBy(asc(payments.id))
        : [];
      for (const row of rows) {
        // It failed when it expired: the sweep only notices.
        const data = {
          consentId: row.id,
          failedAt: row.expiresAt.toISOString(),
          ...CONSENT_EXPIRED,
          paidPaymentIds: paid.filter((p) => p.consentId === row.id).map((p) => p.id),
        };
        await recordConsentChange(jobs, tx, {
          clientId: row.clientId,
          consentId: row.id,
          type: 'consent.failed',
          actor: 'system:expiry',
          data,
          now,
        });
      }
      return rows.length;
    });
    failed += claimed;
    if (claimed < batch) return failed;
  }
}

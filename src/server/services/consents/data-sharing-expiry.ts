import { and, eq, isNull, lte } from 'drizzle-orm';
import { dataSharingExpiry } from '../../../domain/consent-record';
import { requestedDataCategories } from '../../../domain/data-sharing';
import type { TAppContext } from '../../context';
import { consents } from '../../db/schema';
import { claimRows } from '../../jobs/claim-rows';
import { AppError } from '../../app-error';
import { recordConsentChange } from './consent-changes';
import { loadConsent } from './consents';

/*
 * Data sharing lasts 12 months (docs/payer-consents.md "Data sharing lasts 12 months"; NDPA 2023
 * s.26): the grant sets consents.data_sharing_expires_at, the payer's confirmation on /consents
 * moves it 12 months on from then, and the reconciler's run ends what passed it. Each is one
 * statement on the consent with its audit row and the merchant's event in the same transaction.
 * An ended consent's data is no longer the merchant's to read (shared-bvn-states.ts); its
 * payments, if it has any, run on as granted.
 */

type TExpiryContext = Pick<TAppContext, 'db' | 'clock' | 'jobs'>;

/** Ends the data sharing of granted consents whose expiry passed; answers how many. */
export async function endExpiredDataSharing(ctx: TExpiryContext, batch = 100): Promise<number> {
  const now = ctx.clock.now();
  let ended = 0;
  for (;;) {
    const claimed = await ctx.db.transaction(async (tx) => {
      const rows = await claimRows(tx, consents, {
        due: and(
          eq(consents.status, 'granted'),
          isNull(consents.dataSharingEndedAt),
          lte(consents.dataSharingExpiresAt, now),
        ),
        still: isNull(consents.dataSharingEndedAt),
        oldestBy: consents.dataSharingExpiresAt,
        limit: batch,
        set: { dataSharingEndedAt: now },
      });
      for (const row of rows) {
        const found = await loadConsent(tx, row.id);
        const data = {
          consentId: row.id,
          endedAt: now.toISOString(),
          dataSharingExpiresAt: (row.dataSharingExpiresAt ?? now).toISOString(),
          dataTypes: requestedDataCategories(found?.consent.dataSharing),
        };
        await recordConsentChange(ctx.jobs, tx, {
          clientId: row.clientId,
          consentId: row.id,
          type: 'consent.data_sharing_expired',
          actor: 'system:expiry',
          data,
          now,
        });
      }
      return rows.length;
    });
    ended += claimed;
    if (claimed < batch) return ended;
  }
}

/**
 * POST /api/users/consents/{id}/data-sharing/confirm: the payer confirms the consent's data
 * sharing again, and it lasts 12 months from now. Only while it is granted and still shares
 * (one statement); an ended data sharing is granted again by a new consent, not revived.
 */
export async function confirmDataSharing(
  ctx: TExpiryContext,
  payerId: string,
  consentId: string,
): Promise<void> {
  const now = ctx.clock.now();
  const expiresAt = dataSharingExpiry(now);
  const confirmed = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(consents)
      .set({ dataSharingExpiresAt: expiresAt })
      .where(
        and(
          eq(consents.id, consentId),
          eq(consents.grantedBy, payerId),
          eq(consents.status, 'granted'),
          isNull(consents.dataSharingEndedAt),
          lte(consents.dataSharingExpiresAt, expiresAt),
        ),
      )
      .returning({ clientId: consents.clientId });
    if (!row) return false;
    const data = {
      consentId,
      confirmedAt: now.toISOString(),
      dataSharingExpiresAt: expiresAt.toISOString(),
    };
    await recordConsentChange(ctx.jobs, tx, {
      clientId: row.clientId,
      consentId,
      type: 'consent.data_sharing_confirmed',
      actor: `payer:${payerId}`,
      data,
      now,
    });
    return true;
  });
  if (confirmed) return;
  const found = await loadConsent(ctx.db, consentId);
  if (!found || found.grantedBy !== payerId) throw new AppError('PAYER_CONSENT_NOT_FOUND');
  throw new AppError('DATA_SHARING_NOT_CONFIRMABLE');
}

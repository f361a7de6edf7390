import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TSharedBvnState } from '../../../domain/schemas/merchant-api';
import type { TDb } from '../../db/database';
import { consentEvents, consents, dataSharingItems, payers } from '../../db/schema';

/*
 * Whether a consent shares the payer's BVN (docs/merchant-clients.md "Shared data"): it asked for
 * BVN data, was granted with bvnData among the grant's dataTypes, is still granted, and the payer
 * who granted it has verified a BVN. Apart from shared-bvn.ts, which opens the BVN, so that the
 * consent read needs nothing of the identity services.
 */

type TBvnSharing = {
  clientId: string;
  status: (typeof consents.$inferSelect)['status'];
  grantedBy: string | null;
  /** The bvnData items the consent asked for: null, the whole category; none, not asked. */
  asked: Array<string | null>;
  /** Whether the grant's dataTypes hold bvnData. */
  granted: boolean;
  verified: boolean;
  /** Its data sharing ended: 12 months passed unconfirmed (data-sharing-expiry.ts). */
  ended: boolean;
};

/** What decides each consent's BVN sharing, by consent id: two queries for any number. */
export async function bvnSharingOf(
  db: TDb,
  consentIds: string[],
): Promise<Map<string, TBvnSharing>> {
  if (consentIds.length === 0) return new Map();
  const grantedBvn = sql<boolean>`exists (
    select 1 from ${consentEvents}
    where ${consentEvents.consentId} = ${consents.id}
      and ${consentEvents.type} = 'consent.granted'
      and ${consentEvents.data} -> 'dataTypes' @> '["bvnData"]'::jsonb)`;
  const [rows, items] = await Promise.all([
    db
      .select({
        consentId: consents.id,
        clientId: consents.clientId,
        status: consents.status,
        grantedBy: consents.grantedBy,
        granted: grantedBvn,
        verifiedAt: payers.bvnVerifiedAt,
        endedAt: consents.dataSharingEndedAt,
      })
      .from(consents)
      .leftJoin(payers, eq(payers.id, consents.grantedBy))
      .where(inArray(consents.id, consentIds)),
    db
      .select({ consentId: dataSharingItems.consentId, item: dataSharingItems.item })
      .from(dataSharingItems)
      .where(
        and(
          inArray(dataSharingItems.consentId, consentIds),
          eq(dataSharingItems.category, 'bvnData'),
        ),
      ),
  ]);
  return new Map(
    rows.map((row) => [
      row.consentId,
      {
        clientId: row.clientId,
        status: row.status,
        grantedBy: row.grantedBy,
        asked: items.filter((i) => i.consentId === row.consentId).map((i) => i.item),
        granted: row.granted,
        verified: row.verifiedAt !== null,
        ended: row.endedAt !== null,
      },
    ]),
  );
}

function stateOf(sharing: TBvnSharing | undefined): TSharedBvnState {
  if (!sharing || sharing.asked.length === 0 || !sharing.granted) return null;
  if (sharing.status !== 'granted' || sharing.ended) return null;
  return sharing.verified ? 'available' : 'not_verified';
}

/** Whether each of `consentIds`, in their order, shares the payer's BVN now. */
export async function sharedBvnStates(
  db: TDb,
  consentIds: readonly string[],
): Promise<TSharedBvnState[]> {
  const sharing = await bvnSharingOf(db, [...consentIds]);
  return consentIds.map((id) => stateOf(sharing.get(id)));
}

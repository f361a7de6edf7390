import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { CONSENT_TRANSITIONS, type TConsentEdge } from '../../../domain/consent-lifecycle';
import type { TDb } from '../../db/database';
import { placeholdersFor, preparedQuery } from '../../db/prepared-queries';
import { consents } from '../../db/schema';

/*
 * A consent's status changes here only, along an edge of its lifecycle's table
 * (domain/consent-lifecycle.ts), in one UPDATE … WHERE status IN (from) RETURNING in the caller's
 * transaction, beside that change's audit row and merchant event. Of two callers racing on a
 * consent, one moves it and the other is answered null. A move without a narrower condition runs
 * as a query prepared once per edge and columns (a paid payment grants its consent in every
 * completion: db/prepared-queries.ts).
 */

export type TConsentRow = typeof consents.$inferSelect;

/** What a move writes beside the status: the columns its edge stamps. */
export type TConsentChange = Partial<
  Pick<TConsentRow, 'grantedAt' | 'grantedBy' | 'revokedAt' | 'dataSharingExpiresAt'>
>;

/**
 * Moves consent `consentId` along `edge`, writing `change` with it, when it is in one of the
 * edge's `from` statuses (and `also` holds): null when it was not (another caller moved it first).
 */
export async function moveConsent(
  tx: TDb,
  consentId: string,
  edge: TConsentEdge,
  change: TConsentChange,
  also?: SQL,
): Promise<TConsentRow | null> {
  const { from, to } = CONSENT_TRANSITIONS[edge];
  if (also) {
    const [moved] = await tx
      .update(consents)
      .set({ ...change, status: to })
      .where(and(eq(consents.id, consentId), inArray(consents.status, [...from]), also))
      .returning();
    return moved ?? null;
  }
  const columns = (Object.keys(change) as (keyof TConsentChange)[]).sort();
  const name = ['consent_move', edge, ...columns].join('_');
  const [moved] = await preparedQuery(tx, name, (db) =>
    db
      .update(consents)
      .set({ ...placeholdersFor(columns), status: to })
      .where(
        and(eq(consents.id, sql.placeholder('consentId')), inArray(consents.status, [...from])),
      )
      .returning()
      .prepare(name),
  ).execute({ ...change, consentId });
  return moved ?? null;
}

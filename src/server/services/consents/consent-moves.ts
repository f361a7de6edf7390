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
 * as a query prepared once per edge and columns (db/prepared-queries.ts). A consent its payment
 * grants moves in the statement that executes the payment (payments/attempts/moves.ts
 * payAttempt), built here all the same (consentMove).
 */

export type TConsentRow = typeof consents.$inferSelect;

/** What a move writes beside the status: the columns its edge stamps. */
export type TConsentChange = Partial<
  Pick<TConsentRow, 'grantedAt' | 'grantedBy' | 'revokedAt' | 'dataSharingExpiresAt'>
>;

/** The consents in one of the `from` statuses of `edge`: those that may make that move. */
export const mayMoveAlong = (edge: TConsentEdge): SQL =>
  inArray(consents.status, [...CONSENT_TRANSITIONS[edge].from]);

/**
 * The statement that moves the consents `which` along `edge`, writing `change` with it, when they
 * are in one of the edge's `from` statuses. Not yet sent: moveConsent sends it, a payment's
 * completion makes it part of its own (payments/attempts/moves.ts payAttempt).
 */
export function consentMove(
  db: TDb,
  which: SQL | undefined,
  edge: TConsentEdge,
  change: { [K in keyof TConsentChange]: TConsentChange[K] | SQL },
) {
  return db
    .update(consents)
    .set({ ...change, status: CONSENT_TRANSITIONS[edge].to })
    .where(and(which, mayMoveAlong(edge)));
}

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
  if (also) {
    const [moved] = await consentMove(
      tx,
      and(eq(consents.id, consentId), also),
      edge,
      change,
    ).returning();
    return moved ?? null;
  }
  const columns = (Object.keys(change) as (keyof TConsentChange)[]).sort();
  const name = ['consent_move', edge, ...columns].join('_');
  const [moved] = await preparedQuery(tx, name, (db) =>
    consentMove(db, eq(consents.id, sql.placeholder('consentId')), edge, placeholdersFor(columns))
      .returning()
      .prepare(name),
  ).execute({ ...change, consentId });
  return moved ?? null;
}

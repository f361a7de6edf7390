import { asc, desc, sql } from 'drizzle-orm';
import type { TPayerRightsRequest } from '../../../domain/schemas/payer-rights';
import type { TDb } from '../../db/database';
import { payerRightsRequests } from '../../db/schema';
import { requestView } from './request-view';

/** How many requests the operator's list shows: the open ones come first, so none is missed. */
const OPERATOR_LIST_SIZE = 200;

/**
 * GET /api/operator/data-requests: every payer's requests, the open ones first by their due date
 * (the law's month), then the answered ones, newest first (docs/payer-rights.md "For the
 * operator").
 */
export async function listAllPayerRights(
  db: TDb,
): Promise<Array<TPayerRightsRequest & { payerId: string }>> {
  const rows = await db
    .select()
    .from(payerRightsRequests)
    .orderBy(
      sql`CASE WHEN ${payerRightsRequests.status} = 'received' THEN 0 ELSE 1 END`,
      asc(
        sql`CASE WHEN ${payerRightsRequests.status} = 'received' THEN ${payerRightsRequests.dueAt} END`,
      ),
      desc(payerRightsRequests.receivedAt),
    )
    .limit(OPERATOR_LIST_SIZE);
  return rows.map((row) => ({ ...requestView(row), payerId: row.payerId }));
}

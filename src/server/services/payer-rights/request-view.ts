import { erasureKept } from '../../../domain/payer-rights';
import type { TPayerRightsRequest } from '../../../domain/schemas/payer-rights';
import type { payerRightsRequests } from '../../db/schema';

/**
 * A request as the payer and the operator read it: an erasure's answer lists what it keeps, as
 * stored with it (on receipt what it may keep, once done what it kept). An erasure received
 * before its row stored that answers every hold.
 */
export const requestView = (row: typeof payerRightsRequests.$inferSelect): TPayerRightsRequest => ({
  requestId: row.id,
  kind: row.kind,
  status: row.status,
  receivedAt: row.receivedAt.toISOString(),
  dueAt: row.dueAt.toISOString(),
  doneAt: row.doneAt?.toISOString() ?? null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  kept: row.kind === 'erasure' ? erasureKept(row.kept ?? undefined) : null,
});

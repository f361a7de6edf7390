// The reads of a client's webhook deliveries and a delivery sent again on request
// (GET /api/v1/webhooks/deliveries, POST …/deliveries/:id/resend).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { TWebhookDelivery } from '../../../domain/schemas/webhooks';
import { type TDb } from '../../db/database';
import { merchantEvents, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { AppError } from '../../app-error';
import type { TJobQueue } from '../../jobs/engine';
import { queueDelivery } from './webhooks';

/** The deliveries of a client's webhooks, newest first (GET /api/v1/webhooks/deliveries). */
export async function listDeliveries(
  db: TDb,
  clientId: string,
  query: { status?: 'pending' | 'delivered' | 'failed' | undefined; limit: number },
): Promise<TWebhookDelivery[]> {
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      eventId: merchantEvents.publicId,
      eventType: merchantEvents.type,
      consentId: webhookDeliveries.consentId,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatus: webhookDeliveries.lastStatus,
      lastError: webhookDeliveries.lastError,
      lastBody: webhookDeliveries.lastBody,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(merchantEvents, eq(merchantEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookEndpoints.clientId, clientId),
        query.status ? eq(webhookDeliveries.status, query.status) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(query.limit);
  return rows.map((row) => ({
    ...row,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  }));
}

/**
 * Sends a delivery again now (after the merchant fixed their receiver), whatever its status; not
 * while its endpoint is disabled (WEBHOOK_DISABLED: enable it first).
 */
export async function resendDelivery(
  { db, jobs }: { db: TDb; jobs: TJobQueue },
  clientId: string,
  deliveryId: number,
  now: Date,
) {
  const yours = (disabled: 'IS NULL' | 'IS NOT NULL') =>
    sql`${webhookDeliveries.endpointId} IN (SELECT id FROM webhook_endpoints WHERE client_id = ${clientId} AND deleted_at IS NULL AND disabled_at ${sql.raw(disabled)})`;
  const resent = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now })
      .where(and(eq(webhookDeliveries.id, deliveryId), yours('IS NULL')))
      .returning({ id: webhookDeliveries.id });
    if (row) await queueDelivery(jobs, tx, row.id);
    return row !== undefined;
  });
  if (resent) return;
  const [disabled] = await db
    .select({ by: webhookEndpoints.disabledBy })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), yours('IS NOT NULL')));
  if (!disabled) throw new AppError('NOT_FOUND', 'No delivery of yours has this id');
  // The catalogue's message names the 410; one staff turned off says only that it is off.
  throw disabled.by === 'staff'
    ? new AppError('WEBHOOK_DISABLED', 'This webhook is disabled; enable it first')
    : new AppError('WEBHOOK_DISABLED');
}

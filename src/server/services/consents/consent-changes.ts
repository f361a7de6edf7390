import type { TWebhookEventType } from '../../../domain/schemas/webhooks';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import { consentEvents } from '../../db/schema';
import { recordMerchantEvent } from '../merchants/webhooks';

/**
 * A change of a consent that its audit and its merchant hear of in the same words: the audit row
 * (consent_events) and the webhook event (the outbox, its delivery queued on `jobs`), written
 * inside `tx`, the transaction of the change itself.
 */
export async function recordConsentChange(
  jobs: TJobQueue,
  tx: TDb,
  change: {
    clientId: string;
    consentId: string;
    type: TWebhookEventType;
    /** Who made it, as the audit names them: 'system:expiry', `payer:usr_…`, … */
    actor: string;
    data: Record<string, unknown>;
    now: Date;
  },
): Promise<void> {
  const { clientId, consentId, type, actor, data, now } = change;
  await tx.insert(consentEvents).values({ consentId, type, actor, data, createdAt: now });
  await recordMerchantEvent(jobs, tx, { clientId, consentId, type, data, now });
}

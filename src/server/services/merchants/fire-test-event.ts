import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { testEventData } from '../../../domain/test-events';
import type { TWebhookEventType, TWebhookPayload } from '../../../domain/schemas/webhooks';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import { merchantEvents } from '../../db/schema';
import { AppError } from '../../app-error';
import { readClient } from './merchant-clients';
import { recordMerchantEvent } from '../change-records';

/**
 * A test event of `type` for a client (docs/webhooks.md, "Events on your machine"), on a sandbox
 * server only: recorded as every event is, of no consent, so it is delivered to the client's
 * webhooks and listed by GET /api/v1/events. Its data is the domain's sample for the type, each
 * id marked `_test_` and ending in a suffix of its own; the consent's echo is null and {}.
 * Answers the event as its deliveries carry it.
 */
export async function fireTestEvent(
  { db, jobs }: { db: TDb; jobs: TJobQueue },
  input: { clientId: string; type: TWebhookEventType; sandbox: boolean; now: Date },
): Promise<TWebhookPayload> {
  if (!input.sandbox) throw new AppError('TEST_EVENTS_SANDBOX_ONLY');
  const { clientId, type, now } = input;
  await readClient(db, clientId, now);
  const data = testEventData(type, { suffix: randomBytes(9).toString('base64url'), now });
  return db.transaction(async (tx) => {
    const id = await recordMerchantEvent(jobs, tx, { clientId, consentId: null, type, data, now });
    const [written] = await tx
      .select({ data: merchantEvents.data })
      .from(merchantEvents)
      .where(eq(merchantEvents.publicId, id));
    if (!written) throw new Error('A test event could not be read back');
    return { id, type, createdAt: now.toISOString(), data: written.data };
  });
}

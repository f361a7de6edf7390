import { sql } from 'drizzle-orm';
import type { TWebhookEventType } from '../../../domain/schemas/webhooks';
import type { TDb } from '../../db/database';
import { preparedQuery } from '../../db/prepared-queries';
import type { TJobQueue } from '../../jobs/engine';
import { consentEvents } from '../../db/schema';
import { writeChangeRecords, type TConsentEventRow } from '../change-records';

/** The audit row's values, each a placeholder: one statement text for every consent event. */
const consentEventValues = {
  consentId: sql.placeholder('consentId'),
  type: sql.placeholder('type'),
  actor: sql.placeholder('actor'),
  data: sql.placeholder('data'),
};

const prepareConsentEvent = (db: TDb) =>
  db.insert(consentEvents).values(consentEventValues).prepare('consent_event');

const prepareConsentEventAt = (db: TDb) =>
  db
    .insert(consentEvents)
    .values({ ...consentEventValues, createdAt: sql.placeholder('createdAt') })
    .prepare('consent_event_at');

/**
 * Writes a consent's audit row inside `tx`, the transaction of the change it records, as one
 * prepared query (a payment writes two or three).
 */
export async function insertConsentEvent(tx: TDb, row: TConsentEventRow): Promise<void> {
  if (row.createdAt)
    await preparedQuery(tx, 'consent_event_at', prepareConsentEventAt).execute(row);
  else await preparedQuery(tx, 'consent_event', prepareConsentEvent).execute(row);
}

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
  await writeChangeRecords(
    jobs,
    tx,
    {
      consentEvents: [{ consentId, type, actor, data, createdAt: now }],
      merchantEvents: [{ clientId, consentId, type, data }],
    },
    now,
  );
}

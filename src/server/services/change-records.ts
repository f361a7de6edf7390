import { sql } from 'drizzle-orm';
import type { TWebhookEventType } from '../../domain/schemas/webhooks';
import { rowsOf, type TDb } from '../db/database';
import { EVENT_BUS_CHANNEL, eventOf } from '../events/database-event-bus';
import type { TEventInput, TEventType } from '../events/event-bus';
import { nextEventId } from '../events/event-log';
import type { TJobQueue } from '../jobs/engine';
import { NOT_SENT_DISABLED, NOT_SENT_TURNED_OFF } from './merchants/webhook-endpoints';
import { newEventId } from './merchants/webhook-signing';
import { queueDelivery } from './merchants/webhooks';
import { bookingSteps, type TBooking } from './payments/ledger';

/*
 * What a change writes beside itself, written in one statement inside the change's transaction
 * (bench/README.md "Statements a payment"): the consent's audit rows, the page's stream events,
 * the merchant's webhook events with a delivery for each of its endpoints (the outbox), the
 * bus's events, which PostgreSQL sends when the transaction commits, and the ledger's bookings of
 * the money it moved. A payment's completion writes two of each and books its money; one round
 * trip writes them all, where each was a statement of its own.
 *
 * Each kind keeps the order it is given in: audit rows and webhook events take their ids in that
 * order (a consent's webhooks reach an endpoint in id order, docs/webhooks.md), and a stream's id
 * is drawn under the stream's lock (events/event-log.ts), as appendEvent draws one.
 */

/** A consent's audit row: what happened, who did it; `createdAt` the database's now unless given. */
export type TConsentEventRow = {
  consentId: string;
  type: string;
  actor: string;
  data: Record<string, unknown>;
  createdAt?: Date;
};

/** An event on a page's stream (events/event-log.ts). */
export type TStreamEventRow = { stream: string; type: string; data: Record<string, unknown> };

/**
 * A webhook event of the merchant's client, about a consent of theirs or none; a consent's own
 * client when `clientId` is null.
 */
export type TMerchantEventRow = {
  clientId: string | null;
  consentId: string | null;
  type: TWebhookEventType;
  data: Record<string, unknown>;
};

export type TChangeRecords = {
  consentEvents?: readonly TConsentEventRow[];
  streamEvents?: readonly TStreamEventRow[];
  merchantEvents?: readonly TMerchantEventRow[];
  /** Heard by the bus's subscribers in every process once the transaction commits. */
  busEvents?: readonly TEventInput<TEventType>[];
  /**
   * The money the change moved, booked in the ledger (payments/ledger.ts bookingSteps): the
   * balances it moves are locked at the statement's end, after everything else is written.
   */
  bookings?: readonly TBooking[];
};

/** The records of several parts of one change, each kind in the parts' order. */
export function joinRecords(...parts: TChangeRecords[]): TChangeRecords {
  return {
    consentEvents: parts.flatMap((part) => part.consentEvents ?? []),
    streamEvents: parts.flatMap((part) => part.streamEvents ?? []),
    merchantEvents: parts.flatMap((part) => part.merchantEvents ?? []),
    busEvents: parts.flatMap((part) => part.busEvents ?? []),
    bookings: parts.flatMap((part) => part.bookings ?? []),
  };
}

/**
 * Writes `records` inside `tx`, the transaction of the change they report, at `now` (the webhook
 * events' time): they exist exactly when the change does. Each webhook delivery to send is a job
 * queued in the same transaction. Answers the webhook events' public ids, in order.
 */
export async function writeChangeRecords(
  jobs: TJobQueue,
  tx: TDb,
  records: TChangeRecords,
  now: Date,
): Promise<string[]> {
  const merchantEvents = (records.merchantEvents ?? []).map((event) => ({
    ...event,
    publicId: newEventId(),
  }));
  const at = now.toISOString();
  // The consent's reference and metadata ride on every webhook event of it (merchant-api.ts
  // ZMerchantEcho). Each endpoint sent the event's type gets a delivery; a disabled one (by a 410
  // or by staff) gets it as failed, to resend once it is enabled.
  const bookings = records.bookings ?? [];
  const written = await tx.execute(sql`
    WITH audit AS (
      INSERT INTO consent_events (consent_id, type, actor, data, created_at)
      SELECT e.value->>'consentId', e.value->>'type', e.value->>'actor', e.value->'data',
             coalesce((e.value->>'createdAt')::timestamptz, now())
      FROM jsonb_array_elements(${JSON.stringify(records.consentEvents ?? [])}::jsonb)
           WITH ORDINALITY AS e(value, position)
      ORDER BY e.position
      RETURNING 1),
    streamed AS (
      INSERT INTO events (id, stream, type, data)
      SELECT ${nextEventId(sql`e.value->>'stream'`)},
             e.value->>'stream', e.value->>'type', e.value->'data'
      FROM jsonb_array_elements(${JSON.stringify(records.streamEvents ?? [])}::jsonb)
           WITH ORDINALITY AS e(value, position)
      ORDER BY e.position
      RETURNING 1),
    outbox AS (
      INSERT INTO merchant_events (public_id, client_id, consent_id, type, data, created_at)
      SELECT e.value->>'publicId', coalesce(e.value->>'clientId', c.client_id),
             e.value->>'consentId', e.value->>'type',
             (e.value->'data') || jsonb_build_object(
               'reference', c.reference, 'metadata', coalesce(c.metadata, '{}'::jsonb)),
             ${at}::timestamptz
      FROM jsonb_array_elements(${JSON.stringify(merchantEvents)}::jsonb)
           WITH ORDINALITY AS e(value, position)
      LEFT JOIN consents c ON c.id = e.value->>'consentId'
      ORDER BY e.position
      RETURNING id, client_id, consent_id, type),
    deliveries AS (
      INSERT INTO webhook_deliveries
        (endpoint_id, event_id, consent_id, status, last_error, next_attempt_at, created_at)
      SELECT endpoint.id, outbox.id, outbox.consent_id,
             CASE WHEN endpoint.disabled_at IS NULL THEN 'pending' ELSE 'failed' END,
             CASE WHEN endpoint.disabled_at IS NULL THEN NULL
                  WHEN endpoint.disabled_by = 'staff' THEN ${NOT_SENT_TURNED_OFF}
                  ELSE ${NOT_SENT_DISABLED} END,
             ${at}::timestamptz, ${at}::timestamptz
      FROM outbox JOIN webhook_endpoints endpoint ON endpoint.client_id = outbox.client_id
      WHERE endpoint.deleted_at IS NULL
        AND (endpoint.events IS NULL OR outbox.type = ANY(endpoint.events))
      ORDER BY outbox.id, endpoint.id
      RETURNING id, status),${bookings.length > 0 ? sql`${bookingSteps(bookings)},` : sql``}
    told AS (
      SELECT pg_notify(${EVENT_BUS_CHANNEL}, n.value)
      FROM jsonb_array_elements_text(${JSON.stringify(
        (records.busEvents ?? []).map((event) => JSON.stringify(eventOf(event))),
      )}::jsonb) AS n(value))
    SELECT d.id, d.status, (SELECT count(*) FROM told) AS told
    FROM (SELECT 1) AS one LEFT JOIN deliveries d ON true
    ORDER BY d.id`);
  // Each pending delivery is a job of the engine, queued in this same transaction (the outbox):
  // a crash after the commit leaves it queued, and its event id was fixed above.
  for (const delivery of rowsOf<{ id: number | null; status: string | null }>(written)) {
    if (delivery.id !== null && delivery.status === 'pending') {
      await queueDelivery(jobs, tx, delivery.id);
    }
  }
  return merchantEvents.map((event) => event.publicId);
}

/**
 * Writes a webhook event to the outbox inside `tx`, the transaction of the change it reports,
 * with a pending delivery for each of the client's endpoints: it exists exactly when the change
 * does. Answers the event's public id.
 */
export async function recordMerchantEvent(
  jobs: TJobQueue,
  tx: TDb,
  event: TMerchantEventRow & { clientId: string; now: Date },
): Promise<string> {
  const { now, ...row } = event;
  const [publicId] = await writeChangeRecords(jobs, tx, { merchantEvents: [row] }, now);
  if (!publicId) throw new Error('A webhook event could not be written');
  return publicId;
}

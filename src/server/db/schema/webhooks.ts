/*
 * Webhooks (docs/webhooks.md): the endpoints merchants register, the outbox of what happened to
 * their consents (written in the transaction of the change), and one delivery per endpoint and
 * event with its attempts.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { WEBHOOK_DISABLED_BY, type TWebhookEventType } from '../../../domain/schemas/webhooks';
import { apiClients } from './consents';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => apiClients.clientId, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** The signing secret, sealed with the server's key (AES-256-GCM); shown once at creation. */
    secretSealed: text('secret_sealed').notNull(),
    /**
     * Secrets rotated away that still sign until their overlap ends (sealed as above), oldest
     * first: during a rotation a delivery carries a signature of each (docs/webhooks.md).
     */
    retiringSecrets: jsonb('retiring_secrets')
      .$type<{ sealed: string; until: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: at('created_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
    /**
     * Set when a delivery was answered 410 Gone, or staff turned it off on the dashboard: nothing
     * is sent until it is enabled again.
     */
    disabledAt: at('disabled_at'),
    /** Who turned it off, while it is off. */
    disabledBy: text('disabled_by', { enum: WEBHOOK_DISABLED_BY }),
    /** The event types it is sent; null: every event, those added later too. */
    events: text('events').array().$type<TWebhookEventType[]>(),
  },
  (t) => [
    index('webhook_endpoints_client').on(t.clientId),
    check(
      'webhook_endpoints_disabled_by',
      sql`(disabled_at IS NULL AND disabled_by IS NULL) OR (disabled_at IS NOT NULL AND disabled_by IN ('receiver', 'staff'))`,
    ),
    check('webhook_endpoints_events', sql`events IS NULL OR cardinality(events) > 0`),
  ],
);

/** The outbox: what happened to a merchant's consents, in the order it committed. */
export const merchantEvents = pgTable(
  'merchant_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * The id a merchant sees (`evt_` and 16 random bytes): unique across databases and telling
     * nothing of volume. `id` stays the order and the joins.
     */
    publicId: text('public_id').notNull(),
    clientId: text('client_id')
      .notNull()
      .references(() => apiClients.clientId, { onDelete: 'cascade' }),
    consentId: text('consent_id'),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('merchant_events_client').on(t.clientId, t.id),
    index('merchant_events_client_created').on(t.clientId, t.createdAt),
    uniqueIndex('merchant_events_public_id').on(t.publicId),
  ],
);

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => merchantEvents.id, { onDelete: 'cascade' }),
    /** Deliveries of one consent's events to one endpoint go out in order. */
    consentId: text('consent_id'),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    /** The start of the endpoint's last answer body (WEBHOOK_BODY_KEPT characters). */
    lastBody: text('last_body'),
    createdAt: at('created_at').notNull(),
    deliveredAt: at('delivered_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_once').on(t.endpointId, t.eventId),
    index('webhook_deliveries_due')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);

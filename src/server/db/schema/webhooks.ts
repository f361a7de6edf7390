/*
 * Webhooks (docs/webhooks.md): the endpoints merchants register, the outbox of what happened to
 * their consents (written in the transaction of the change), and one delivery per endpoint and
 * event with its attempts.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
    createdAt: at('created_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
  },
  (t) => [index('webhook_endpoints_client').on(t.clientId)],
);

/** The outbox: what happened to a merchant's consents, in the order it committed. */
export const merchantEvents = pgTable(
  'merchant_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => apiClients.clientId, { onDelete: 'cascade' }),
    consentId: text('consent_id'),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('merchant_events_client').on(t.clientId, t.id)],
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

/*
 * Live events (docs/payments.md "Events"): an append-only log whose id is the server-sent-event
 * id, so a stream that reconnects with Last-Event-ID misses nothing, on any process.
 */
import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Who may read it, e.g. 'payment:{paymentId}', 'card-linking:{payerId}'. */
    stream: text('stream').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_stream_id').on(t.stream, t.id)],
);

/**
 * Tickets that open an event stream: EventSource cannot send an Authorization header, so a
 * signed-in payer trades their token for a ticket (POST /api/events/tickets) and opens the stream
 * with it in the query. A ticket opens one stream only, for a few minutes, and may open it again
 * in that time: EventSource reconnects to the same URL by itself (docs/payments.md "Events").
 * Only the ticket's hash is kept.
 */
export const eventStreamTickets = pgTable(
  'event_stream_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    stream: text('stream').notNull(),
    /**
     * The payer it was issued to: a payment's stream shows the payment's origin in full only to
     * the payer who paid (docs/payments.md "Who sees the origin"). Null only on tickets issued
     * before tickets named their payer.
     */
    payerId: text('payer_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When it first opened its stream. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('event_stream_tickets_expires')
      .on(t.expiresAt)
      .where(sql`used_at IS NULL`),
  ],
);

/*
 * The merchant dashboard (docs/dashboard.md): staff, invitations, cookie sessions, the audit of
 * what staff did (append-only: a trigger refuses UPDATE and DELETE, migration 0034), and the
 * merchant API's request log.
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
import { STAFF_ROLES } from '../../../domain/dashboard-roles';
import { apiClients, merchants } from './consents';
import { passkeys, payers } from './identity';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** A person (a payer: their phone and passkeys) who works for a merchant, with one role. */
export const dashboardStaff = pgTable(
  'dashboard_staff',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    /** Kobo one refund of a support member may give back; null: none (other roles ignore it). */
    refundLimit: bigint('refund_limit', { mode: 'number' }),
    createdAt: at('created_at').notNull().defaultNow(),
    removedAt: at('removed_at'),
  },
  (t) => [
    uniqueIndex('dashboard_staff_one_per_person')
      .on(t.merchantId, t.payerId)
      .where(sql`removed_at IS NULL`),
    index('dashboard_staff_payer').on(t.payerId),
  ],
);

/** A link that makes its holder staff, once, after an SMS code to its phone. */
export const dashboardInvitations = pgTable(
  'dashboard_invitations',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    refundLimit: bigint('refund_limit', { mode: 'number' }),
    /** The number it is for (E.164); null: the first verified number (the operator's owner link). */
    phoneNumber: text('phone_number'),
    /** SHA-256 of the link's token: the token itself is only in the link. */
    tokenHash: text('token_hash').notNull(),
    /** null: the operator (`npm run client:create`). */
    invitedBy: text('invited_by').references(() => dashboardStaff.id),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    acceptedBy: text('accepted_by').references(() => dashboardStaff.id),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('dashboard_invitations_token').on(t.tokenHash),
    index('dashboard_invitations_merchant').on(t.merchantId, t.createdAt),
  ],
);

/**
 * A dashboard session behind its cookie. 'phone-code': an SMS code proved the number, and the
 * session may only make a passkey (of the invitation it accepts, or to recover); 'passkey': a
 * passkey signed in, the staff member's role applies.
 */
export const dashboardSessions = pgTable(
  'dashboard_sessions',
  {
    id: text('id').primaryKey(),
    /** SHA-256 of the cookie's value. */
    tokenHash: text('token_hash').notNull(),
    /** Sent back in a header by every write (docs/dashboard.md "Sessions"). */
    csrfToken: text('csrf_token').notNull(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    staffId: text('staff_id').references(() => dashboardStaff.id),
    invitationId: text('invitation_id').references(() => dashboardInvitations.id),
    method: text('method', { enum: ['passkey', 'phone-code'] }).notNull(),
    /**
     * The passkey that signed in, or that this session made: whether it may change anything yet
     * is its trust (domain/passkey-trust.ts). Its removal ends the session.
     */
    passkeyId: text('passkey_id').references(() => passkeys.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('dashboard_sessions_token').on(t.tokenHash)],
);

/** What staff did, and what the operator did for a merchant: append-only. */
export const dashboardAudit = pgTable(
  'dashboard_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    staffId: text('staff_id').references(() => dashboardStaff.id),
    /** Who, as the log shows it: a staff member's name and phone, or 'operator'. */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    /** What it was done to: a payment, consent, webhook, staff member… */
    target: text('target'),
    data: jsonb('data')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('dashboard_audit_merchant').on(t.merchantId, t.id)],
);

/** The merchant API's requests (/api/v1), kept 7 days for the developers' screen. */
export const apiRequestLog = pgTable(
  'api_request_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => apiClients.clientId, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    idempotencyKey: text('idempotency_key'),
    requestId: text('request_id').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('api_request_log_client').on(t.clientId, t.createdAt)],
);

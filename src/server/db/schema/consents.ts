/*
 * Merchants, their API clients, consents and what hangs off a consent. The identity tables
 * (identity.ts) reference merchants and consents from here; nothing here references them, so
 * the two files import in one direction only.
 */
import { relations, sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { DATA_CATEGORIES } from '../../../domain/constants';
import type { TActOnBehalfOf, TPaymentOrigin } from '../../../domain/schemas/consent';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A merchant: the counterparty of its consents (spec §3 Consent.counterparty). */
export const merchants = pgTable('merchants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  image: text('image'),
  tag: text('tag'),
  type: text('type', { enum: ['merchant', 'api_user'] })
    .notNull()
    .default('merchant'),
  primaryColour: text('primary_colour').notNull(),
  primaryText: text('primary_text').notNull(),
  secondaryColour: text('secondary_colour').notNull(),
  secondaryText: text('secondary_text').notNull(),
  /** Bank of the collection ("shield") wallet that receives immediate payments; none means the
   * merchant cannot collect immediate payments yet. */
  walletBankName: text('wallet_bank_name'),
  createdAt: createdAt(),
});

/** Server-to-server credentials of a merchant, and the origins allowed to embed its pages. */
export const apiClients = pgTable('api_clients', {
  clientId: text('client_id').primaryKey(),
  merchantId: text('merchant_id')
    .notNull()
    .references(() => merchants.id),
  /** scrypt hash of the client secret; the secret itself is shown once and never stored. */
  secretHash: text('secret_hash').notNull(),
  /** The secret a rotation replaced, still accepted until previousSecretExpiresAt (a grace
   * period for the merchant's servers to take the new one); null when none is. */
  previousSecretHash: text('previous_secret_hash'),
  previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
  allowedOrigins: jsonb('allowed_origins')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  createdAt: createdAt(),
});

export const consents = pgTable(
  'consents',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    clientId: text('client_id')
      .notNull()
      .references(() => apiClients.clientId),
    status: text('status', { enum: ['pending', 'granted', 'declined', 'failed', 'revoked'] })
      .notNull()
      .default('pending'),
    grantedAt: timestamp('granted_at', { withTimezone: true }),
    /** The signed-in payer who granted it (payers.id; no reference: identity.ts imports this file). */
    grantedBy: text('granted_by'),
    /** When its payer revoked it (status revoked). */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * Since when its payer has paused its future payments (docs/payer-consents.md "Pause and
     * resume"); null while they run. Nothing is collected while paused; what falls due is skipped.
     */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /**
     * When its data sharing ends unless the payer confirms it again: 12 months from the grant or
     * the last confirmation (docs/payer-consents.md "Data sharing lasts 12 months"); null when
     * the consent shares no data or is not granted.
     */
    dataSharingExpiresAt: timestamp('data_sharing_expires_at', { withTimezone: true }),
    /** When the expiry job ended its data sharing; the merchant reads no data after. */
    dataSharingEndedAt: timestamp('data_sharing_ended_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    partyImage: text('party_image'),
    actOnBehalfOf: jsonb('act_on_behalf_of').$type<TActOnBehalfOf>(),
    formId: text('form_id'),
    formResponseId: text('form_response_id'),
    formUpdateToken: text('form_update_token'),
    formTemplateValues: jsonb('form_template_values').$type<Record<string, string>>(),
    requiresAuth: boolean('requires_auth').notNull().default(false),
    requiresAccount: boolean('requires_account').notNull().default(false),
    attestDiscoveryId: text('attest_discovery_id'),
    authAppId: text('auth_app_id'),
    originalRequestId: text('original_request_id'),
    /** The merchant's own reference, unique per client: a second create with it answers this one. */
    reference: text('reference'),
    /** SHA-256 of the create request that used the reference: the same again answers this one. */
    referenceFingerprint: text('reference_fingerprint'),
    /** The merchant's metadata (at most 20 keys), echoed on every read and webhook. */
    metadata: jsonb('metadata').$type<Record<string, string>>(),
    /** Where a standalone page sends the payer after the grant or a decline (a client origin). */
    returnUrl: text('return_url'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('consents_client_reference')
      .on(t.clientId, t.reference)
      .where(sql`reference IS NOT NULL`),
    index('consents_merchant_created').on(t.merchantId, t.createdAt, t.id),
    index('consents_granted_by').on(t.grantedBy, t.grantedAt, t.id),
    // The expiry sweep (consent-failures.ts) reads pending consents by expiry, a minute apart.
    index('consents_pending_expiry')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    // The data-sharing expiry job (data-sharing-expiry.ts) reads live data sharing by its end.
    index('consents_data_sharing_expiry')
      .on(t.dataSharingExpiresAt)
      .where(sql`status = 'granted' AND data_sharing_ended_at IS NULL`),
  ],
);

/**
 * Idempotency keys of mutating calls: a retry with the same key and the same request gets the
 * first answer back; the same key with another request is refused (409). `scope` keeps callers
 * apart (a merchant client, a payer) and names the call. Kept at least 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the canonical request; null for keys recorded before fingerprints were. */
    fingerprint: text('fingerprint'),
    /** What the first request answered, replayed to its retries. */
    response: jsonb('response').$type<Record<string, unknown>>().notNull(),
    /**
     * 'done' once `response` holds the answer. 'in_flight' while a call that waits on a bank or
     * card network outside any database transaction runs (idempotency.ts claimKey): its retries
     * wait for the answer instead of calling the network again.
     */
    state: text('state', { enum: ['in_flight', 'done'] })
      .notNull()
      .default('done'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key] }),
    index('idempotency_keys_created').on(t.createdAt),
  ],
);

/** spec §3 Payment. Amounts are integer kobo. */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    consentId: text('consent_id')
      .notNull()
      .references(() => consents.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: text('type', { enum: ['immediate', 'future'] }).notNull(),
    /**
     * cancelled: a future payment never collected whose consent was revoked; skipped: one its
     * payer skipped, or that fell due while they had paused the consent (domain/debit-notices.ts).
     */
    status: text('status', { enum: ['pending', 'executed', 'cancelled', 'skipped'] })
      .notNull()
      .default('pending'),
    executedAt: timestamp('executed_at', { withTimezone: true }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    narration: text('narration').notNull(),
    dueDate: timestamp('due_date', { withTimezone: true }),
    startDate: timestamp('start_date', { withTimezone: true }),
    endDate: timestamp('end_date', { withTimezone: true }),
    frequency: text('frequency', { enum: ['daily', 'weekly', 'monthly', 'yearly', 'quarterly'] }),
    interval: integer('interval'),
    amountType: text('amount_type', { enum: ['fixed', 'variable'] })
      .notNull()
      .default('fixed'),
    paypointId: text('paypoint_id'),
    paypointLocationName: text('paypoint_location_name'),
    shieldWalletBankName: text('shield_wallet_bank_name'),
    origin: jsonb('origin').$type<TPaymentOrigin>(),
    /**
     * Kobo its merchant's refunds hold: reserved when one is asked, released if it fails
     * (docs/payments.md "Refunds"); never above what was paid.
     */
    refunded: bigint('refunded', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_consent_id').on(t.consentId),
    check('payments_refunded_within_amount', sql`refunded >= 0 AND refunded <= amount`),
  ],
);

/** What a consent asks to share: one row per category, or per sub-item when it names them. */
export const dataSharingItems = pgTable(
  'data_sharing_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    consentId: text('consent_id')
      .notNull()
      .references(() => consents.id, { onDelete: 'cascade' }),
    category: text('category', { enum: DATA_CATEGORIES }).notNull(),
    /** null: the whole category; otherwise one named sub-item of it. */
    item: text('item'),
  },
  (t) => [index('data_sharing_items_consent_id').on(t.consentId)],
);

/**
 * Audit trail of a consent: every change, who made it and when. Append-only: a trigger refuses
 * UPDATE and DELETE (migration 0032). The 'consent.granted' row keeps the grant's record (what
 * was shown, its hash: docs/payer-consents.md "The record").
 */
export const consentEvents = pgTable(
  'consent_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    consentId: text('consent_id')
      .notNull()
      .references(() => consents.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actor: text('actor').notNull(),
    data: jsonb('data')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [index('consent_events_consent_id').on(t.consentId)],
);

/** How a consent reads in one query: its merchant, its client, its payments and data items. */
export const consentRelations = relations(consents, ({ one, many }) => ({
  merchant: one(merchants, { fields: [consents.merchantId], references: [merchants.id] }),
  client: one(apiClients, { fields: [consents.clientId], references: [apiClients.clientId] }),
  payments: many(payments),
  dataSharingItems: many(dataSharingItems),
}));
export const paymentRelations = relations(payments, ({ one }) => ({
  consent: one(consents, { fields: [payments.consentId], references: [consents.id] }),
}));
export const dataSharingItemRelations = relations(dataSharingItems, ({ one }) => ({
  consent: one(consents, { fields: [dataSharingItems.consentId], references: [consents.id] }),
}));

/*
 * What the payer can hold us to (docs/payer-consents.md "Who looked at your BVN", "Complaints"):
 * the lookups made with their BVN or accounts, and their complaints about payments.
 */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TBvnSharedItem } from '../../../domain/bvn-lookups';
import { BVN_LOOKUP_KINDS } from '../../../domain/bvn-lookups';
import { COMPLAINT_CATEGORIES, COMPLAINT_STATES } from '../../../domain/complaints';
import { consents, merchants, payments } from './consents';
import { payers } from './identity';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** One lookup made with a payer's BVN or one of their accounts: never the BVN itself. */
export const bvnLookups = pgTable(
  'bvn_lookups',
  {
    id: text('id').primaryKey(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: BVN_LOOKUP_KINDS }).notNull(),
    /** The provider that asked the BVN registry; null for a merchant's read. */
    provider: text('provider'),
    consentId: text('consent_id').references(() => consents.id, { onDelete: 'set null' }),
    /** The merchant that received data (data_shared). */
    merchantId: text('merchant_id').references(() => merchants.id, { onDelete: 'set null' }),
    /** The account asked about (account_owner): its bank and last 4 digits only. */
    institutionCode: text('institution_code'),
    accountLast4: text('account_last4'),
    /** What the merchant received (data_shared). */
    items: jsonb('items').$type<TBvnSharedItem[]>().notNull().default([]),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('bvn_lookups_payer_created').on(t.payerId, t.createdAt, t.id)],
);

/** A payer's complaint about one of their payments, and how it is answered. */
export const paymentComplaints = pgTable(
  'payment_complaints',
  {
    id: text('id').primaryKey(),
    /** What the payer quotes ('CP-…'), unique. */
    reference: text('reference').notNull().unique(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    consentId: text('consent_id')
      .notNull()
      .references(() => consents.id, { onDelete: 'cascade' }),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** The client whose webhooks hear of it: the consent's. */
    clientId: text('client_id').notNull(),
    category: text('category', { enum: COMPLAINT_CATEGORIES }).notNull(),
    description: text('description').notNull(),
    state: text('state', { enum: COMPLAINT_STATES }).notNull().default('received'),
    acknowledgeBy: at('acknowledge_by').notNull(),
    resolveBy: at('resolve_by').notNull(),
    acknowledgedAt: at('acknowledged_at'),
    resolvedAt: at('resolved_at'),
    resolution: text('resolution'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('payment_complaints_open_per_payment')
      .on(t.paymentId)
      .where(sql`state <> 'resolved'`),
    index('payment_complaints_payer_created').on(t.payerId, t.createdAt, t.id),
    index('payment_complaints_open')
      .on(t.createdAt)
      .where(sql`state <> 'resolved'`),
  ],
);

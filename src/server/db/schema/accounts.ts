/*
 * A payer's bank accounts and the mandates that link them (spec §2 "Account-linking panel", §3
 * User account, §5 "already linked"): an account is added once per payer, and each attempt to
 * link it is an account link whose mandate moves created → awaiting_authorisation → active, or
 * ends expired or cancelled.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { payers } from './identity';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const payerAccounts = pgTable(
  'payer_accounts',
  {
    id: text('id').primaryKey(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    institutionCode: text('institution_code').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    bankName: text('bank_name').notNull(),
    /** The bank's answer to the name enquiry that found the account, when one did. */
    nameEnquiryId: text('name_enquiry_id'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payer_accounts_one_per_payer').on(t.payerId, t.institutionCode, t.accountNumber),
  ],
);

/** How a mandate is authorised (the bank's integrations decide, spec §2 panel steps). */
export const LINK_ROUTES = ['test_transfer', 'auth_params', 'paper', 'card'] as const;
export const MANDATE_STATES = [
  'created',
  'awaiting_authorisation',
  'active',
  'expired',
  'cancelled',
] as const;

export const accountLinks = pgTable(
  'account_links',
  {
    id: text('id').primaryKey(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => payerAccounts.id, { onDelete: 'cascade' }),
    route: text('route', { enum: LINK_ROUTES }).notNull(),
    state: text('state', { enum: MANDATE_STATES }).notNull().default('created'),
    /** The test transfer's amount in kobo (route test_transfer). */
    testAmount: bigint('test_amount', { mode: 'number' }),
    /** The one-time account the test transfer goes to (route test_transfer). */
    payInAccountNumber: text('pay_in_account_number'),
    /** The alternate service's reference (route auth_params). */
    remitaTransRef: text('remita_trans_ref').unique(),
    requestId: text('request_id'),
    /** Wrong answers to the alternate service's auth parameters; the fifth cancels the link. */
    authTries: integer('auth_tries').notNull().default(0),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    activatedAt: at('activated_at'),
  },
  (t) => [
    index('account_links_payer').on(t.payerId),
    // One attempt at a time per account: a second concurrent create loses (spec §2 panel).
    uniqueIndex('account_links_one_open')
      .on(t.accountId)
      .where(sql`state IN ('created', 'awaiting_authorisation')`),
    // An account is linked once (spec §5 "already linked").
    uniqueIndex('account_links_one_active')
      .on(t.accountId)
      .where(sql`state = 'active'`),
  ],
);

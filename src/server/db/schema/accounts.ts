/*
 * A payer's bank accounts and the mandates that link them (spec §2 "Account-linking panel", §3
 * User account, §5 "already linked"): an account is added once per payer, and each attempt to
 * link it is an account link whose mandate moves created → awaiting_authorisation → active, or
 * ends expired or cancelled. A card saved to an account (spec §1 "save a card to an account") is
 * kept on the account as its provider token and masked form, never its number, CVV or PIN.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
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
import type { TCardBrand } from '../../../domain/card-brand';
import type { TKeptMandateTerms } from '../../../domain/mandate-terms';
import { LINK_ROUTES, MANDATE_ENDS, MANDATE_STATES } from '../../../domain/schemas/account-link';
import { payments } from './consents';
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
    /**
     * Keyed hash of the holder's BVN as the name enquiry answered it, or as the provider's check
     * confirmed it (holderCheck); null when neither did.
     */
    bvnHash: text('bvn_hash'),
    /**
     * The provider's check that the account is held under the payer's BVN, for a name enquiry
     * that answers none: 'pending' until its notice, 'differs' once refused; null otherwise.
     */
    holderCheck: text('holder_check', { enum: ['pending', 'differs'] }),
    /** The keyed hash of the BVN the check asked about: bvnHash once it matches. */
    holderCheckBvnHash: text('holder_check_bvn_hash'),
    /** The saved card's provider token: what charges it again (spec §3 integrations.card.token). */
    cardToken: text('card_token'),
    cardBrand: text('card_brand').$type<TCardBrand>(),
    cardFirst6: text('card_first6'),
    cardLast4: text('card_last4'),
    cardExpiryMonth: integer('card_expiry_month'),
    /** Four digits, e.g. 2030. */
    cardExpiryYear: integer('card_expiry_year'),
    cardSavedAt: at('card_saved_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payer_accounts_one_per_payer').on(t.payerId, t.institutionCode, t.accountNumber),
    // A saved card is whole or absent: never a token without the card it charges, or a half.
    check(
      'payer_accounts_card_whole',
      sql`(card_token IS NULL AND card_brand IS NULL AND card_first6 IS NULL AND card_last4 IS NULL AND card_expiry_month IS NULL AND card_expiry_year IS NULL AND card_saved_at IS NULL) OR (card_token IS NOT NULL AND card_brand IS NOT NULL AND card_first6 IS NOT NULL AND card_last4 IS NOT NULL AND card_expiry_month IS NOT NULL AND card_expiry_year IS NOT NULL AND card_saved_at IS NOT NULL)`,
    ),
  ],
);

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
    /** The test transfer's or the card's test charge's amount in kobo (routes test_transfer, card). */
    testAmount: bigint('test_amount', { mode: 'number' }),
    /** The one-time account the test transfer goes to (route test_transfer). */
    payInAccountNumber: text('pay_in_account_number'),
    /**
     * The adapter that opened that account (route test_transfer), named before it is asked to:
     * only its notices of the account (a transfer into it, its early close) are taken. Null on a
     * link made before it was kept: taken from any, as then.
     */
    testTransferProvider: text('test_transfer_provider'),
    /** The alternate service's reference (route auth_params). */
    remitaTransRef: text('remita_trans_ref').unique(),
    requestId: text('request_id'),
    /**
     * The provider's reference for the mandate the payer approves at their bank's page (route
     * bank_page). A card link's test charge keeps the network's on its attempt (migration 0076).
     */
    providerReference: text('provider_reference').unique(),
    /**
     * What the provider debits the account by: once the bank confirmed the mandate (bank_page), or
     * the mandate a provider keeps itself (`mandateProvider`).
     */
    debitAuthorization: text('debit_authorization'),
    /**
     * The adapter that keeps the link's mandate and debits it, where that is not the debits
     * capability's (Remita's mandates, docs/providers/remita.md); null: the debits capability's.
     */
    mandateProvider: text('mandate_provider'),
    /**
     * The adapter that debits the link's mandate, named when the link is made (the debits
     * capability's provider then, or the one keeping its own mandate): every debit of the link,
     * and every later call about one, goes to it (services/payments/mandate-debits.ts). Null on
     * a link made before it was kept whose rows did not say who: debited by none until an
     * operator names it (docs/operations.md "Links with no debit provider").
     */
    debitProvider: text('debit_provider'),
    /**
     * The adapter that set the link's mandate up, named in the transaction that makes the link:
     * the mandates capability's for auth parameters and paper forms (the sandbox's, Remita's), the
     * debits capability's for a mandate approved at the bank's page or proven by a test transfer
     * or a card's test charge. Its status, the payer's answers to it and its stop are asked there
     * whatever the lists say later (linking/link-mandates.ts). Null on a link made before it was
     * kept whose row did not prove who: no provider is asked about its mandate (docs/operations.md
     * "Links whose mandate names no provider").
     */
    mandateSetUpBy: text('mandate_set_up_by'),
    /**
     * How that provider said the mandate ended when it was stopped; null while it was not
     * stopped, or the provider has not answered yet.
     */
    mandateEnd: text('mandate_end', { enum: MANDATE_ENDS }),
    /**
     * What that provider's mandate was set up to allow (the consent it was linked for), and when;
     * null for one set up before they were kept (not checked).
     */
    mandateTerms: jsonb('mandate_terms').$type<TKeptMandateTerms>(),
    /** The expiry of the card being linked, kept for the card saved once the charge succeeds. */
    cardExpiryMonth: integer('card_expiry_month'),
    cardExpiryYear: integer('card_expiry_year'),
    /**
     * Answers to the alternate service's auth parameters sent to the bank: each counted before it
     * is sent, five at most; the fifth wrong cancels the link.
     */
    authTries: integer('auth_tries').notNull().default(0),
    /**
     * When the answer to a try was lost (route auth_params): the call may have used the bank's
     * one-time code up, so the next try asks the mandate's status before anything is sent again.
     */
    authAnswerLostAt: at('auth_answer_lost_at'),
    /**
     * Keyed hash of the BVN the link was made under: the payer's verified BVN, which the account's
     * holder BVN matched when the link became active. Null for links made before BVNs were checked.
     */
    bvnHash: text('bvn_hash'),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    activatedAt: at('activated_at'),
  },
  (t) => [
    index('account_links_payer').on(t.payerId),
    // One live link per account, in one index so that a single INSERT decides: one attempt at a
    // time (spec §2 panel), and none once the account is linked (spec §5 "already linked").
    uniqueIndex('account_links_one_live')
      .on(t.accountId)
      .where(sql`state IN ('created', 'awaiting_authorisation', 'active')`),
  ],
);

/**
 * The accounts a granted future payment is collected from, first to last (spec §2 'Select what
 * accounts you'd like to use for repayment:'): written in the grant's transaction, each on the
 * mandate its account's link activated.
 */
export const futurePaymentAccounts = pgTable(
  'future_payment_accounts',
  {
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => payerAccounts.id, { onDelete: 'cascade' }),
    /** The account link whose active mandate a collection runs on. */
    mandateId: text('mandate_id')
      .notNull()
      .references(() => accountLinks.id),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.position] }),
    index('future_payment_accounts_account').on(t.accountId),
  ],
);

/**
 * What the BVN registry answered about an account's holder (Mono's account-number lookup, billed
 * each time, failed ones too): kept so that an account is looked up once, whoever links it. The
 * holder's BVN only as its keyed hash; null when the registry knows no such account.
 */
export const accountOwnerLookups = pgTable(
  'account_owner_lookups',
  {
    institutionCode: text('institution_code').notNull(),
    accountNumber: text('account_number').notNull(),
    ownerBvnHash: text('owner_bvn_hash'),
    lookedUpAt: timestamp('looked_up_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.institutionCode, t.accountNumber] })],
);

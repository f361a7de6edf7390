/*
 * The sandbox network's own tables (docs/sandbox.md): the bank side of the simulation. A real
 * provider keeps these on its side, so nothing outside src/server/sandbox and the sandbox
 * adapter reads them.
 */
import {
  bigint,
  bigserial,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { SANDBOX_TRANSFER_OUTCOMES } from '../../../domain/schemas/sandbox';
import type { TAccountScenario, TCardScenario } from '../../sandbox/fixtures';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The test accounts' balances, seeded from the fixtures; debits move them. */
export const sandboxAccounts = pgTable(
  'sandbox_accounts',
  {
    institutionCode: text('institution_code').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    balance: bigint('balance', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.institutionCode, t.accountNumber] })],
);

/** One-time accounts issued for a transfer; each takes one payment of its exact amount. */
export const sandboxVirtualAccounts = pgTable(
  'sandbox_virtual_accounts',
  {
    accountNumber: text('account_number').primaryKey(),
    /** Our attempt's reference, which the provider echoes when money arrives. */
    reference: text('reference').notNull().unique(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    accountName: text('account_name').notNull(),
    status: text('status', { enum: ['open', 'paid'] })
      .notNull()
      .default('open'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_virtual_accounts_expires').on(t.expiresAt)],
);

/**
 * Every transfer sent to a one-time account, who sent it, and what became of it: credited, or
 * returned to that sender for the reason `outcome` names. Nothing is lost.
 */
export const sandboxTransfers = pgTable(
  'sandbox_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountNumber: text('account_number').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    outcome: text('outcome', { enum: SANDBOX_TRANSFER_OUTCOMES }).notNull(),
    /** The sender's bank and account, as the notice names them; null for an unnamed sender. */
    senderInstitutionCode: text('sender_institution_code'),
    senderAccountNumber: text('sender_account_number'),
    /** The one-time account's reference (ours), which its notice names; null for no such account. */
    reference: text('reference'),
    /**
     * When its notice to us was last sent. A 'received' transfer's notice is owed: sent again
     * until our notices route answers it (sandbox-notices.ts); a sender claims it by moving this.
     */
    noticeSentAt: timestamp('notice_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('sandbox_transfers_account').on(t.accountNumber),
    index('sandbox_transfers_owed')
      .on(t.noticeSentAt)
      .where(sql`outcome = 'received'`),
  ],
);

/** Every direct debit asked of the sandbox bank, by our reference, and what it did. */
export const sandboxDebits = pgTable(
  'sandbox_debits',
  {
    reference: text('reference').primaryKey(),
    providerReference: text('provider_reference').notNull().unique(),
    institutionCode: text('institution_code').notNull(),
    accountNumber: text('account_number').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** 'expired': asked about (a requery) before any debit arrived; a late debit is refused. */
    outcome: text('outcome', {
      enum: ['succeeded', 'insufficient_funds', 'account_not_found', 'expired'],
    }).notNull(),
    /** When a succeeded debit was given back (a payment paid meanwhile by another way). */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_debits_account').on(t.institutionCode, t.accountNumber)],
);

/** Every payout asked of the sandbox bank, by our reference, and what it did. */
export const sandboxPayouts = pgTable(
  'sandbox_payouts',
  {
    reference: text('reference').primaryKey(),
    providerReference: text('provider_reference').notNull().unique(),
    institutionCode: text('institution_code').notNull(),
    accountNumber: text('account_number').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** 'expired': asked about (a requery) before the payout arrived; a late one is refused. */
    outcome: text('outcome', { enum: ['succeeded', 'account_not_found', 'expired'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_payouts_account').on(t.institutionCode, t.accountNumber)],
);

export const SANDBOX_CHARGE_STATUSES = [
  /** Taken by the network, waiting for the payer (OTP, 3-D Secure) or for the issuer. */
  'pending',
  /** The card was charged: money taken. */
  'succeeded',
  /** Refused; nothing taken. */
  'failed',
  /** Asked about (a requery) before any charge arrived: closed, a late charge is refused. */
  'expired',
] as const;

/**
 * Every card charge the sandbox card network was asked for, and every chip purchase its acquirer
 * was sent, by our reference, and what became of it: what it answers a repeated call and a
 * requery from, and what `ledger:check` compares the books with. Never the card number.
 */
export const sandboxCardCharges = pgTable(
  'sandbox_card_charges',
  {
    reference: text('reference').primaryKey(),
    /** 'card': a card-not-present charge (the card network); 'chip': a reader's chip purchase. */
    channel: text('channel', { enum: ['card', 'chip'] }).notNull(),
    providerReference: text('provider_reference').unique(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status', { enum: SANDBOX_CHARGE_STATUSES }).notNull(),
    /** What a pending charge waits for from the payer; null while the issuer thinks. */
    awaiting: text('awaiting', { enum: ['pin', 'otp', '3ds'] }),
    /** Why it failed (the network's reason), or the chip purchase's ISO 8583 response code. */
    reason: text('reason'),
    responseCode: text('response_code'),
    authCode: text('auth_code'),
    cardBrand: text('card_brand'),
    cardFirst6: text('card_first6'),
    cardLast4: text('card_last4'),
    /** When a succeeded charge was given back whole (a refund, a reversal). */
    givenBackAt: timestamp('given_back_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sandbox_card_charges_status').on(t.status)],
);

/**
 * People minted for tests and developers (POST /api/sandbox/people, docs/sandbox.md "Minting a
 * person"): the sandbox BVN registry's entries beyond the fixtures' people. One BVN each.
 */
export const sandboxPeople = pgTable(
  'sandbox_people',
  {
    bvn: text('bvn').primaryKey(),
    fullName: text('full_name').notNull(),
    /** YYYY-MM-DD. */
    dateOfBirth: text('date_of_birth').notNull(),
    /** E.164: the phone the BVN is registered with. */
    phoneNumber: text('phone_number').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_people_phone').on(t.phoneNumber)],
);

/**
 * The sandbox BVN registry's verifications (its stand-in for NIBSS's iGree consent): the BVN, the
 * way its code went and a hash of that code, which the registry alone checks.
 */
export const sandboxBvnSessions = pgTable('sandbox_bvn_sessions', {
  session: text('session').primaryKey(),
  bvn: text('bvn').notNull(),
  /** SHA-256 of `session:code`, once a code was sent; a resend replaces it. */
  codeHash: text('code_hash'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * A minted person's test accounts, one per account scenario: the bank, balance and behaviour of
 * that scenario's fixture account, under the person's name and BVN.
 */
export const sandboxPersonAccounts = pgTable(
  'sandbox_person_accounts',
  {
    institutionCode: text('institution_code').notNull(),
    accountNumber: text('account_number').notNull(),
    bvn: text('bvn')
      .notNull()
      .references(() => sandboxPeople.bvn),
    accountName: text('account_name').notNull(),
    scenario: text('scenario').$type<TAccountScenario>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.institutionCode, t.accountNumber] }),
    index('sandbox_person_accounts_bvn').on(t.bvn),
  ],
);

/**
 * A minted person's test cards, one per card scenario, each issued on one of their accounts.
 * Public test cards like the fixtures', yet the number is kept only as its SHA-256 (what a charge
 * is matched by) and its first 6 and last 4: a card number column is one nobody may copy from.
 * Expiry, CVV, PIN and OTP are those of the scenario's fixture card. A charge's reference and a
 * saved card's token name the card by scenario, first 6 and last 4, so those are unique together.
 */
export const sandboxPersonCards = pgTable(
  'sandbox_person_cards',
  {
    numberHash: text('number_hash').primaryKey(),
    scenario: text('scenario').$type<TCardScenario>().notNull(),
    first6: text('first6').notNull(),
    last4: text('last4').notNull(),
    bvn: text('bvn')
      .notNull()
      .references(() => sandboxPeople.bvn),
    institutionCode: text('institution_code').notNull(),
    accountNumber: text('account_number').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sandbox_person_cards_digits').on(t.scenario, t.first6, t.last4),
    index('sandbox_person_cards_bvn').on(t.bvn),
  ],
);

/**
 * Every refund the sandbox network was asked for, by our refund's reference, and what it did: a
 * card's issuer takes back part of a charge, the bank reverses part of a debit or pays a
 * transfer's sender back. What a repeated call and a requery answer from, and the settlement
 * report's 'refund' lines.
 */
export const sandboxRefunds = pgTable(
  'sandbox_refunds',
  {
    reference: text('reference').primaryKey(),
    providerReference: text('provider_reference').notNull().unique(),
    channel: text('channel', { enum: ['card', 'debit', 'transfer'] }).notNull(),
    /** The charge, debit or one-time account (its reference) the money came in by. */
    chargeReference: text('charge_reference').notNull(),
    /** The account credited (a debit's, or a transfer's sender's); null for a card. */
    institutionCode: text('institution_code'),
    accountNumber: text('account_number'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** 'expired': asked about (a requery) before the refund arrived; a late one is refused. */
    outcome: text('outcome', { enum: ['processed', 'failed', 'expired'] }).notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_refunds_charge').on(t.channel, t.chargeReference)],
);

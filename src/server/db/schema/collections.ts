/*
 * Collections of granted future payments (docs/payments.md "Collecting future payments"): each
 * time a future payment is debited from the accounts it is bound to (future_payment_accounts),
 * first to last. A fixed payment with a due date gets one collection, made by the runner a day
 * before it is due (so the payer's notice is flagged on it); a variable or 'As needed' payment
 * gets one each time its merchant asks.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TErrorCode } from '../../../domain/errors';
import { payerAccounts } from './accounts';
import { consents, payments } from './consents';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const COLLECTION_STATUSES = [
  /** Made ahead of its due time; nobody is debiting it yet. */
  'pending',
  /** Claimed by a runner (or a merchant's collect call) that is asking the bank. */
  'collecting',
  /** One bound account was debited: the payment is executed. */
  'succeeded',
  /** Every bound account refused the debit. */
  'failed',
  /**
   * Its payment cancelled (the payer revoked the consent, or the merchant cancelled its future
   * payments) before it was debited, or a debit the bank made after that given back.
   */
  'cancelled',
  /**
   * Never debited: its payer skipped it by the notice's link, or it fell due while the consent's
   * future payments were paused (failure_reason payer_skipped or consent_paused).
   */
  'skipped',
] as const;
export type TCollectionStatus = (typeof COLLECTION_STATUSES)[number];

/** Who asked for the collection: the runner on the due date, or the merchant's collect call. */
export const COLLECTION_TRIGGERS = ['schedule', 'merchant'] as const;

/** What one bound account's bank answered to the collection's debit. */
export type TCollectionTry = {
  position: number;
  accountId: string;
  /** Ours, one per collection and account: asking the bank again with it is answered, not debited. */
  reference: string;
  outcome: 'succeeded' | 'failed';
  /** Why it failed: the bank's reason, or ours (e.g. 'mandate_inactive'). */
  reason: string | null;
  at: string;
};

/**
 * A collection's debit that the bank took as an instruction and has not made yet (Remita's
 * 'awaiting debit'): asked about by its reference on every later claim, never sent again, and
 * cancelled at the bank where it may be (its payment cancelled, or pending past what the provider
 * says a debit may take).
 */
export type TPendingDebit = {
  position: number;
  accountId: string;
  /** Ours, the debit's (debitReference). */
  reference: string;
  /** The provider's, from its first pending answer: what a cancellation names. */
  providerReference: string | null;
  /**
   * The provider it was asked of (registry.ts): asked again, cancelled and given back there
   * whatever the lists say later. Absent in debits recorded before it was kept: new work's.
   */
  provider?: string;
  /** When it was first asked about and not answered, or answered pending (ISO). */
  since: string;
  /**
   * When it is cancelled at the bank if still not made (ISO): its first pending answer's time and
   * what the provider says a debit may take; null while the bank has not answered about it.
   */
  until?: string | null;
};

export const futurePaymentCollections = pgTable(
  'future_payment_collections',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    consentId: text('consent_id')
      .notNull()
      .references(() => consents.id, { onDelete: 'cascade' }),
    trigger: text('trigger', { enum: COLLECTION_TRIGGERS }).notNull(),
    /** Kobo: the payment's amount, or what the merchant asked (never above it). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status', { enum: COLLECTION_STATUSES }).notNull().default('pending'),
    /** When it may be debited: the payment's due date, or the moment the merchant asked. */
    dueAt: at('due_at').notNull(),
    /** When the payer's notice went out; set once, in the statement that claims it. */
    notifiedAt: at('notified_at'),
    /**
     * The notice's SMS in the outbox (sms_queue): the collection is debited only once it was sent
     * the whole lead before (services/payments/debit-notices.ts).
     */
    noticeSmsId: uuid('notice_sms_id'),
    /** When a runner last claimed it: a claim older than the stale age is taken over. */
    claimedAt: at('claimed_at'),
    claims: integer('claims').notNull().default(0),
    /** Rounds of debits tried before this one: a scheduled collection every account refused for
     * insufficient funds is tried again later (COLLECTION_RETRY_DELAYS_MS), each round with
     * references of its own. */
    rounds: integer('rounds').notNull().default(0),
    /** The merchant client that asked (trigger merchant). */
    requestedBy: text('requested_by'),
    /** The account debited, and the bank's reference for it (status succeeded). */
    accountId: text('account_id').references(() => payerAccounts.id, { onDelete: 'set null' }),
    providerReference: text('provider_reference'),
    tries: jsonb('tries')
      .$type<TCollectionTry[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The debit waiting at a bank, while the collection is 'collecting'. */
    pendingDebit: jsonb('pending_debit').$type<TPendingDebit>(),
    failureCode: text('failure_code').$type<TErrorCode>(),
    failureReason: text('failure_reason'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    completedAt: at('completed_at'),
  },
  (t) => [
    // The runner makes a due payment's collection once, whichever process gets there first.
    uniqueIndex('future_payment_collections_one_scheduled')
      .on(t.paymentId)
      .where(sql`"trigger" = 'schedule'`),
    // One collection under way per payment: a second collect call at once is refused (409).
    uniqueIndex('future_payment_collections_one_open')
      .on(t.paymentId)
      .where(sql`status IN ('pending', 'collecting')`),
    // A payment is collected once.
    uniqueIndex('future_payment_collections_one_succeeded')
      .on(t.paymentId)
      .where(sql`status = 'succeeded'`),
    index('future_payment_collections_due').on(t.status, t.dueAt),
    index('future_payment_collections_consent').on(t.consentId),
    check('future_payment_collections_amount_positive', sql`amount > 0`),
  ],
);

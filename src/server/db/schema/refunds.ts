/*
 * A merchant's refunds of its paid payments (docs/payments.md "Refunds"): one row per refund,
 * its life (domain/refunds.ts) and what the provider said of it.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { PAYMENT_METHODS } from '../../../domain/constants';
import { REFUND_STATES } from '../../../domain/refunds';
import { consents, merchants, payments } from './consents';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    /** Ours, and the reference the provider is asked with: one per refund, never another. */
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    consentId: text('consent_id')
      .notNull()
      .references(() => consents.id, { onDelete: 'cascade' }),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** The client that asked: its webhooks hear of the outcome. */
    clientId: text('client_id').notNull(),
    /** How the payment was paid: the ledger account the money goes back out of our books by. */
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    /** The way the provider gives it back. */
    channel: text('channel', { enum: ['card', 'debit', 'transfer'] }).notNull(),
    /** The provider's reference of the payment's charge, debit or transfer. */
    chargeReference: text('charge_reference').notNull(),
    /** A transfer's sender, where the money goes back. */
    sender: jsonb('sender').$type<{
      institutionCode: string;
      bankName: string;
      accountNumber: string;
      accountName: string;
    }>(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    reason: text('reason'),
    status: text('status', { enum: REFUND_STATES }).notNull().default('pending'),
    /** The provider that moves it ('sandbox', …). */
    provider: text('provider').notNull(),
    providerReference: text('provider_reference'),
    failureReason: text('failure_reason'),
    createdAt: at('created_at').notNull().defaultNow(),
    /** When the provider was last asked (the refund, or a requery): the reconciler's clock. */
    askedAt: at('asked_at').notNull(),
    endedAt: at('ended_at'),
  },
  (t) => [
    index('payment_refunds_payment').on(t.paymentId, t.createdAt),
    index('payment_refunds_pending')
      .on(t.askedAt)
      .where(sql`status = 'pending'`),
    check('payment_refunds_amount_positive', sql`amount > 0`),
  ],
);

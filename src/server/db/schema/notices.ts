/*
 * What providers told us on their own (docs/payments.md "Provider notices"). A notice of a
 * transfer is the one kind whose second delivery could not be told from a second transfer by the
 * state it reaches (a payment already paid), so each is recorded by the provider's reference of
 * the transfer, with our answer, in the transaction that applies it: delivered again, it is
 * answered the same and changes nothing.
 */
import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { TTransferReturnReason } from '../../providers/payments';

export const transferNotices = pgTable(
  'transfer_notices',
  {
    /** The provider that sent it (TPaymentProvider.name). */
    provider: text('provider').notNull(),
    /** The provider's reference of the transfer. */
    providerReference: text('provider_reference').notNull(),
    /** Ours: the one-time account's (an attempt's or an account link's id). */
    reference: text('reference').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** 'taken', or why the transfer goes back to its sender. */
    answer: text('answer').$type<'taken' | TTransferReturnReason>().notNull(),
    /** When a transfer we did not take went back to its sender (returnTransfer answered). */
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerReference] })],
);

/*
 * What providers told us on their own (docs/payments.md "Provider notices"). A notice of money
 * reaching us (a transfer into a one-time account, or a charge taken in another currency than the
 * naira) is the one kind whose second delivery could not be told from a second arrival by the
 * state it reaches (a payment already paid), so each is recorded, with our answer, in the
 * transaction that applies it: delivered again, it is answered the same and changes nothing. It
 * is recorded by what it says decides money, the provider's reference with the amount and the
 * currency: a notice of that reference saying another amount is judged for itself, never given
 * the answer of another.
 */
import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { TTransferReturnReason } from '../../providers/payments';

export const transferNotices = pgTable(
  'transfer_notices',
  {
    /** The provider that sent it (the transfersIn capability's `provider`). */
    provider: text('provider').notNull(),
    /** The provider's reference of the transfer (or of the charge). */
    providerReference: text('provider_reference').notNull(),
    /** Ours: the one-time account's (an attempt's or an account link's id), or the charge's attempt. */
    reference: text('reference').notNull(),
    /** In the minor unit of `currency`, as the notice said (kobo for the naira). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** ISO 4217, as the notice said: only 'NGN' is ever taken. */
    currency: text('currency').notNull(),
    /** 'taken', or why the money goes back to whoever sent it. */
    answer: text('answer').$type<'taken' | TTransferReturnReason>().notNull(),
    /** When money we did not take went back to whoever sent it (returnTransfer answered). */
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerReference, t.amount, t.currency] })],
);

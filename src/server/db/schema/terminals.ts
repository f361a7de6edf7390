/*
 * The chip terminals merchants registered (docs/providers/paystack-terminal.md): a payment at a
 * pushed terminal (Paystack Terminal) goes to one of its merchant's.
 */
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { merchants } from './consents';

export const merchantTerminals = pgTable(
  'merchant_terminals',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** The adapter the terminal belongs to, e.g. 'paystack-terminal'. */
    provider: text('provider').notNull(),
    /** The provider's id of the terminal (Paystack's terminal_id). */
    terminalId: text('terminal_id').notNull(),
    /** What staff and payers call it, e.g. 'Till 2'. */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('merchant_terminals_terminal').on(t.provider, t.terminalId),
    index('merchant_terminals_merchant').on(t.merchantId),
  ],
);

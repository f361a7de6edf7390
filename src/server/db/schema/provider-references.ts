/*
 * What an adapter knows of its own references that every process must see alike
 * (providers/provider-references.ts): ROLE=api runs several processes on one database, and a
 * requery in one must stop a late charge in another. Keyed by the provider, the kind of fact and
 * the reference it is about.
 */
import { jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * - closed: our reference was asked about and the provider had never seen it: the port answered
 *   'not taken', which is final, so a late call with it is refused, never sent;
 * - open_charge: a card charge waiting for its payer (a PIN, an OTP, 3-D Secure), by the
 *   provider's reference: the step and the card (brand, first six, last four; nothing secret);
 * - transfer_account: the one-time account opened for our reference: asking again answers it;
 * - give_back: the payouts provider a debit's give-back was sent to (Remita gives a debit back by
 *   payout), by the give-back's reference: asked about and sent again there alone.
 */
export type TProviderReferenceKind = 'closed' | 'open_charge' | 'transfer_account' | 'give_back';

export const providerReferences = pgTable(
  'provider_references',
  {
    /** The adapter's name ('paystack', 'remita'). */
    provider: text('provider').notNull(),
    kind: text('kind').$type<TProviderReferenceKind>().notNull(),
    /** Ours, or the provider's for an open charge. */
    reference: text('reference').notNull(),
    /** What the kind keeps; null for a closed reference. */
    state: jsonb('state'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.kind, t.reference] })],
);

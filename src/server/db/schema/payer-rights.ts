import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  PAYER_RIGHTS_KINDS,
  PAYER_RIGHTS_STATUSES,
  type TLegalHold,
} from '../../../domain/payer-rights';
import { payers } from './identity';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A payer's request about their data (docs/payer-rights.md): a copy, an erasure or a correction,
 * from receipt to answer, due within the law's month. One of a kind is open at a time per payer.
 */
export const payerRightsRequests = pgTable(
  'payer_rights_requests',
  {
    /** `prr_…` */
    id: text('id').primaryKey(),
    payerId: text('payer_id')
      .notNull()
      .references(() => payers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: PAYER_RIGHTS_KINDS }).notNull(),
    status: text('status', { enum: PAYER_RIGHTS_STATUSES }).notNull().default('received'),
    receivedAt: at('received_at').notNull(),
    dueAt: at('due_at').notNull(),
    doneAt: at('done_at'),
    /** An erasure's answer: the holds that kept data back. */
    kept: jsonb('kept').$type<TLegalHold[]>(),
    /** A copy's JSON, sealed under the request's label until its link expires, then erased. */
    exportSealed: text('export_sealed'),
    /** When a copy's link stops opening it. */
    expiresAt: at('expires_at'),
  },
  (t) => [
    uniqueIndex('payer_rights_requests_open')
      .on(t.payerId, t.kind)
      .where(sql`${t.status} = 'received'`),
    index('payer_rights_requests_payer').on(t.payerId, t.receivedAt),
  ],
);

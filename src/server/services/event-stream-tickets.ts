import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { TDb } from '../db/database';
import { eventStreamTickets } from '../db/schema';
import { AppError } from '../app-error';

/** How long a ticket opens its stream: EventSource's reconnects reuse it within this time. */
export const STREAM_TICKET_TTL_MS = 5 * 60 * 1_000;

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/**
 * A ticket for one stream, for the signed-in payer whose right to it the caller checked; the
 * ticket records who it was issued to.
 */
export async function issueStreamTicket(
  db: TDb,
  stream: string,
  payerId: string,
  now: Date,
): Promise<{ ticket: string; expiresAt: string }> {
  const ticket = `est_${randomBytes(24).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + STREAM_TICKET_TTL_MS);
  await db
    .insert(eventStreamTickets)
    .values({ ticketHash: hashOf(ticket), stream, payerId, expiresAt });
  return { ticket, expiresAt: expiresAt.toISOString() };
}

/** What a ticket opens: its stream, and the payer it was issued to. */
export type TRedeemedTicket = { stream: string; payerId: string | null };

/**
 * Checks a ticket in one statement and answers the stream it opens and its payer; a wrong or
 * expired ticket, or one for a stream this route does not serve (`accepts`), is
 * STREAM_TICKET_INVALID (401).
 */
export async function redeemStreamTicket(
  db: TDb,
  ticket: string,
  now: Date,
  accepts: (stream: string) => boolean,
): Promise<TRedeemedTicket> {
  const [row] = await db
    .update(eventStreamTickets)
    .set({ usedAt: sql`COALESCE(${eventStreamTickets.usedAt}, ${now.toISOString()}::timestamptz)` })
    .where(
      and(eq(eventStreamTickets.ticketHash, hashOf(ticket)), gt(eventStreamTickets.expiresAt, now)),
    )
    .returning({ stream: eventStreamTickets.stream, payerId: eventStreamTickets.payerId });
  if (!row || !accepts(row.stream)) throw new AppError('STREAM_TICKET_INVALID');
  return row;
}

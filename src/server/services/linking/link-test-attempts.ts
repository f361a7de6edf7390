import { and, eq, sql, type SQL } from 'drizzle-orm';
import { ATTEMPT_STATES, type TAttemptEdge } from '../../../domain/payment-attempts';
import type { TDb } from '../../db/database';
import { accountLinks, paymentAttempts } from '../../db/schema';
import {
  inAttemptStates,
  moveAttempt,
  type TAttemptChange,
  type TAttemptRow,
} from '../payments/attempts/moves';

/*
 * A card link's test charge is an attempt (purpose 'link_test', src/domain/payment-attempts.ts):
 * it moves along ATTEMPT_TRANSITIONS by the attempts' one move function (attempts/moves.ts
 * moveAttempt), in one statement each, so of two requests moving one charge one moves it and the
 * other finds it gone. Its id is its link's, the reference the card network knows the charge by.
 * A link's end never ends its charge: the charge ends by the network's word (its answer, a
 * notice, the reconciler's requery), or once nothing more can be taken (lost-link-charges.ts).
 */

/** A card link's test charge: its attempt. */
export type TLinkCharge = TAttemptRow;

/** Test charges of card links. */
export const ofLinks = eq(paymentAttempts.purpose, 'link_test');

/** A test charge whose link (the attempt's, by its link_id) matches `condition`. */
export const whoseLink = (condition: SQL | undefined): SQL =>
  sql`exists (select 1 from ${accountLinks} where ${accountLinks.id} = ${paymentAttempts.linkId} and ${condition ?? sql`true`})`;

/** A test charge whose link is still open (its mandate 'created'). */
export const linkStillOpen = whoseLink(eq(accountLinks.state, 'created'));

/** The test charges at one of `states` (ATTEMPT_STATES). */
export const linkChargesIn = (states: Parameters<typeof inAttemptStates>[0]): SQL =>
  and(ofLinks, inAttemptStates(states)) ?? sql`false`;

/** What a new link's test charge is made of: the link's, the amount and the provider. */
export type TNewLinkCharge = {
  link: { id: string; payerId: string; cardExpiryMonth: number; cardExpiryYear: number };
  amount: number;
  provider: string;
  now: Date;
};

/** Opens a card link's test charge inside `tx`, the link's opening: at the network. */
export async function openLinkCharge(tx: TDb, charge: TNewLinkCharge): Promise<TLinkCharge> {
  const { link, amount, provider, now } = charge;
  const [opened] = await tx
    .insert(paymentAttempts)
    .values({
      id: link.id,
      purpose: 'link_test',
      linkId: link.id,
      method: 'card',
      ...ATTEMPT_STATES.charging,
      amount,
      payerId: link.payerId,
      provider,
      cardExpiryMonth: link.cardExpiryMonth,
      cardExpiryYear: link.cardExpiryYear,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!opened) throw new Error(`Card link ${link.id}: its test charge could not be recorded`);
  return opened;
}

/**
 * Moves a card link's test charge along `edge` (and `also`, when given): null when it was not in
 * a `from` state (another request moved it first, or it ended).
 */
export function moveLinkCharge(
  db: TDb,
  linkId: string,
  edge: TAttemptEdge,
  change: TAttemptChange,
  now: Date,
  also?: SQL,
): Promise<TLinkCharge | null> {
  return moveAttempt(db, linkId, edge, change, now, and(ofLinks, also));
}

/** A card link's test charge, or null for a link that made none. */
export async function readLinkCharge(db: TDb, linkId: string): Promise<TLinkCharge | null> {
  const [charge] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.id, linkId), ofLinks));
  return charge ?? null;
}

import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  LINK_CHARGE_TRANSITIONS,
  type TLinkChargeEdge,
  type TLinkChargeStage,
  type TLinkChargeState,
} from '../../../domain/link-charge-lifecycle';
import type { TDb } from '../../db/database';
import { accountLinks } from '../../db/schema';

/*
 * A card link's test charge moved along LINK_CHARGE_TRANSITIONS (src/domain/link-charge-lifecycle.ts)
 * in one statement each: UPDATE … WHERE charge_stage IN (from) … RETURNING, so of two requests
 * moving one charge one moves it and the other finds it gone. A move that ends the link too (a
 * newer attempt superseding it) sets the mandate's state in the same statement; the mandate's own
 * moves (link-lifecycle.ts moveLink) end the charge with theirs.
 */

type TLinkRow = typeof accountLinks.$inferSelect;

/** What a move may set besides the stage its edge reaches: the network's reference, a state. */
export type TLinkChargeChange = Omit<
  Partial<typeof accountLinks.$inferInsert>,
  'id' | 'chargeStage' | 'updatedAt'
>;

/** The value account_links.charge_stage holds for `state`: none once the charge ended. */
export const chargeStageColumn = (state: TLinkChargeState): TLinkChargeStage | null =>
  state === 'ended' ? null : state;

/** The card links whose test charge waits at one of `stages`. */
export const inLinkChargeStages = (stages: readonly TLinkChargeStage[]): SQL =>
  inArray(accountLinks.chargeStage, [...stages]);

/**
 * Moves the test charges of the links `which` along `edge`, with `change`, in one statement that
 * checks each waits at one of the edge's `from` stages. Answers the links moved.
 */
export function moveLinkCharges(
  db: TDb,
  which: SQL,
  edge: TLinkChargeEdge,
  change: TLinkChargeChange,
  now: Date,
): Promise<TLinkRow[]> {
  const { from, to } = LINK_CHARGE_TRANSITIONS[edge];
  return db
    .update(accountLinks)
    .set({ ...change, chargeStage: chargeStageColumn(to), updatedAt: now })
    .where(and(which, inLinkChargeStages(from)))
    .returning();
}

/**
 * Moves one link's test charge along `edge` (and `also`, when given): null when it did not wait at
 * a `from` stage (another request moved it first, or it ended).
 */
export async function moveLinkCharge(
  db: TDb,
  linkId: string,
  edge: TLinkChargeEdge,
  change: TLinkChargeChange,
  now: Date,
  also?: SQL,
): Promise<TLinkRow | null> {
  const [moved] = await moveLinkCharges(
    db,
    and(eq(accountLinks.id, linkId), also) ?? sql`false`,
    edge,
    change,
    now,
  );
  return moved ?? null;
}

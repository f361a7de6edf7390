import { and, eq, gt, inArray, lte, type SQL } from 'drizzle-orm';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import {
  ACCOUNT_LINK_PROGRESS_EVENT,
  type TAccountLinkProgressEvent,
} from '../../../domain/schemas/account-link';
import {
  MANDATE_TRANSITIONS,
  type TMandateEdge,
} from '../../../domain/schemas/mandate-transitions';
import type { TAppContext } from '../../context';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { accountLinks } from '../../db/schema';
import { appendEvent, eventStreams } from '../../events/event-log';
import { AppError } from '../../app-error';
import { isUniqueViolation } from '../../db/database-errors';
import { heldUnderPayersBvn, payersBvnHash } from './bvn-ownership';

/*
 * Linking a payer's bank account (spec §2 "Account-linking panel", §4, §7; docs/accounts.md):
 * each attempt is an account link whose mandate is authorised by a test transfer, the alternate
 * service's auth parameters, or a signed paper form, as the bank's integrations allow. Every
 * change of a link's state is one UPDATE … WHERE state IN (…) RETURNING, in the transaction of
 * its progress event and ledger entries; an expired link is moved to `expired` when next touched.
 * Here: a link's id and the moves every way of linking shares; its states and transitions are
 * the domain's (domain/schemas/mandate-transitions.ts).
 */

export type TLinkContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;
export type TLinkRow = typeof accountLinks.$inferSelect;

export type TLinkRoute = TLinkRow['route'];
/** The routes this service opens; card links are made by the card flow. */
export type TMandateRoute = Exclude<TLinkRoute, 'card'>;

/** Link ids name the one-time account of a test transfer, so the bank's notice finds its link. */
const LINK_ID_PREFIX = 'alk';

export const isAccountLinkReference = (reference: string): boolean =>
  reference.startsWith(`${LINK_ID_PREFIX}_`);

/** A new link's id: 16 random bytes, so the id alone admits whoever holds it to a paper form. */
export const newLinkId = (): string => randomId(LINK_ID_PREFIX, 16);

/** Moves a link along one edge in one statement: null when it was not in a `from` state. */
export async function moveLink(
  db: TDb,
  linkId: string,
  edge: TMandateEdge,
  now: Date,
  also?: SQL,
): Promise<TLinkRow | null> {
  const [row] = await moveLinks(db, and(eq(accountLinks.id, linkId), also), edge, now);
  return row ?? null;
}

/**
 * Moves the links `which` along one edge, in one statement that checks each is in one of the
 * edge's `from` states: answers those moved.
 */
export async function moveLinks(
  db: TDb,
  which: SQL | undefined,
  edge: TMandateEdge,
  now: Date,
): Promise<TLinkRow[]> {
  const { from, to } = MANDATE_TRANSITIONS[edge];
  return db
    .update(accountLinks)
    .set({
      state: to,
      updatedAt: now,
      // An active link records the BVN it was made under (docs/identity.md "The BVN").
      ...(to === 'active' ? { activatedAt: now, bvnHash: payersBvnHash } : {}),
    })
    .where(
      and(
        which,
        inArray(accountLinks.state, [...from]),
        // Only an account held under the payer's verified BVN becomes theirs, checked as it moves.
        to === 'active' ? heldUnderPayersBvn : undefined,
      ),
    )
    .returning();
}

export function emitProgress(tx: TDb, event: TAccountLinkProgressEvent): Promise<number> {
  return appendEvent(tx, {
    stream: eventStreams.accountLink(event.accountLinkId),
    type: ACCOUNT_LINK_PROGRESS_EVENT,
    data: event,
  });
}

/**
 * Activates an open, unexpired link inside `tx`, with its `completed` event. null when the link
 * was not open (any more). No other link of the account can be active: the one-live index lets
 * an account hold one open or active link.
 */
export async function activateLink(
  tx: TDb,
  linkId: string,
  now: Date,
  also?: SQL,
): Promise<TLinkRow | null> {
  const row = await moveLink(
    tx,
    linkId,
    'activate',
    now,
    and(gt(accountLinks.expiresAt, now), also),
  );
  if (row) await emitProgress(tx, { accountLinkId: linkId, status: 'completed' });
  return row;
}

/**
 * Why a new link of the account lost to the one-live index: the account is linked (409
 * ACCOUNT_ALREADY_LINKED) or another attempt is open (409 ACCOUNT_LINK_IN_PROGRESS). The index
 * decided; this read only names its reason.
 */
export async function liveLinkConflict(db: TDb, accountId: string): Promise<AppError> {
  const [active] = await db
    .select({ id: accountLinks.id })
    .from(accountLinks)
    .where(and(eq(accountLinks.accountId, accountId), eq(accountLinks.state, 'active')))
    .limit(1);
  return new AppError(active ? 'ACCOUNT_ALREADY_LINKED' : 'ACCOUNT_LINK_IN_PROGRESS');
}

/**
 * Moves a link along an edge that ends it (`also` narrowing the move as moveLink's does) and, in
 * the caller's transaction, tells its page why: the link's failed event, with `message`. Null
 * when the link was not where the edge starts any more (nothing said).
 */
export async function endLink(
  tx: TDb,
  linkId: string,
  end: { edge: TMandateEdge; now: Date; message: string; also?: SQL },
): Promise<TLinkRow | null> {
  const row = await moveLink(tx, linkId, end.edge, end.now, end.also);
  if (row)
    await emitProgress(tx, { accountLinkId: linkId, status: 'failed', message: end.message });
  return row;
}

/**
 * Ends a link the provider could not open, so the account is free for another attempt. False
 * when it was not open any more.
 */
export async function abandonLink(
  db: TDb,
  linkId: string,
  now: Date,
  message: string,
): Promise<boolean> {
  const ended = await db.transaction((tx) => endLink(tx, linkId, { edge: 'cancel', now, message }));
  return ended !== null;
}

export async function readLink(db: TDb, linkId: string): Promise<TLinkRow | null> {
  const [row] = await db.select().from(accountLinks).where(eq(accountLinks.id, linkId));
  return row ?? null;
}

/**
 * Opens a link for its account in one transaction: an attempt left past its expiry gives way; an
 * account already linked is ACCOUNT_ALREADY_LINKED; another attempt still open is
 * ACCOUNT_LINK_IN_PROGRESS (the one-open index decides, so of concurrent opens one wins).
 */
export async function openLink(
  db: TDb,
  link: typeof accountLinks.$inferInsert & { accountId: string; createdAt: Date },
): Promise<void> {
  const now = link.createdAt;
  await db.transaction(async (tx) => {
    // An attempt left past its expiry gives way to this one.
    const stale = await tx
      .update(accountLinks)
      .set({
        state: MANDATE_TRANSITIONS.expire.to,
        updatedAt: now,
      })
      .where(
        and(
          eq(accountLinks.accountId, link.accountId),
          inArray(accountLinks.state, [...MANDATE_TRANSITIONS.expire.from]),
          lte(accountLinks.expiresAt, now),
        ),
      )
      .returning({ id: accountLinks.id });
    for (const { id } of stale) {
      await emitProgress(tx, {
        accountLinkId: id,
        status: 'failed',
        message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message,
      });
    }
    // A savepoint: the insert's unique violation leaves `tx` usable to name its reason.
    const inserted = await tx
      .transaction(async (savepoint) => {
        await savepoint.insert(accountLinks).values(link);
        return true;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return false;
        throw error;
      });
    if (!inserted) throw await liveLinkConflict(tx, link.accountId);
  });
}

// A new card link and the account's earlier ones (spec §9; docs/accounts.md "Linking by card"):
// an earlier link's test charge left waiting for its payer past the OTP retry time, or lost with
// its process, gives way to the new attempt, each asked about at the network first so that its
// money, if taken, goes back by the network's word wherever it can be had.
import { and, eq, inArray, lt, or } from 'drizzle-orm';
import { OTP_RETRY_AFTER_MS } from '../../../domain/constants';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TDb } from '../../db/database';
import { accountLinks, paymentAttempts } from '../../db/schema';
import { STALE_CHARGE_MS } from '../payments/card-payments';
import {
  type TCardLinkContext,
  askAboutLinkCharge,
  atThreeDsCheck,
  emitCardLinking,
  settleLinkCharge,
} from './card-link-charges';
import { endThreeDsLink } from './card-link-notices';
import { emitProgress, moveLinks } from './link-lifecycle';
import { linkChargesIn, whoseLink } from './link-test-attempts';

/**
 * A card link's test charge whose answer was lost with its process: charging past
 * STALE_CHARGE_MS, its link open.
 */
const lostWithItsProcess = (now: Date) =>
  and(
    linkChargesIn(['charging']),
    whoseLink(and(eq(accountLinks.route, 'card'), eq(accountLinks.state, 'created'))),
    lt(paymentAttempts.updatedAt, new Date(now.getTime() - STALE_CHARGE_MS)),
  );

/** The test charges of the account's card links. */
const ofAccount = (accountId: string) => whoseLink(eq(accountLinks.accountId, accountId));

/**
 * The account's card links whose charge was lost with its process, which a new attempt supersedes
 * (supersedeStaleLinks), each asked about first as the reconciler asks (lost-link-charges.ts), so
 * that a link ends by the network's word whenever it can be had: taken, the money goes back and
 * the link fails; never taken, the link fails (settleLinkCharge). One the network cannot answer
 * for, says still waits, or whose refund fails is superseded with its charge unsettled, for the
 * reconciler to ask about until it is settled.
 */
export async function settleLostCharges(
  ctx: TCardLinkContext,
  accountId: string,
  now: Date,
): Promise<void> {
  const lost = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(and(ofAccount(accountId), lostWithItsProcess(now)));
  for (const charge of lost) {
    const word = await askAboutLinkCharge(ctx, charge);
    if (!word || word.kind === 'pending') continue;
    try {
      await settleLinkCharge(ctx, charge, word);
    } catch {
      // Not given back now: superseded unsettled, the reconciler gives it back.
    }
  }
}

/**
 * The account's card links waiting at their 3-D Secure check past the OTP retry time, which a new
 * attempt supersedes (spec §9), each asked about first and ended by the network's answer as the
 * reconciler's sweep ends it (endThreeDsLink), so money the payer approved at the network whose
 * notice was lost goes back now. Answers the ids of those the network says still wait for their
 * payer, for the new attempt to cancel with their charge unsettled: an approval that comes after
 * finds its link ended and is given back when its word arrives (giveBackAfterEnd) or, if none
 * comes, when the reconciler asks (lost-link-charges.ts), once by the books. A link the network
 * cannot answer for, or whose answer cannot be taken (left charging, for lost-link-charges.ts),
 * is not superseded: the new attempt waits for it (409 ACCOUNT_LINK_IN_PROGRESS) rather than risk
 * the payer's money.
 */
export async function stillAtTheirCheck(
  ctx: TCardLinkContext,
  accountId: string,
  now: Date,
): Promise<string[]> {
  const stale = await ctx.db
    .select({ id: paymentAttempts.id, provider: paymentAttempts.provider })
    .from(paymentAttempts)
    .where(
      and(
        ofAccount(accountId),
        atThreeDsCheck,
        lt(paymentAttempts.updatedAt, new Date(now.getTime() - OTP_RETRY_AFTER_MS)),
      ),
    );
  const waiting: string[] = [];
  for (const charge of stale) {
    const { id } = charge;
    const word = await askAboutLinkCharge(ctx, charge);
    if (word?.kind === 'pending') {
      waiting.push(id);
      continue;
    }
    try {
      if (word) await endThreeDsLink(ctx, id, word);
    } catch {
      // An answer that could not be taken leaves the link open, for the reconciler to settle.
    }
  }
  return waiting;
}

/**
 * Cancels, inside `tx`, the account's card attempts a new one supersedes, telling their streams:
 * one left waiting for its OTP past the OTP retry time (its OTP reaches the network only through
 * us, so nothing more can be taken), one at its 3-D Secure check the network says still waits
 * (stillAtTheirCheck), and one lost with its process that the network did not settle when asked
 * (settleLostCharges). The last two end with their charge unsettled: the reconciler asks about
 * them until the network's last word is had (lost-link-charges.ts).
 */
export async function supersedeStaleLinks(
  tx: TDb,
  of: { payerId: string; accountId: string; atTheirCheck: string[] },
  now: Date,
): Promise<void> {
  // The mandate's cancel edge, for the card attempts whose charge is below. Their charges stay
  // where they are, to end by the network's word (lost-link-charges.ts).
  const stale = tx
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(
      or(
        and(
          linkChargesIn(['awaiting_otp']),
          lt(paymentAttempts.updatedAt, new Date(now.getTime() - OTP_RETRY_AFTER_MS)),
        ),
        and(linkChargesIn(['awaiting_3ds']), inArray(paymentAttempts.id, of.atTheirCheck)),
        lostWithItsProcess(now),
      ),
    );
  const superseded = await moveLinks(
    tx,
    and(
      eq(accountLinks.accountId, of.accountId),
      eq(accountLinks.route, 'card'),
      inArray(accountLinks.id, stale),
    ),
    'cancel',
    now,
  );
  const message = ERROR_CATALOGUE.ACCOUNT_LINK_CANCELLED.message;
  for (const { id } of superseded) {
    await emitProgress(tx, { accountLinkId: id, status: 'failed', message });
    await emitCardLinking(tx, of.payerId, {
      event: 'card_linking_failed',
      paymentId: id,
      error: message,
    });
  }
}

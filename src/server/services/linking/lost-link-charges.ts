import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import { OPEN_ATTEMPT_STATES, THREE_DS_CHALLENGE_MS } from '../../../domain/payment-attempts';
import type { TAppContext } from '../../context';
import { accountLinks, paymentAttempts } from '../../db/schema';
import type { TRequeryOutcome } from '../../providers/payments';
import { AppError } from '../../app-error';
import { claimAttempts, drainClaims } from '../payments/attempts/reconcile';
import {
  askAboutLinkCharge,
  chargeCardsOf,
  recordNotTaken,
  settleLinkCharge,
} from './card-link-charges';
import {
  linkChargesIn,
  linkStillOpen,
  moveLinkCharge,
  ofLinks,
  whoseLink,
  type TLinkCharge,
} from './link-test-attempts';

/*
 * Card links whose test charge's money may be out with no word of it (docs/accounts.md "Linking
 * by card", "A check left waiting"; docs/payments.md "Reconciliation"). Each is claimed once it is
 * RECONCILE_AFTER_MS old (its updated time moved on, in one statement) and the network is asked
 * about the charge's reference (the link's id). Taken, the money goes back to the card (the
 * network's token for it was lost with the answer, so the card cannot be saved): refunded, booked
 * in and out, and the link, if still open, ends 'Failed to link card', for the payer to link
 * again. Never taken, the link ends the same way. Two kinds of link are asked about:
 *
 * 1. A link left 'charging' by a process that died while the card network had the test charge.
 *    Waiting for the payer's OTP or 3-D Secure check, it goes back to that step.
 * 2. A link that ended with its charge still open (superseded, expired, its call to the network
 *    failed), or whose charge is owed back (its refund refused: recordSucceeded in
 *    card-link-outcomes.ts). The
 *    network's answer is the money's last word: nothing else asks about a link that ended, and a
 *    notice may never come. Asked until the answer settles it (a network that does not answer, or a
 *    refund that fails, leaves it for the next run), so a refund refused once is given back at the
 *    next run, once. A charge the network says still waits is asked about again while money may
 *    still be taken by it.
 */

type TLostLinkContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;

type TLinkChargeAnswer = 'given_back' | 'failed' | 'pending';

/** Claims card links' test charges matching `which` that nobody has touched for the reconcile age. */
const claimCharges = (ctx: TLostLinkContext, which: SQL | undefined) =>
  claimAttempts(ctx, ofLinks, which);

/** Settles one claimed charge of an open link, left charging, from the network's record. */
async function settleLostLink(
  ctx: TLostLinkContext,
  charge: TLinkCharge,
): Promise<TLinkChargeAnswer> {
  const answer = await chargeCardsOf(ctx, charge).requeryCardCharge(charge.id);
  if (answer.kind !== 'pending') return settleLinkCharge(ctx, charge, answer);
  // A link's charge carried its PIN: only an OTP or a 3-D Secure check waits for the payer.
  if ((answer.awaiting === 'otp' || answer.awaiting === '3ds') && answer.providerReference) {
    await moveLinkCharge(
      ctx.db,
      charge.id,
      answer.awaiting === 'otp' ? 'askOtp' : 'ask3ds',
      { providerReference: answer.providerReference },
      ctx.clock.now(),
    );
  }
  return 'pending';
}

/**
 * Whether money may still be taken for a link that ended, its charge still waiting at the
 * network: while the network itself thinks, or a 3-D Secure check its payer may still answer at
 * the network, until the check's time (THREE_DS_CHALLENGE_MS) after the link's own ran out. An
 * OTP or a PIN reaches the network only through us, refused for a link that ended: nothing more
 * can be taken.
 */
function mayStillBeTaken(
  linkExpiresAt: Date,
  pending: Extract<TRequeryOutcome, { kind: 'pending' }>,
  now: Date,
): boolean {
  switch (pending.awaiting) {
    case null:
      return true;
    case '3ds':
      return now.getTime() < linkExpiresAt.getTime() + THREE_DS_CHALLENGE_MS;
    case 'otp':
    case 'pin':
      return false;
  }
}

/**
 * Settles one claimed charge of a link that ended, or owed back, from the network's record: once
 * nothing more can be taken for it, it fails with nothing taken.
 */
async function settleEndedLink(
  ctx: TLostLinkContext,
  charge: TLinkCharge,
): Promise<TLinkChargeAnswer> {
  const answer = await askAboutLinkCharge(ctx, charge);
  // Not answered now: asked again at a later run.
  if (!answer) return 'pending';
  if (answer.kind !== 'pending') return settleLinkCharge(ctx, charge, answer);
  const now = ctx.clock.now();
  const [link] = await ctx.db
    .select({ expiresAt: accountLinks.expiresAt })
    .from(accountLinks)
    .where(eq(accountLinks.id, charge.id));
  if (link && mayStillBeTaken(link.expiresAt, answer, now)) return 'pending';
  await ctx.db.transaction((tx) =>
    recordNotTaken(tx, charge, new AppError('CARD_LINK_FAILED'), 'link_ended', now),
  );
  return 'failed';
}

/** Adds the counts of two drains, answer by answer. */
function addCounts(
  a: Partial<Record<TLinkChargeAnswer, number>>,
  b: Partial<Record<TLinkChargeAnswer, number>>,
): Partial<Record<TLinkChargeAnswer, number>> {
  const sum = { ...a };
  for (const [answer, count] of Object.entries(b) as [TLinkChargeAnswer, number][]) {
    sum[answer] = (sum[answer] ?? 0) + count;
  }
  return sum;
}

/**
 * Every card link's charge left charging past the age, then every one whose link ended with it
 * still open, or owed back, settled from the network's record.
 */
export async function reconcileLostLinkCharges(ctx: TLostLinkContext) {
  const charging = await drainClaims(
    () => claimCharges(ctx, and(linkChargesIn(['charging']), linkStillOpen)),
    (charge) => settleLostLink(ctx, charge),
  );
  const ended = await drainClaims(
    () =>
      claimCharges(
        ctx,
        or(
          and(
            linkChargesIn(OPEN_ATTEMPT_STATES),
            whoseLink(inArray(accountLinks.state, ['cancelled', 'expired'])),
          ),
          eq(paymentAttempts.refund, 'owed'),
        ),
      ),
    (charge) => settleEndedLink(ctx, charge),
  );
  return {
    counts: addCounts(charging.counts, ended.counts),
    errors: [...charging.errors, ...ended.errors],
    unrouted: charging.unrouted + ended.unrouted,
  };
}

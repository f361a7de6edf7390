import { and, eq, inArray, isNotNull, isNull, lt, type SQL } from 'drizzle-orm';
import { THREE_DS_CHALLENGE_MS } from '../../../domain/payment-attempts';
import type { TAppContext } from '../../context';
import { accountLinks } from '../../db/schema';
import { claimRows } from '../../jobs/claim-rows';
import type { TRequeryOutcome } from '../../providers/payments';
import { drainClaims, RECONCILE_BATCH } from '../payments/attempts/reconcile';
import {
  askAboutLinkCharge,
  chargeCardsOf,
  markChargeSettled,
  settleLinkCharge,
  type TChargingLink,
} from './card-link-charges';
import type { TLinkRow } from './link-lifecycle';
import { inLinkChargeStages, moveLinkCharge } from './link-charge-moves';

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
 * 2. A link that ended with its charge unsettled (account_links.charge_settled_at null): ended
 *    without asking (superseded, expired, its call to the network failed) or its refund refused
 *    (recordSucceeded in card-link-outcomes.ts, giveBackAfterEnd in card-link-notices.ts). The
 *    network's answer is the money's last word: nothing else asks about a link that ended, and a
 *    notice may never come. Asked until the answer settles it (a network that does not answer, or a
 *    refund that fails, leaves it for the next run), so a refund refused once is given back at the
 *    next run, once. A charge the network says still waits is asked about again while money may
 *    still be taken by it.
 */

type TLostLinkContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;

type TLinkChargeAnswer = 'given_back' | 'failed' | 'pending';

/** Claims card links matching `which` that nobody has touched for the reconcile age. */
function claimLinks(ctx: TLostLinkContext, which: SQL | undefined) {
  const now = ctx.clock.now();
  const due = and(
    eq(accountLinks.route, 'card'),
    which,
    lt(accountLinks.updatedAt, new Date(now.getTime() - ctx.config.reconcileAfterMs)),
  );
  return claimRows(ctx.db, accountLinks, {
    due,
    oldestBy: accountLinks.updatedAt,
    limit: RECONCILE_BATCH,
    set: { updatedAt: now },
  });
}

/** Settles one claimed link left charging from the network's record of its test charge. */
async function settleLostLink(
  ctx: TLostLinkContext,
  link: TChargingLink,
): Promise<TLinkChargeAnswer> {
  const answer = await chargeCardsOf(ctx, link).requeryCardCharge(link.id);
  if (answer.kind !== 'pending') return settleLinkCharge(ctx, link, answer);
  // A link's charge carried its PIN: only an OTP or a 3-D Secure check waits for the payer.
  if ((answer.awaiting === 'otp' || answer.awaiting === '3ds') && answer.providerReference) {
    await moveLinkCharge(
      ctx.db,
      link.id,
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
  link: TLinkRow,
  pending: Extract<TRequeryOutcome, { kind: 'pending' }>,
  now: Date,
): boolean {
  switch (pending.awaiting) {
    case null:
      return true;
    case '3ds':
      return now.getTime() < link.expiresAt.getTime() + THREE_DS_CHALLENGE_MS;
    case 'otp':
    case 'pin':
      return false;
  }
}

/** Settles one claimed link that ended with its charge unsettled, from the network's record. */
async function settleEndedLink(ctx: TLostLinkContext, link: TLinkRow): Promise<TLinkChargeAnswer> {
  const answer = await askAboutLinkCharge(ctx, link);
  // Not answered now: asked again at a later run.
  if (!answer) return 'pending';
  if (answer.kind !== 'pending') return settleLinkCharge(ctx, link, answer);
  const now = ctx.clock.now();
  if (mayStillBeTaken(link, answer, now)) return 'pending';
  await markChargeSettled(ctx.db, link.id, now);
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
 * Every card link left charging past the age, then every one that ended with its charge
 * unsettled, settled from the network's record.
 */
export async function reconcileLostLinkCharges(ctx: TLostLinkContext) {
  const charging = await drainClaims(
    () => claimLinks(ctx, and(eq(accountLinks.state, 'created'), inLinkChargeStages(['charging']))),
    (link) => settleLostLink(ctx, link),
  );
  const ended = await drainClaims(
    () =>
      claimLinks(
        ctx,
        and(
          inArray(accountLinks.state, ['cancelled', 'expired']),
          isNotNull(accountLinks.testAmount),
          isNull(accountLinks.chargeSettledAt),
        ),
      ),
    (link) => settleEndedLink(ctx, link),
  );
  return {
    counts: addCounts(charging.counts, ended.counts),
    errors: [...charging.errors, ...ended.errors],
    unrouted: charging.unrouted + ended.unrouted,
  };
}

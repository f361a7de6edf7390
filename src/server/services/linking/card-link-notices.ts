// A card link's test charge told of after its call: a provider's notice or the reconciler's
// question ending its 3-D Secure check, money taken after the link ended given back, and what
// the sandbox's 3-D Secure page answers of a link.
import { and, desc, eq, gt } from 'drizzle-orm';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TDb } from '../../db/database';
import { accountLinks, events, ledgerTransactions, paymentAttempts } from '../../db/schema';
import { eventStreams } from '../../events/event-log';
import type { TCardChargeOutcome, TNoticedCharge } from '../../providers/payments';
import type { TChallengeAnswer, TReadChallengeAnswer } from '../../sandbox/sandbox-challenges';
import { AppError } from '../../app-error';
import { cardFailureOf } from '../payments/card-payments';
import {
  type TCardLinkContext,
  chargeCardsOf,
  endLink,
  atThreeDsCheck,
  recordNotTaken,
  recordTaken,
  settleLinkCharge,
} from './card-link-charges';
import { readLinkCharge, whoseLink, type TLinkCharge } from './link-test-attempts';
import { recordLinkOutcome, takeWaitingLink } from './card-link-outcomes';

/**
 * A card link's test charge a notice says was taken, as recordLinkOutcome takes the network's
 * answer. One it cannot take as it stands (another amount, no card named by the notice or the
 * network) throws, leaving the link charging for the reconciler's requery (lost-link-charges.ts),
 * which gives the money back.
 */
async function linkChargeTaken(
  ctx: TCardLinkContext,
  charge: TLinkCharge,
  taken: Extract<TNoticedCharge, { kind: 'taken' }>,
): Promise<Extract<TCardChargeOutcome, { kind: 'succeeded' }>> {
  if (taken.amount !== charge.amount) {
    throw new Error(`Card link ${charge.id}: the network took ${taken.amount} kobo`);
  }
  // A notice that names no card: the network's record of the charge does.
  const answer = taken.card ? null : await chargeCardsOf(ctx, charge).requeryCardCharge(charge.id);
  const card = taken.card ?? (answer?.kind === 'taken' ? answer.card : null);
  if (!card) throw new Error(`Card link ${charge.id}: the network names no card it charged`);
  return {
    kind: 'succeeded',
    providerReference: taken.providerReference,
    card,
    token: taken.token ?? null,
  };
}

/** Whether a card link's test charge was booked as refunded (by the link's id, once). */
async function refundBooked(db: TDb, linkId: string): Promise<boolean> {
  const [booked] = await db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(
      and(
        eq(ledgerTransactions.kind, 'test_charge_refund'),
        eq(ledgerTransactions.reference, linkId),
      ),
    );
  return booked !== undefined;
}

/**
 * Money the network's word says a card link's test charge took after the link ended (cancelled
 * by a newer attempt, failed when its check's time ran out, expired): the payer approved at the
 * network too late for the link, which stays as it ended, so the charge goes back to the card.
 * The books are the key: a refund booked for the link (test_charge_refund, once by kind and the
 * link's id) is money given back before, by whichever path, and nothing is asked again. Else the
 * network is asked to refund first, then the charge and its refund are booked in one
 * transaction: refunding first leaves no crash between the two with the money kept (a word told
 * again finds no refund booked and asks again), and the network's refund is one per reference
 * however often asked (TCardsPort.refundCard), so two words at once give back once and book once.
 * A refund the network refuses throws, the charge left unsettled: a word may never be told again,
 * so the reconciler asks about the link and gives the money back (lost-link-charges.ts). Answers
 * whether the refund was booked now.
 */
async function giveBackAfterEnd(
  ctx: TCardLinkContext,
  linkId: string,
  taken: Extract<TNoticedCharge, { kind: 'taken' }>,
): Promise<boolean> {
  const [link] = await ctx.db
    .select({ state: accountLinks.state })
    .from(accountLinks)
    .where(and(eq(accountLinks.id, linkId), eq(accountLinks.route, 'card')));
  const charge = await readLinkCharge(ctx.db, linkId);
  // A link still open is being settled by whoever took it; an active one was refunded as linked.
  if (!link || !charge || (link.state !== 'cancelled' && link.state !== 'expired')) return false;
  if (await refundBooked(ctx.db, linkId)) return false;
  await chargeCardsOf(ctx, charge).refundCard({
    providerReference: taken.providerReference,
    amount: taken.amount,
    reference: linkId,
  });
  await ctx.db.transaction((tx) => recordTaken(tx, charge, taken, true, ctx.clock.now()));
  return true;
}

/**
 * Ends a card link's test charge waiting for its 3-D Secure check by the network's word, whoever
 * brought it (its notice, the reconciler's question: link-challenges.ts, or a new attempt's:
 * linkCard). The link is taken from that step in one statement, so of a notice and the sweep at
 * once one settles it, and the word is recorded as the network's own answer is
 * (recordLinkOutcome): taken, the charge refunded and the card linked by the token the word
 * names (none named, the money goes back and the link fails); not taken, or still waiting once
 * the check's time ran out, the check failed (THREE_DS_FAILED, as a payment's does) with nothing
 * taken, the charge settled only when the network said so: 'ended'. A link not waiting there
 * (answered, or the word told again) changes nothing: 'unchanged'; but money taken for a link
 * that had ended is given back, the link as it was (giveBackAfterEnd): 'given_back'.
 */
export async function endThreeDsLink(
  ctx: TCardLinkContext,
  linkId: string,
  word: TNoticedCharge,
): Promise<'ended' | 'given_back' | 'unchanged'> {
  const charge = await takeWaitingLink(ctx, { linkId }, 'awaiting_3ds');
  if (!charge) {
    const late = word.kind === 'taken' && !word.givenBack;
    return late && (await giveBackAfterEnd(ctx, linkId, word)) ? 'given_back' : 'unchanged';
  }
  if (word.kind !== 'taken') {
    // Declined, or still waiting once the check's time ran out: the check failed with nothing
    // taken. A charge the network still holds open stays at the network: the reconciler asks
    // again (lost-link-charges.ts).
    const failure = cardFailureOf('three_ds_declined', 'linking');
    await ctx.db.transaction(async (tx) => {
      const now = ctx.clock.now();
      if (word.kind === 'not_taken') await recordNotTaken(tx, charge, failure, word.reason, now);
      await endLink(tx, charge, failure, now);
    });
    return 'ended';
  }
  if (word.givenBack) {
    // Taken and given back since (a reversal): booked in and out, and the link fails, as the
    // reconciler ends one whose charge it finds taken (lost-link-charges.ts).
    await settleLinkCharge(ctx, charge, word);
    return 'ended';
  }
  const answer = await linkChargeTaken(ctx, charge, word);
  try {
    await recordLinkOutcome(ctx, charge, answer);
  } catch (error) {
    // A failure recorded (the link ended, its stream told) is the word applied.
    if (!(error instanceof AppError)) throw error;
  }
  return 'ended';
}

/**
 * A provider's notice that a card link's test charge, waiting for its 3-D Secure check, ended, or
 * that one of a link that had ended was taken (endThreeDsLink). A notice that it still waits
 * changes nothing.
 */
export async function settleNoticedLinkCharge(
  ctx: TCardLinkContext,
  linkId: string,
  outcome: TNoticedCharge,
): Promise<'applied' | 'unchanged'> {
  if (outcome.kind === 'pending') return 'unchanged';
  return (await endThreeDsLink(ctx, linkId, outcome)) === 'unchanged' ? 'unchanged' : 'applied';
}

/** Why a card link ended, as its last progress event told the payer. */
async function endedLinkMessage(db: TDb, linkId: string): Promise<string> {
  const [last] = await db
    .select({ data: events.data })
    .from(events)
    .where(eq(events.stream, eventStreams.accountLink(linkId)))
    .orderBy(desc(events.id))
    .limit(1);
  const message = last?.data.message;
  return typeof message === 'string' ? message : ERROR_CATALOGUE.CARD_LINKING_FAILED.message;
}

/**
 * What the sandbox's 3-D Secure page says of a card link once the network's notice was sent: the
 * link as it stands. One still waiting at its check (the notice was not answered 2xx) is taken
 * from it to `charging`, for the reconciler to settle from the network's record past
 * RECONCILE_AFTER_MS (lost-link-charges.ts: the money given back, the link failed):
 * PAYMENT_IN_PROGRESS meanwhile.
 */
async function linkChallengeAnswer(
  ctx: TCardLinkContext,
  linkId: string,
): Promise<TChallengeAnswer> {
  const [link] = await ctx.db.select().from(accountLinks).where(eq(accountLinks.id, linkId));
  if (!link) throw new Error(`Card link ${linkId} vanished`);
  switch (link.state) {
    case 'active':
      return { status: 'completed', message: 'Approved: the card is linked.' };
    case 'cancelled':
    case 'expired':
      return { status: 'failed', message: await endedLinkMessage(ctx.db, link.id) };
    case 'created':
    case 'awaiting_authorisation':
      await takeWaitingLink(ctx, { linkId }, 'awaiting_3ds');
      throw new AppError('PAYMENT_IN_PROGRESS');
  }
}

/**
 * A card link's side of the sandbox's 3-D Secure page (TWaitingChallenges, wired in app.ts): its
 * test charge waiting at the check under `providerReference`, one that lasts, as how to read what
 * the page says of it once answered (linkChallengeAnswer); null for none.
 */
export async function waitingLinkChallenge(
  ctx: TCardLinkContext,
  providerReference: string,
): Promise<TReadChallengeAnswer | null> {
  const [charge] = await ctx.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.providerReference, providerReference),
        atThreeDsCheck,
        whoseLink(gt(accountLinks.expiresAt, ctx.clock.now())),
      ),
    );
  return charge ? () => linkChallengeAnswer(ctx, charge.id) : null;
}

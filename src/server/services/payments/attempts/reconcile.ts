import { and, eq, gt, isNull, lt, type SQL } from 'drizzle-orm';
import { paymentAttempts } from '../../../db/schema';
import { claimRows } from '../../../jobs/claim-rows';
import {
  ASKING_WINDOW_REASON,
  AT_THE_PROVIDER,
  CALLED_OFF_REASON,
  CARD_ASKING_WINDOW_MS,
  FAILED_OVER,
  namedStateOf,
  type TAttemptState,
} from '../../../../domain/payment-attempts';
import { inAttemptStates, ofPayments, type TAttemptRow } from './moves';
import { UNROUTED, unlessUnrouted } from '../unrouted-rows';
import { giveBack, markRefundSettled, settleChipPurchase, type TGiveBack } from './settlements';
import {
  askedOf,
  failOver,
  requery,
  settleProviderAnswer,
  type TBookableOutcome,
  type TLostAnswer,
  type TLostContext,
} from './answers';

/*
 * Attempts whose answer was lost (docs/payments.md "Reconciliation"). A call that moves money and
 * never answered (a timeout, a process killed between the provider's answer and the booking)
 * leaves its attempt 'charging': whether the money moved is not known, and the one charging
 * attempt per payment keeps anything else from charging it meanwhile. Past RECONCILE_AFTER_MS the
 * attempt is claimed (its updated time moved on, in one statement, so two processes never take
 * one attempt at once) and the provider is asked about its reference (answers.ts requery), its
 * answer settled as a notice's is (answers.ts settleProviderAnswer):
 *
 * - taken: booked as its own answer would have been (settlements.ts), the payment executed once;
 * - not taken (refused, or never arrived: the provider then closes the reference): failed, and
 *   the payment may be paid again;
 * - pending: left, asked again after the same age; a charge waiting for its payer's OTP or 3-D
 *   Secure check goes back to that step; a pushed terminal's request past its expiry is called
 *   off (calledOffWhenExpired).
 *
 * The same goes for money owed back (an attempt that reached a payment paid otherwise): asked
 * about, and given back if the provider still holds it.
 *
 * A card charge its provider did not answer ('unanswered', card-failover.ts) passes the requery
 * gate here: taken, booked; not taken on the provider's side (not the payer's refusal), or no word
 * from the provider within CARD_ASKING_WINDOW_MS, it may be tried again through the next card
 * provider ('retry_elsewhere'). One that failed over without its provider's word is watched like
 * a called-off push: money reported taken later is booked once (it pays the payment if nothing
 * else has, or is given back).
 */

/** Rows claimed at once by one reconciler run. */
export const RECONCILE_BATCH = 50;

/** Attempts whose charge is at its provider, answered or not: what a requery settles. */
const atTheProvider = () => inAttemptStates(AT_THE_PROVIDER);

/**
 * Claims up to RECONCILE_BATCH attempts of `purpose` (ofPayments, or a card link's test charges:
 * linking/lost-link-charges.ts) matching `which` that nobody has touched for `ageMs` (the
 * reconcile age), by moving their updated time to now in one statement: a second claimer
 * (another process) skips them.
 */
export function claimAttempts(
  ctx: Pick<TLostContext, 'db' | 'clock' | 'config'>,
  purpose: SQL,
  which: SQL | undefined,
  ageMs: number = ctx.config.reconcileAfterMs,
): Promise<TAttemptRow[]> {
  const now = ctx.clock.now();
  return claimRows(ctx.db, paymentAttempts, {
    due: and(purpose, which, lt(paymentAttempts.updatedAt, new Date(now.getTime() - ageMs))),
    oldestBy: paymentAttempts.updatedAt,
    limit: RECONCILE_BATCH,
    set: { updatedAt: now },
  });
}

/** Payments' attempts claimed (claimAttempts): card links' test charges have their own sweep. */
const claim = (ctx: TLostContext, which: SQL | undefined, ageMs?: number) =>
  claimAttempts(ctx, ofPayments, which, ageMs);

/** Settles one claimed attempt from the provider's record of its reference. */
export async function settleLostAttempt(
  ctx: TLostContext,
  attempt: TAttemptRow,
): Promise<TLostAnswer> {
  if (namedStateOf(attempt) !== 'unanswered') {
    return settleProviderAnswer(ctx, attempt, await requery(ctx, attempt));
  }
  const windowEnded =
    ctx.clock.now().getTime() - attempt.createdAt.getTime() >= CARD_ASKING_WINDOW_MS;
  let answer: TBookableOutcome;
  try {
    answer = await requery(ctx, attempt);
  } catch (error) {
    // Its provider answers no requery either: past the asking window, the payer may try again
    // elsewhere, and money it reports taken later is booked once (the watch below).
    if (windowEnded && (await failOver(ctx, attempt, ASKING_WINDOW_REASON))) return 'failed_over';
    throw error;
  }
  // Still at the provider past the window, waiting on no step of the payer's: the same.
  const stillOpen = answer.kind === 'pending' && !answer.awaiting;
  if (stillOpen && windowEnded && (await failOver(ctx, attempt, ASKING_WINDOW_REASON))) {
    return 'failed_over';
  }
  return settleProviderAnswer(ctx, attempt, answer);
}

/**
 * Before a payment is charged again: its attempt whose answer was lost, if any, is asked about
 * (booked, failed or left). A provider that cannot be asked now leaves it charging: the new
 * charge then answers PAYMENT_IN_PROGRESS, and the reconciler asks again later.
 */
export async function reconcilePayment(
  ctx: TLostContext,
  paymentId: string,
  /** The oldest last change of its attempts at their provider, as read (TPayable); null: none. */
  atProviderSince: Date | null,
): Promise<void> {
  // None there, or none quiet long enough to be claimed: nothing to ask, no statement sent. One
  // that reached its provider since the read is fresh, and not claimed either.
  const quietSince = ctx.clock.now().getTime() - ctx.config.reconcileAfterMs;
  if (atProviderSince === null || atProviderSince.getTime() >= quietSince) return;
  const lost = await claim(ctx, and(eq(paymentAttempts.paymentId, paymentId), atTheProvider()));
  for (const attempt of lost) {
    try {
      await settleLostAttempt(ctx, attempt);
    } catch {
      // Left for the reconciler's run, which reports what fails.
    }
  }
}

/** What a drain of claimed rows answers: its answers counted, what failed, what it skipped. */
export type TDrain<TAnswer extends string> = {
  counts: Partial<Record<TAnswer, number>>;
  errors: unknown[];
  /** Rows naming a provider this server does not run now: skipped, logged (unrouted-rows.ts). */
  unrouted: number;
};

/**
 * Runs `settle` on every row `claimNext` hands out, batch after batch (each claims at most
 * RECONCILE_BATCH); counts the answers, and keeps what failed to throw at the run's end. A row
 * naming a provider this server does not run is skipped and counted, never an error to retry.
 */
export async function drainClaims<TRow extends { id: string }, TAnswer extends string>(
  claimNext: () => Promise<TRow[]>,
  settle: (row: TRow) => Promise<TAnswer>,
): Promise<TDrain<TAnswer>> {
  const counts: Partial<Record<TAnswer, number>> = {};
  const errors: unknown[] = [];
  let unrouted = 0;
  for (;;) {
    const claimed = await claimNext();
    for (const row of claimed) {
      try {
        const answer = await unlessUnrouted(row.id, () => settle(row));
        if (answer === UNROUTED) unrouted += 1;
        else counts[answer] = (counts[answer] ?? 0) + 1;
      } catch (error) {
        errors.push(error);
      }
    }
    // What was claimed is not claimed again in this run: its updated time is now.
    if (claimed.length < RECONCILE_BATCH) return { counts, errors, unrouted };
  }
}

/** How long after its attempt began a called-off push is still asked about. */
export const CALLED_OFF_WATCH_MS = 24 * 60 * 60 * 1_000;
/** How often a called-off push is asked about meanwhile. */
export const CALLED_OFF_ASK_EVERY_MS = 10 * 60 * 1_000;

/**
 * Every attempt whose answer was lost, settled from the provider's record; and every pushed
 * terminal's request called off in the last CALLED_OFF_WATCH_MS, asked about every
 * CALLED_OFF_ASK_EVERY_MS: paid at the terminal after all and its notice lost, it is booked as the
 * notice would have booked it (the payment paid, or the money owed back).
 */
export async function reconcileLostAttempts(ctx: TLostContext) {
  const lost = await drainClaims(
    () => claim(ctx, atTheProvider()),
    (attempt) => settleLostAttempt(ctx, attempt),
  );
  const calledOff = await drainClaims(
    () => claim(ctx, calledOffWatched(ctx.clock.now()), CALLED_OFF_ASK_EVERY_MS),
    (attempt) => settleCalledOff(ctx, attempt),
  );
  const failedOver = await drainClaims(
    () => claim(ctx, failedOverWatched(ctx.clock.now()), CALLED_OFF_ASK_EVERY_MS),
    (attempt) => settleFailedOver(ctx, attempt),
  );
  const counts = { ...lost.counts };
  for (const run of [calledOff, failedOver]) {
    for (const [answer, count] of Object.entries(run.counts) as [TLostAnswer, number][]) {
      counts[answer] = (counts[answer] ?? 0) + count;
    }
  }
  return {
    counts,
    errors: [...lost.errors, ...calledOff.errors, ...failedOver.errors],
    unrouted: lost.unrouted + calledOff.unrouted + failedOver.unrouted,
  };
}

/**
 * Attempts the reconciler keeps asking about: in `states`, ended for `reason`, owing nothing, made
 * since `now` less CALLED_OFF_WATCH_MS.
 */
const watched =
  (states: readonly TAttemptState[], reason: string) =>
  (now: Date): SQL | undefined =>
    and(
      inAttemptStates(states),
      eq(paymentAttempts.failureReason, reason),
      isNull(paymentAttempts.refund),
      gt(paymentAttempts.createdAt, new Date(now.getTime() - CALLED_OFF_WATCH_MS)),
    );

/** Card charges that failed over without their provider's word. */
const failedOverWatched = watched(FAILED_OVER, ASKING_WINDOW_REASON);

/**
 * A charge that failed over without its provider's word, asked about again: taken, booked once
 * (it pays the payment if nothing else has, or is owed back and given back); not taken, it keeps
 * the provider's reason, which ends the watch; still pending, asked again at the next run.
 */
async function settleFailedOver(ctx: TLostContext, attempt: TAttemptRow): Promise<TLostAnswer> {
  const answer = await requery(ctx, attempt);
  if (answer.kind === 'pending') return 'pending';
  if (answer.kind === 'taken' && !answer.givenBack) {
    return settleProviderAnswer(ctx, attempt, answer);
  }
  const reason = answer.kind === 'taken' ? 'given_back' : answer.reason;
  await ctx.db
    .update(paymentAttempts)
    .set({ failureReason: reason, updatedAt: ctx.clock.now() })
    .where(and(eq(paymentAttempts.id, attempt.id), failedOverWatched(ctx.clock.now())));
  return 'failed';
}

/** A called-off push, the one state the called-off watch asks about. */
const CALLED_OFF = ['called_off'] as const satisfies readonly TAttemptState[];

/** Pushed terminals' attempts called off unpaid (the reason kept beside the state, for its index). */
const calledOffWatched = watched(CALLED_OFF, CALLED_OFF_REASON);

/**
 * A called-off push asked about, and withdrawn at its provider where that failed before:
 * booked if its request was paid after all, else left as it is. A withdrawal still not made
 * throws, counted among the run's errors, and is tried again at the next ask.
 */
async function settleCalledOff(ctx: TLostContext, attempt: TAttemptRow): Promise<TLostAnswer> {
  // The terminal's provider that took the push, whichever acquirer takes new work now.
  const acquirer = ctx.providers.registry.portOf(attempt.provider, 'acquirer');
  if (acquirer.kind !== 'push') return 'failed';
  const answer = await acquirer.withdrawPaymentRequest(askedOf(attempt));
  if (answer.kind !== 'taken') return 'failed';
  const approved = {
    providerReference: answer.providerReference,
    authCode: null,
    chargeReference: answer.transaction,
  };
  return settleProviderAnswer(ctx, attempt, {
    ...answer,
    book: () => settleChipPurchase(ctx, attempt, approved),
  });
}

/** Settles one attempt's owed refund: given back if the provider still holds the money. */
async function settleOwedRefund(ctx: TLostContext, attempt: TAttemptRow): Promise<TGiveBack> {
  const answer = await requery(ctx, attempt);
  if (answer.kind === 'pending') return 'pending';
  if (answer.kind === 'taken' && !answer.givenBack) {
    // A pushed terminal's request names the transaction to refund, kept or not before.
    const { transaction } = answer;
    const known = transaction ? { ...attempt, chargeReference: transaction } : attempt;
    return giveBack(ctx, known, answer.providerReference);
  }
  await markRefundSettled(ctx, attempt.id);
  return 'given_back';
}

/** Every refund still owed (its provider did not answer, or the process stopped first). */
export function reconcileOwedRefunds(ctx: TLostContext) {
  return drainClaims(
    () => claim(ctx, eq(paymentAttempts.refund, 'owed')),
    (attempt) => settleOwedRefund(ctx, attempt),
  );
}

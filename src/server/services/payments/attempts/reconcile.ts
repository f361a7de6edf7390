import { and, eq, gt, inArray, isNull, lt, type SQL } from 'drizzle-orm';
import { STEP_TEXT_AWAITING_3DS } from '../../../../domain/constants';
import { isPushPastExpiry, PaymentRequestNotWithdrawn } from '../../../../domain/pushed-terminal';
import type { TErrorCode } from '../../../../domain/errors';
import type { TAppContext } from '../../../context';
import { paymentAttempts } from '../../../db/schema';
import {
  WITHDRAWN_REASON,
  type TCardSummary,
  type TPaymentRequestOutcome,
  type TPushTerminalPort,
  type TRequeryOutcome,
} from '../../../providers/payments';
import { AppError } from '../../app-error';
import {
  ASKING_WINDOW_REASON,
  AT_THE_PROVIDER,
  CALLED_OFF_REASON,
  CARD_ASKING_WINDOW_MS,
  FAILED_OVER,
  failsOverOn,
  mayMove,
  namedStateOf,
  type TAttemptState,
} from '../../../../domain/payment-attempts';
import { paidThePayment, type TCompletion } from './completion';
import { requeryAttemptDebit } from '../mandate-debits';
import { failAttempt, inAttemptStates, moveAttempt, type TAttemptRow } from './moves';
import { nextCardProvider } from '../card-failover';
import { UNROUTED, unlessUnrouted } from '../unrouted-rows';
import {
  debitedAccount,
  giveBack,
  markRefundSettled,
  settleCardCharge,
  settleChipPurchase,
  settleDebit,
  type TGiveBack,
} from './settlements';

/*
 * Attempts whose answer was lost (docs/payments.md "Reconciliation"). A call that moves money and
 * never answered (a timeout, a process killed between the provider's answer and the booking)
 * leaves its attempt 'charging': whether the money moved is not known, and the one charging
 * attempt per payment keeps anything else from charging it meanwhile. Past RECONCILE_AFTER_MS the
 * attempt is claimed (its updated time moved on, in one statement, so two processes never take
 * one attempt at once) and the provider is asked about its reference:
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

type TLostContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/** Rows claimed at once by one reconciler run. */
export const RECONCILE_BATCH = 50;

/** What a lost attempt ends with when the provider never took its money. */
const NOT_TAKEN: Record<Exclude<TAttemptRow['method'], 'bank_transfer'>, TErrorCode> = {
  // The payer reads that nothing was charged (a card taken and given back says charged: true).
  card: 'CARD_BANK_NO_ANSWER',
  account: 'DIRECT_DEBIT_FAILED',
  chip_card: 'TERMINAL_TIMEOUT',
};

export type TLostAnswer = 'booked' | 'paid_otherwise' | 'failed' | 'failed_over' | 'pending';

/** Attempts whose charge is at its provider, answered or not: what a requery settles. */
const atTheProvider = () => inAttemptStates(AT_THE_PROVIDER);

/**
 * Claims up to BATCH attempts matching `which` that nobody has touched for `ageMs` (the reconcile
 * age), by moving their updated time to now: a second claimer (another process) skips them.
 */
async function claim(
  ctx: TLostContext,
  which: SQL | undefined,
  ageMs: number = ctx.config.reconcileAfterMs,
): Promise<TAttemptRow[]> {
  const now = ctx.clock.now();
  const stale = lt(paymentAttempts.updatedAt, new Date(now.getTime() - ageMs));
  const due = and(which, stale);
  return ctx.db
    .update(paymentAttempts)
    .set({ updatedAt: now })
    .where(
      and(
        due,
        inArray(
          paymentAttempts.id,
          ctx.db
            .select({ id: paymentAttempts.id })
            .from(paymentAttempts)
            .where(due)
            .orderBy(paymentAttempts.updatedAt)
            .limit(RECONCILE_BATCH)
            .for('update', { skipLocked: true }),
        ),
      ),
    )
    .returning();
}

/**
 * What the provider says of an attempt's reference, with how to book it if it was taken (and, a
 * pushed terminal's, the transaction its request produced).
 */
type TBookableOutcome = TRequeryOutcome<{ book(): Promise<TCompletion>; transaction?: string }>;

/** The provider's answer about an attempt's reference, with how to book it if it was taken. */
async function requery(ctx: TLostContext, attempt: TAttemptRow): Promise<TBookableOutcome> {
  switch (attempt.method) {
    case 'card': {
      const answer = await ctx.providers.registry
        .portOf(attempt.provider, 'cards')
        .requeryCardCharge(attempt.id);
      if (answer.kind !== 'taken') return answer;
      return { ...answer, book: cardBooking(ctx, attempt, answer.providerReference, answer.card) };
    }
    case 'account': {
      const answer = await requeryAttemptDebit(ctx.db, ctx.providers.registry, attempt);
      if (answer.kind !== 'taken') return answer;
      return { ...answer, book: debitBooking(ctx, attempt, answer.providerReference) };
    }
    case 'chip_card': {
      const acquirer = ctx.providers.registry.portOf(attempt.provider, 'acquirer');
      const answer =
        acquirer.kind === 'push'
          ? await calledOffWhenExpired(ctx, acquirer, attempt)
          : await acquirer.requeryChipPurchase(attempt.id);
      if (answer.kind !== 'taken') return answer;
      const approved =
        'authCode' in answer
          ? answer
          : {
              providerReference: answer.providerReference,
              authCode: null,
              chargeReference: answer.transaction,
            };
      return { ...answer, book: () => settleChipPurchase(ctx, attempt, approved) };
    }
    case 'bank_transfer':
      // A transfer is never charged by us: its bank tells us when money arrives.
      return { kind: 'pending', awaiting: null, providerReference: null };
  }
}

/** What the pushed terminal's provider is asked about an attempt with. */
const askedOf = (attempt: TAttemptRow) => ({
  reference: attempt.id,
  providerReference: attempt.providerReference,
  createdAt: attempt.createdAt,
});

/**
 * A payment request still unpaid at its terminal PUSHED_TERMINAL_EXPIRY_MS after its attempt
 * began is called off at the first requery after that: withdrawn at its provider (Paystack's
 * Archive Payment Request), so no card pays it any more, and read as not taken
 * (TERMINAL_TIMEOUT), so the payment is free for another way. A card taken before the withdrawal
 * is what the answer says. A withdrawal the provider did not make (no answer, a refusal:
 * PaymentRequestNotWithdrawn) calls it off all the same: the payer is not held by the provider's
 * failure. Any other failure (the request could not be read, or reads paid with its transaction
 * not listed yet) leaves it charging, asked about again: a card taken is never called off. A
 * request called off unwithdrawn may still be paid at the terminal, so the called-off watch
 * (settleCalledOff) withdraws it again at each ask, and a card taken there meanwhile pays the
 * payment if nothing else has (paidAfterCallOff), or is given back (giveBack).
 */
async function calledOffWhenExpired(
  ctx: TLostContext,
  acquirer: TPushTerminalPort,
  attempt: TAttemptRow,
): Promise<TPaymentRequestOutcome> {
  const answer = await acquirer.requeryPaymentRequest(askedOf(attempt));
  if (answer.kind !== 'pending' || !isPushPastExpiry(attempt.createdAt, ctx.clock.now())) {
    return answer;
  }
  const calledOff = {
    kind: 'not_taken' as const,
    providerReference: answer.providerReference,
    reason: CALLED_OFF_REASON,
  };
  try {
    const withdrawn = await acquirer.withdrawPaymentRequest(askedOf(attempt));
    // Taken back unpaid, or never made: called off. Paid or refused first: as it ended.
    const unpaid =
      withdrawn.kind === 'not_taken' &&
      (withdrawn.reason === WITHDRAWN_REASON || withdrawn.providerReference === null);
    return unpaid ? calledOff : withdrawn;
  } catch (error) {
    // Only a withdrawal the provider did not make calls it off. Anything else (the request
    // could not be read, or is paid and its transaction not listed yet) may hide a card taken
    // meanwhile: the attempt stays charging and is asked about again.
    if (error instanceof PaymentRequestNotWithdrawn) return calledOff;
    throw error;
  }
}

/** The move that puts a charge back at the step it waits at for its payer. */
const ASK_EDGE = { pin: 'askPin', otp: 'askOtp', '3ds': 'ask3ds' } as const;

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
 * The requery gate opens: an unanswered card charge becomes 'retry_elsewhere', with the words the
 * payer reads (nothing charged, or, without the provider's word, that the payment failed), when
 * another card provider can take the next try. false when none can, or it was settled meanwhile.
 */
async function failOver(ctx: TLostContext, attempt: TAttemptRow, reason: string) {
  if (attempt.method !== 'card' || !(await nextCardProvider(ctx, attempt))) return false;
  const unknown = reason === ASKING_WINDOW_REASON;
  const failure = new AppError(unknown ? 'CARD_PAYMENT_PROCESSING_FAILED' : 'CARD_BANK_NO_ANSWER');
  const now = ctx.clock.now();
  return (await failAttempt(ctx, attempt, failure, reason, now, 'offerElsewhere')) !== null;
}

/**
 * Books what the provider says of a 'charging' attempt's reference, whether a requery asked it
 * or the provider told us (a notice, services/payments/provider-notices.ts): the one place that
 * decides a charge or a debit took money. Every move is atomic (completeAttempt, failAttempt,
 * moveAttempt), so the same answer twice books nothing twice.
 */
async function settleProviderAnswer(
  ctx: TLostContext,
  attempt: TAttemptRow,
  answer: TBookableOutcome,
): Promise<TLostAnswer> {
  const now = ctx.clock.now();
  const code = attempt.method === 'bank_transfer' ? null : NOT_TAKEN[attempt.method];
  // A pushed terminal's payment request refused at the terminal: the payer reads it declined.
  const refused =
    answer.kind === 'not_taken' && attempt.method === 'chip_card' && answer.reason === 'declined'
      ? 'TERMINAL_DECLINED'
      : code;
  switch (answer.kind) {
    case 'taken': {
      if (answer.amount !== attempt.amount) {
        // Never booked as it stands: `npm run ledger:check` names it for a person to settle.
        throw new Error(
          `Attempt ${attempt.id}: the provider took ${answer.amount} kobo, not ${attempt.amount}`,
        );
      }
      if (answer.givenBack && code) {
        await failAttempt(ctx, attempt, new AppError(code), 'given_back', now);
        return 'failed';
      }
      return paidThePayment(await answer.book()) ? 'booked' : 'paid_otherwise';
    }
    case 'not_taken': {
      if (!refused) return 'failed';
      // Past the requery gate on the provider's side: the next provider may take the next try.
      const gated = namedStateOf(attempt) === 'unanswered' && failsOverOn(answer.reason);
      if (gated && (await failOver(ctx, attempt, answer.reason))) return 'failed_over';
      // A pushed terminal's request found by our reference keeps its code: once withdrawn it is
      // no longer listed, and the called-off watch asks for it by that code.
      const found =
        attempt.method === 'chip_card' && !attempt.providerReference && answer.providerReference
          ? { providerReference: answer.providerReference }
          : {};
      await failAttempt(ctx, attempt, new AppError(refused), answer.reason, now, 'fail', found);
      return 'failed';
    }
    case 'pending':
      // Waiting for its payer: back to that step, where the payer answers or starts again.
      if (answer.awaiting && answer.providerReference) {
        await moveAttempt(
          ctx.db,
          attempt.id,
          ASK_EDGE[answer.awaiting],
          {
            providerReference: answer.providerReference,
            stepText: answer.awaiting === '3ds' ? STEP_TEXT_AWAITING_3DS : null,
          },
          now,
        );
      }
      return 'pending';
  }
}

/**
 * Before a payment is charged again: its attempt whose answer was lost, if any, is asked about
 * (booked, failed or left). A provider that cannot be asked now leaves it charging: the new
 * charge then answers PAYMENT_IN_PROGRESS, and the reconciler asks again later.
 */
export async function reconcilePayment(ctx: TLostContext, paymentId: string): Promise<void> {
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

/** Card charges that failed over without their provider's word, since `now` less the watch. */
const failedOverWatched = (now: Date) =>
  and(
    inAttemptStates(FAILED_OVER),
    eq(paymentAttempts.failureReason, ASKING_WINDOW_REASON),
    isNull(paymentAttempts.refund),
    gt(paymentAttempts.createdAt, new Date(now.getTime() - CALLED_OFF_WATCH_MS)),
  );

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

/** Pushed terminals' attempts called off unpaid since `now` less CALLED_OFF_WATCH_MS, owing nothing. */
const calledOffWatched = (now: Date) =>
  and(
    eq(paymentAttempts.method, 'chip_card'),
    eq(paymentAttempts.status, 'failed'),
    eq(paymentAttempts.failureReason, CALLED_OFF_REASON),
    isNull(paymentAttempts.refund),
    gt(paymentAttempts.createdAt, new Date(now.getTime() - CALLED_OFF_WATCH_MS)),
  );

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

/**
 * A provider's notice that a card charge or a debit made with an attempt's reference ended (or
 * waits for its payer): booked by the requery's path (settleProviderAnswer). Only an attempt
 * still waiting on it is moved: one at the provider ('charging'), or one waiting for its payer's
 * OTP or 3-D Secure, taken from that step in one statement when the notice ends it. Anything else
 * (settled already, by its own answer, a requery or the same notice before) changes nothing:
 * answers null.
 */
export async function settleNoticedCharge(
  ctx: TLostContext,
  attempt: TAttemptRow,
  outcome: TRequeryOutcome,
): Promise<TLostAnswer | null> {
  const state = namedStateOf(attempt);
  let charging: TAttemptRow | null = isIn(state, AT_THE_PROVIDER) ? attempt : null;
  // A charge that failed over, its money taken after all: booked once, as a requery would.
  if (outcome.kind === 'taken' && isIn(state, FAILED_OVER)) charging = attempt;
  if (outcome.kind === 'pending') {
    return charging ? settleProviderAnswer(ctx, charging, outcome) : null;
  }
  if (mayMove(state, 'takeAnswer')) {
    charging = await moveAttempt(ctx.db, attempt.id, 'takeAnswer', {}, ctx.clock.now());
  }
  if (!charging) {
    // Money taken for an attempt that had already ended: a charge that reached the provider
    // after a requery found nothing of it and the payer was told nothing was charged. It is booked
    // in and straight back out, and owed back to the payer (completeAttempt), as money reaching a
    // paid payment is; the reconciler gives it back.
    const lateMoney =
      outcome.kind === 'taken' &&
      !outcome.givenBack &&
      state !== 'completed' &&
      attempt.refund === null &&
      !mayMove(state, 'complete');
    if (!lateMoney) return null;
    charging = attempt;
  }
  if (outcome.kind === 'not_taken') return settleProviderAnswer(ctx, charging, outcome);
  const booked = bookingOf(ctx, charging, outcome.providerReference);
  // A card the notice names no digits of, and the attempt kept none: the requery says it all.
  const answer = booked ? { ...outcome, book: booked } : await requery(ctx, charging);
  return settleProviderAnswer(ctx, charging, answer);
}

const isIn = (state: TAttemptState | null, states: readonly TAttemptState[]) =>
  state !== null && states.includes(state);

/** How to book a card charge the network took. */
function cardBooking(
  ctx: TLostContext,
  attempt: TAttemptRow,
  providerReference: string,
  card: TCardSummary,
): () => Promise<TCompletion> {
  // The payer's wish to save the card is lost with the answer: the network's token with it.
  return () => settleCardCharge(ctx, attempt, { providerReference, card, token: null });
}

/** How to book a debit the bank made. */
function debitBooking(
  ctx: TLostContext,
  attempt: TAttemptRow,
  providerReference: string,
): () => Promise<TCompletion> {
  return async () =>
    settleDebit(ctx, attempt, await debitedAccount(ctx, attempt), providerReference);
}

/** How to book a card charge or a debit the provider took, from the attempt's own record. */
function bookingOf(
  ctx: TLostContext,
  attempt: TAttemptRow,
  providerReference: string,
): (() => Promise<TCompletion>) | null {
  switch (attempt.method) {
    case 'card': {
      const { cardBrand: brand, cardFirst6: first6, cardLast4: last4 } = attempt;
      if (!brand || !first6 || !last4) return null;
      return cardBooking(ctx, attempt, providerReference, { brand, first6, last4 });
    }
    case 'account':
      return debitBooking(ctx, attempt, providerReference);
    case 'chip_card':
    case 'bank_transfer':
      return null;
  }
}

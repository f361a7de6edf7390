import { STEP_TEXT_AWAITING_3DS } from '../../../../domain/constants';
import { isPushPastExpiry, PaymentRequestNotWithdrawn } from '../../../../domain/pushed-terminal';
import type { TErrorCode } from '../../../../domain/errors';
import type { TAppContext } from '../../../context';
import {
  WITHDRAWN_REASON,
  type TCardSummary,
  type TPaymentRequestOutcome,
  type TPushTerminalPort,
  type TRequeryOutcome,
} from '../../../providers/payments';
import { AppError } from '../../../app-error';
import {
  ASKING_WINDOW_REASON,
  AT_THE_PROVIDER,
  CALLED_OFF_REASON,
  FAILED_OVER,
  failsOverOn,
  mayMove,
  namedStateOf,
  type TAttemptState,
} from '../../../../domain/payment-attempts';
import { paidThePayment, type TCompletion } from './completion';
import { requeryAttemptDebit } from '../mandate-debits';
import {
  cardStepEvent,
  failAttempt,
  moveAttempt,
  moveAttemptTelling,
  type TAttemptRow,
} from './moves';
import { nextCardProvider } from '../card-failover';
import { debitedAccount, settleCardCharge, settleChipPurchase, settleDebit } from './settlements';

/*
 * What a provider says of an attempt's charge, and what it means (docs/payments.md
 * "Reconciliation"): the one place that decides whether a card charge, a debit or a chip purchase
 * took money, whoever brought the answer. The reconciler's requery asks for it (reconcile.ts); a
 * provider's notice tells it (services/payments/provider-notices.ts, settleNoticedCharge); both
 * end in settleProviderAnswer:
 *
 * - taken: booked as the charge's own answer would have been (settlements.ts), the payment
 *   executed once, or the money owed back when the payment was paid otherwise;
 * - not taken: the attempt fails with the words its payer reads, or, an unanswered card charge
 *   past the requery gate, is offered to the next card provider (failOver);
 * - pending: left, or put back at the step it waits at for its payer (an OTP, a 3-D Secure check).
 *
 * Every move is atomic (completeAttempt, failAttempt, moveAttempt), so the same answer twice books
 * nothing twice.
 */

export type TLostContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/** What a lost attempt ends with when the provider never took its money. */
const NOT_TAKEN: Record<Exclude<TAttemptRow['method'], 'bank_transfer'>, TErrorCode> = {
  // The payer reads that nothing was charged (a card taken and given back says charged: true).
  card: 'CARD_BANK_NO_ANSWER',
  account: 'DIRECT_DEBIT_FAILED',
  chip_card: 'TERMINAL_TIMEOUT',
};

export type TLostAnswer = 'booked' | 'paid_otherwise' | 'failed' | 'failed_over' | 'pending';

/**
 * What the provider says of an attempt's reference, with how to book it if it was taken (and, a
 * pushed terminal's, the transaction its request produced).
 */
export type TBookableOutcome = TRequeryOutcome<{
  book(): Promise<TCompletion>;
  transaction?: string;
}>;

/** The provider's answer about an attempt's reference, with how to book it if it was taken. */
export async function requery(ctx: TLostContext, attempt: TAttemptRow): Promise<TBookableOutcome> {
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
export const askedOf = (attempt: TAttemptRow) => ({
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

/**
 * The requery gate opens: an unanswered card charge becomes 'retry_elsewhere', with the words the
 * payer reads (nothing charged, or, without the provider's word, that the payment failed), when
 * another card provider can take the next try. false when none can, or it was settled meanwhile.
 */
export async function failOver(ctx: TLostContext, attempt: TAttemptRow, reason: string) {
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
export async function settleProviderAnswer(
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
      // A push called off unpaid ends in a state of its own: paid there later, it may still pay.
      const edge = answer.reason === CALLED_OFF_REASON ? 'callOff' : 'fail';
      await failAttempt(ctx, attempt, new AppError(refused), answer.reason, now, edge, found);
      return 'failed';
    }
    case 'pending':
      // Waiting for its payer: back to that step, where the payer answers or starts again.
      if (answer.awaiting && answer.providerReference) {
        const { awaiting, providerReference } = answer;
        const stepText = awaiting === '3ds' ? STEP_TEXT_AWAITING_3DS : null;
        await moveAttemptTelling(
          ctx.db,
          attempt,
          ASK_EDGE[awaiting],
          { providerReference, stepText },
          now,
          (moved) => cardStepEvent(moved, { stepText }),
        );
      }
      return 'pending';
  }
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

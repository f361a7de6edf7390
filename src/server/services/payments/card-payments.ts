import { and, eq, lte, or, sql, type SQL } from 'drizzle-orm';
import { parseExpiryDate } from '../../../domain/card-expiry';
import { isWrongCardDetails } from '../../../domain/card-tries';
import { obfuscateCard } from '../../../domain/card-number';
import { STEP_TEXT_AWAITING_3DS } from '../../../domain/constants';
import { refusedCardMessage } from '../../../domain/card-refusal';
import { THREE_DS_CHALLENGE_MS, type TAttemptEdge } from '../../../domain/payment-attempts';
import type { TCardChargeResponse, TCardCompleteResponse } from '../../../domain/schemas/card';
import type { TEncryptedCard } from '../../../domain/schemas/card';
import type { TAppContext } from '../../context';
import { paymentAttempts } from '../../db/schema';
import type {
  TCardChargeOutcome,
  TCardFailureReason,
  TCardSummary,
  TNoticedCharge,
  TRequeryOutcome,
} from '../../providers/payments';
import type { TChallengeAnswer, TReadChallengeAnswer } from '../../sandbox/sandbox-challenges';
import { AppError } from '../../app-error';
import { decryptCard } from './card-encryption-keys';
import { cardKeyOf, claimCardTry, releaseCardTry, type TCardChargeLimits } from './card-tries';
import { chargeOwnedBy, newChargeToken } from './charge-owners';
import { paidWith, recordAnswer, runAttempt, type TAttemptAnswer } from './attempts/runner';
import { newCardSteps } from './card-openings';
import {
  attemptMove,
  callProvider,
  cardStepEvent,
  moveAttemptTelling,
  failAttempt,
  moveAttempt,
  ofPayments,
  paymentIdOf,
  type TAttemptRow,
} from './attempts/moves';
import { attemptViewOf } from './attempt-view';
import { loadCardPayable, loadPayable, type TPaymentAccess } from './payment-records';
import { savesCard, settleCardCharge } from './attempts/settlements';
import { usable } from '../../providers/off';
import { markUnanswered, routeCardCharge } from './card-failover';

/*
 * Paying an immediate payment by card (spec §2 card screens, §7 card calls; docs/payments.md).
 * The card is decrypted in memory, handed to the provider once, and forgotten: only its brand,
 * first 6 and last 4 are kept. No database transaction stays open while the card network thinks:
 * the attempt is recorded as 'charging' first (one per payment at a time), the network is called,
 * and its answer is recorded in a transaction of its own with the ledger and the stream's event
 * (attempts/settlements.ts). A charge whose answer was lost stays 'charging' (or, the network
 * having not answered, 'unanswered') until the network is asked about its reference
 * (attempts/reconcile.ts): the payment is not charged again before. A new charge goes to the
 * provider the health routing gives, and one after an unanswered charge that took nothing to the
 * next provider (card-failover.ts).
 */

type TCardContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

export { STALE_CHARGE_MS } from './attempts/moves';

/** The catalogue's codes for a refused card and for a network that did not answer, by purpose. */
const FAILURE_CODES = {
  payment: { refused: 'CARD_PAYMENT_FAILED', fault: 'CARD_PAYMENT_PROCESSING_FAILED' },
  linking: { refused: 'CARD_LINKING_FAILED', fault: 'CARD_LINK_FAILED' },
} as const;

/**
 * What the payer reads when the network refuses a payment's or a link's charge: the catalogue's
 * words, with the reason ('Card payment failed: Insufficient funds').
 */
export function cardFailureOf(
  reason: TCardFailureReason,
  purpose: keyof typeof FAILURE_CODES = 'payment',
): AppError {
  const codes = FAILURE_CODES[purpose];
  switch (reason) {
    case 'insufficient_funds':
    case 'incorrect_pin':
    case 'invalid_card':
    case 'declined':
      return new AppError(codes.refused, refusedCardMessage(codes.refused, reason));
    case 'incorrect_otp':
      return new AppError('OTP_VERIFICATION_FAILED');
    case 'three_ds_declined':
      return new AppError('THREE_DS_FAILED');
    case 'timeout':
    case 'expired':
      // The network gave up on the issuer: nothing was taken, and the payer is told so.
      return purpose === 'payment'
        ? new AppError('CARD_BANK_NO_ANSWER')
        : new AppError(codes.fault);
  }
}

/** A checked card's expiry ('MM/YY', as the network takes it) as kept with a card to save. */
export function expiryColumnsOf(expiry: string) {
  const { month, year } = parseExpiryDate(expiry);
  if (month === null || year === null) throw new Error('A checked card has an unreadable expiry');
  return { cardExpiryMonth: month, cardExpiryYear: year };
}

/** A card charge recorded: completed (a payment paid, a card linked), or waiting for the payer. */
export type TCardChargeResult =
  | { kind: 'completed'; response: TCardChargeResponse; complete: TCardCompleteResponse }
  | { kind: 'waiting'; response: TCardChargeResponse }
  /** The network has not answered within CARD_ANSWER_WAIT_MS: the charge goes on. */
  | { kind: 'charging'; response: TCardChargeResponse };

/** What the payer reads while the card network has not answered yet. */
export const STILL_CHARGING_MESSAGE = 'Your bank is still answering. Please wait.';

/** A charge's answer that waits for the payer: the step the issuer asks them for. */
type TWaitingOutcome = Extract<
  TCardChargeOutcome,
  { kind: 'pin_required' | 'otp_required' | 'three_ds_required' }
>;

/**
 * The answer to a charge waiting for the payer: the card's PIN, the OTP screen, or the 3-D
 * Secure challenge, as its issuer asked.
 */
export function waitingResult(
  outcome: TWaitingOutcome,
  charge: { paymentId: string; amount: number; transactionReference: string },
): TCardChargeResult {
  const base = { success: true, ...charge };
  switch (outcome.kind) {
    case 'pin_required':
      return { kind: 'waiting', response: { ...base, requiresPIN: true } };
    case 'otp_required':
      return {
        kind: 'waiting',
        response: { ...base, displayMessage: outcome.displayMessage, requiresOTP: true },
      };
    case 'three_ds_required':
      return {
        kind: 'waiting',
        response: {
          ...base,
          displayMessage: outcome.displayMessage,
          requires3DS: true,
          challengeUrl: outcome.challengeUrl,
        },
      };
  }
}

/** The move and the stage of a charge that waits for its payer, by what the issuer asked. */
const WAITING_STEP = {
  pin_required: { edge: 'askPin', stage: 'awaiting_pin' },
  otp_required: { edge: 'askOtp', stage: 'awaiting_otp' },
  three_ds_required: { edge: 'ask3ds', stage: 'awaiting_3ds' },
} as const satisfies Record<TWaitingOutcome['kind'], { edge: TAttemptEdge; stage: string }>;

/**
 * What the network answered for a charging attempt, as the attempt runner records it
 * (attempts/runner.ts): completed (with the ledger), waiting for the card's PIN, an OTP or a 3-D
 * Secure check, or failed (thrown as the catalogue's error). A charge that succeeded on a payment someone had paid
 * meanwhile is refunded at once.
 */
function cardAnswer(
  ctx: TCardContext,
  attempt: TAttemptRow,
  outcome: TCardChargeOutcome,
  narration: string,
): TAttemptAnswer<TCardChargeResult> {
  const { db, clock } = ctx;
  const summary = outcome.card;
  const cardColumns = summary
    ? { cardBrand: summary.brand, cardFirst6: summary.first6, cardLast4: summary.last4 }
    : {};
  switch (outcome.kind) {
    case 'failed':
      return {
        kind: 'fail',
        failure: cardFailureOf(outcome.reason),
        reason: outcome.reason,
        change: { providerReference: outcome.providerReference, ...cardColumns },
      };
    case 'pin_required':
    case 'otp_required':
    case 'three_ds_required':
      return {
        kind: 'wait',
        record: async () => {
          const now = clock.now();
          const { edge, stage } = WAITING_STEP[outcome.kind];
          const challenge =
            outcome.kind === 'three_ds_required'
              ? {
                  challengeUrl: outcome.challengeUrl,
                  challengeExpiresAt: new Date(now.getTime() + THREE_DS_CHALLENGE_MS),
                }
              : {};
          const stepText = stage === 'awaiting_3ds' ? STEP_TEXT_AWAITING_3DS : null;
          await moveAttemptTelling(
            db,
            attempt,
            edge,
            {
              providerReference: outcome.providerReference,
              stepText,
              displayMessage: 'displayMessage' in outcome ? outcome.displayMessage : null,
              ...challenge,
              ...cardColumns,
            },
            now,
            (moved) =>
              cardStepEvent(moved, {
                stepText,
                ...(outcome.kind === 'otp_required'
                  ? { otpDisplayMessage: outcome.displayMessage }
                  : {}),
              }),
          );
          return waitingResult(outcome, {
            paymentId: paymentIdOf(attempt),
            amount: attempt.amount,
            transactionReference: attempt.id,
          });
        },
      };
    case 'succeeded': {
      const obfuscatedCard = obfuscateCard(outcome.card);
      return paidWith(
        () => settleCardCharge(ctx, attempt, outcome),
        () => ({
          kind: 'completed',
          response: {
            success: true,
            paymentId: paymentIdOf(attempt),
            amount: attempt.amount,
            transactionReference: attempt.id,
            message: 'Payment successful',
          },
          complete: {
            success: true,
            message: 'Payment successful',
            obfuscatedCard,
            payerCard: { obfuscatedCard, brand: outcome.card.brand },
            paymentType: 'immediate',
            shouldPromptCardLinking: attempt.saveCard,
            amount: attempt.amount,
            narration,
          },
        }),
      );
    }
  }
}

/** Records what the network answered for a charging attempt (cardAnswer). */
function recordOutcome(
  ctx: TCardContext,
  attempt: TAttemptRow,
  outcome: TCardChargeOutcome,
  narration: string,
): Promise<TCardChargeResult> {
  return recordAnswer(ctx, attempt, cardAnswer(ctx, attempt, outcome, narration));
}

/**
 * A charge the bank is still answering, or did not answer at all (its charge, or the PIN it asked
 * for): the payer hears the same 'charging', with the token that follows the charge to the page
 * that has none yet, and the charge's end comes on the stream. Never an error: the card may have
 * been charged, so nothing is offered again before its provider is asked (card-failover.ts).
 */
function chargingResult(attempt: TAttemptRow, chargeToken: string | null): TCardChargeResult {
  return {
    kind: 'charging',
    response: {
      success: true,
      status: 'charging',
      paymentId: paymentIdOf(attempt),
      amount: attempt.amount,
      transactionReference: attempt.id,
      message: STILL_CHARGING_MESSAGE,
      ...(chargeToken ? { chargeToken } : {}),
    },
  };
}

/** POST /api/payments/card (and /public), payment variant: charge a new card. */
export async function payWithCard(
  ctx: TCardContext,
  request: {
    paymentId: string;
    access: TPaymentAccess;
    cardDetails: TEncryptedCard;
    saveCard: boolean;
    limits: TCardChargeLimits;
  },
): Promise<TCardChargeResult> {
  const { db, clock, providers } = ctx;
  const payable = await loadCardPayable(db, request.paymentId, request.access, clock.now());
  // The PIN, where the page sent one with the card (an API client may); the page sends none, and
  // the issuer asks for it only if the card needs one (requiresPIN, submitCardPin).
  const card = await decryptCard(db, clock, request.cardDetails, 'optional');
  const cardKey = await cardKeyOf(db, card.number);
  await request.limits.refuseBlockedCard(cardKey);
  // Without sign-in, the charge belongs to this page: it alone gets the token that answers it.
  const owner = 'payerId' in request.access ? null : newChargeToken();
  const payerId = 'payerId' in request.access ? request.access.payerId : null;
  const ownerTokenHash = owner?.hash ?? null;
  const saving = savesCard({ payerId, ownerTokenHash, saveCard: request.saveCard });
  const route = await routeCardCharge(ctx, payable);
  // No card provider runs: the capability's off port refuses the charge in its own words.
  const network = route.provider
    ? providers.registry.portOf(route.provider, 'cards')
    : usable(providers.payments.cards);
  const charging = (attempt: TAttemptRow) => chargingResult(attempt, owner?.token ?? null);
  const lost: { attempt: TAttemptRow | null } = { attempt: null };
  const result = await runAttempt<TCardChargeOutcome, TCardChargeResult>(ctx, {
    open: {
      payable,
      fields: {
        method: 'card',
        provider: network.provider,
        payerId,
        ownerTokenHash,
        saveCard: request.saveCard,
        ...(saving ? expiryColumnsOf(card.expiry) : {}),
      },
      before: (tx, open, now) =>
        newCardSteps(tx, open, now, {
          paymentId: payable.payment.id,
          cardKey,
          access: request.access,
          route,
        }),
    },
    call: (attempt) =>
      network
        .chargeCard({
          reference: attempt.id,
          amount: attempt.amount,
          narration: payable.payment.narration,
          card: { number: card.number, expiry: card.expiry, cvv: card.cvv, pin: card.pin },
        })
        .catch(async (error: unknown) => {
          // No answer: asked about by its reference before anything charges the payment again.
          await markUnanswered(ctx, attempt);
          await releaseCardTry(db, payable.payment.id, cardKey);
          lost.attempt = attempt;
          throw error;
        }),
    noAnswer: 'CARD_PAYMENT_PROCESSING_FAILED',
    answer: async (attempt, outcome) => {
      if (!keepsTry(outcome)) await releaseCardTry(db, payable.payment.id, cardKey);
      return cardAnswer(ctx, attempt, outcome, payable.payment.narration);
    },
    // The card's refusals across payments are counted once the answer is recorded ('timeout' is
    // a network that did not answer, not a refusal).
    afterRecord: async (outcome) => {
      if (outcome.kind === 'failed' && outcome.reason !== 'timeout') {
        await request.limits.recordDecline(cardKey);
      }
    },
    // The bank is still answering: the payer hears so now, and the charge's end comes on the
    // stream (recorded when the answer arrives, or by the reconciler if this process stops).
    slow: { waitMs: ctx.config.cardAnswerWaitMs, result: charging },
  }).catch((error: unknown) => {
    // No answer: the charge is asked about by its reference (card-failover.ts) and the payer,
    // signed in or not, waits for what its provider says, as while the bank is slow.
    if (lost.attempt) return charging(lost.attempt);
    throw error;
  });
  if (result.kind === 'charging') return result;
  // Its token answers the charge's OTP, makes its page the payment's reader (payment-reads.ts),
  // and, once paid, saves its card (saveCardOfPayment): given whatever the answer, one at once too.
  return owner ? { ...result, response: { ...result.response, chargeToken: owner.token } } : result;
}

/**
 * Whether a card's try on the payment stays counted after the network's answer: a wrong PIN or
 * card detail keeps it; so does a charge that succeeded, since nothing tries a card on a paid
 * payment again (giving it back would be a statement for nothing). Any other answer (asking for
 * the PIN included) gives it back.
 */
const keepsTry = (outcome: TCardChargeOutcome) =>
  outcome.kind === 'succeeded' || (outcome.kind === 'failed' && isWrongCardDetails(outcome.reason));

/**
 * POST /api/payments/card/pin: the PIN a waiting charge asked for (requiresPIN), from the caller
 * who started it, with the card it is for, which must be the card charged (its first 6 and last
 * 4); none waiting is NO_PIN_CHARGE. A PIN is a try of the card on the payment, as a charge is:
 * claimed before the network hears it and kept when the PIN was wrong, and a refusal counts
 * against the card across payments. Answers as the card call does: paid, the next step asked
 * (an OTP, 3-D Secure), 'charging' when the network did not answer, or the refusal thrown in the
 * catalogue's words.
 */
export async function submitCardPin(
  ctx: TCardContext,
  request: {
    paymentId: string;
    access: TPaymentAccess;
    chargeToken?: string;
    cardDetails: TEncryptedCard;
    limits: TCardChargeLimits;
  },
): Promise<TCardChargeResult> {
  const { db, clock } = ctx;
  const payable = await loadPayable(db, request.paymentId, request.access, clock.now());
  const card = await decryptCard(db, clock, request.cardDetails, 'required');
  const pin = card.pin;
  if (pin === null) throw new Error('A required PIN was not decrypted');
  const cardKey = await cardKeyOf(db, card.number);
  await request.limits.refuseBlockedCard(cardKey);
  const [waiting] = await db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.paymentId, payable.payment.id),
        eq(paymentAttempts.stage, 'awaiting_pin'),
        chargeOwnedBy(request.access, request.chargeToken),
        eq(paymentAttempts.cardFirst6, card.number.slice(0, 6)),
        eq(paymentAttempts.cardLast4, card.number.slice(-4)),
      ),
    )
    .limit(1);
  // Another caller's charge, or another card's, reads as none: neither touched nor told of.
  if (!waiting?.providerReference) throw new AppError('NO_PIN_CHARGE');
  const { providerReference } = waiting;
  await claimCardTry(db, payable.payment.id, cardKey, clock.now());
  const taken = await moveAttempt(
    db,
    waiting.id,
    'takeAnswer',
    {},
    clock.now(),
    eq(paymentAttempts.stage, 'awaiting_pin'),
  );
  if (!taken) {
    // Another request took it first: it is being answered.
    await releaseCardTry(db, payable.payment.id, cardKey);
    throw new AppError('PAYMENT_IN_PROGRESS');
  }
  let outcome: TCardChargeOutcome;
  try {
    outcome = await ctx.providers.registry
      .portOf(waiting.provider, 'cards')
      .submitCardPin({ providerReference, pin, card });
  } catch {
    // No answer: the PIN may have charged the card. The payer waits for what its provider says
    // when asked by the charge's reference, as after a charge with no answer.
    await markUnanswered(ctx, taken);
    await releaseCardTry(db, payable.payment.id, cardKey);
    return chargingResult(taken, null);
  }
  if (!keepsTry(outcome)) await releaseCardTry(db, payable.payment.id, cardKey);
  try {
    return await recordOutcome(ctx, taken, outcome, payable.payment.narration);
  } finally {
    if (outcome.kind === 'failed' && outcome.reason !== 'timeout') {
      await request.limits.recordDecline(cardKey);
    }
  }
}

/**
 * The caller's charge of a payment waiting for its OTP, taken for this request (now 'charging'),
 * in one statement: the charge found waiting, and moved where it still is. Another caller's charge
 * reads as none: it is neither touched nor told of (404 NO_OTP_DATA); one found waiting but taken
 * by another request first is being answered (409 PAYMENT_IN_PROGRESS).
 */
async function takeOtpAttempt(
  ctx: TCardContext,
  where: { paymentId: string; owner: SQL },
): Promise<TAttemptRow> {
  const { db, clock } = ctx;
  const stage = eq(paymentAttempts.stage, 'awaiting_otp');
  const waiting = db.$with('waiting').as(
    db
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.paymentId, where.paymentId), where.owner, stage))
      .limit(1),
  );
  const taken = db
    .$with('taken')
    .as(
      attemptMove(
        db,
        and(sql`${paymentAttempts.id} in (select id from ${waiting})`, stage),
        'takeAnswer',
        {},
        clock.now(),
      ).returning(),
    );
  const [row] = await db
    .with(waiting, taken)
    .select({
      found: sql<boolean>`exists (select 1 from ${waiting})`,
      taken: taken._.selectedFields,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(taken, sql`true`);
  if (!row?.found) throw new AppError('NO_OTP_DATA');
  // Found waiting, but moved by another request before this one's move: no row was taken.
  if (!row.taken?.id) throw new AppError('PAYMENT_IN_PROGRESS');
  return row.taken;
}

/**
 * POST /api/payments/card/complete and /api/consent/otp: the OTP of a waiting charge, from the
 * caller who started it (the signed-in payer, or the page holding the charge's token). Answers
 * the payment completed, 'charging' when the network did not answer, or the refusal thrown.
 */
export async function submitCardOtp(
  ctx: TCardContext,
  request: { paymentId: string; otp: string; access: TPaymentAccess; chargeToken?: string },
): Promise<TCardCompleteResponse> {
  const payable = await loadPayable(ctx.db, request.paymentId, request.access, ctx.clock.now());
  const attempt = await takeOtpAttempt(ctx, {
    paymentId: payable.payment.id,
    owner: chargeOwnedBy(request.access, request.chargeToken),
  });
  const providerReference = attempt.providerReference;
  if (!providerReference)
    throw new Error(`Attempt ${attempt.id} waits for an OTP without a reference`);
  let outcome: TCardChargeOutcome;
  try {
    outcome = await ctx.providers.registry
      .portOf(attempt.provider, 'cards')
      .submitCardOtp({ providerReference, otp: request.otp });
  } catch {
    // No answer: the OTP may have charged the card. The payer waits for what its provider says
    // when asked by the charge's reference, as after a PIN or a charge with no answer.
    await markUnanswered(ctx, attempt);
    const { status, message, transactionReference } = chargingResult(attempt, null).response;
    return { success: true, status, message, transactionReference };
  }
  const result = await recordOutcome(ctx, attempt, outcome, payable.payment.narration);
  if (result.kind !== 'completed') throw new AppError('OTP_SUBMIT_FAILED');
  return result.complete;
}

/** A payment's charge waiting for its 3-D Secure check under the network's `providerReference`. */
async function threeDsAttemptOf(
  ctx: Pick<TCardContext, 'db'>,
  providerReference: string,
): Promise<TAttemptRow | null> {
  const [waiting] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        ofPayments,
        eq(paymentAttempts.providerReference, providerReference),
        eq(paymentAttempts.stage, 'awaiting_3ds'),
      ),
    )
    .limit(1);
  return waiting ?? null;
}

/**
 * What the sandbox's 3-D Secure page says once the network's notice of the answer was sent: the
 * attempt as it stands, completed or failed (with its failure's words). One still waiting at its
 * check (the notice was not answered 2xx) is left for the reconciler's 3-D Secure sweep, which
 * asks the network about it after THREE_DS_ASK_AFTER_MS: PAYMENT_IN_PROGRESS meanwhile.
 */
async function threeDsAnswerOf(
  ctx: Pick<TCardContext, 'db'>,
  attemptId: string,
): Promise<TChallengeAnswer> {
  const [attempt] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, attemptId));
  if (!attempt) throw new Error(`Attempt ${attemptId} vanished`);
  const view = attemptViewOf(attempt);
  if (view.state === 'completed') {
    return { status: 'completed', message: 'Approved: the payment is complete.' };
  }
  if (view.state === 'failed' && view.message !== null) {
    return { status: 'failed', message: view.message };
  }
  throw new AppError('PAYMENT_IN_PROGRESS');
}

/**
 * A payment's side of the sandbox's 3-D Secure page (TWaitingChallenges, wired in app.ts): its
 * charge waiting at the check under `providerReference`, as how to read what the page says of it
 * once answered; null for none.
 */
export async function waitingPaymentChallenge(
  ctx: Pick<TCardContext, 'db'>,
  providerReference: string,
): Promise<TReadChallengeAnswer | null> {
  const attempt = await threeDsAttemptOf(ctx, providerReference);
  return attempt ? () => threeDsAnswerOf(ctx, attempt.id) : null;
}

/**
 * A provider's notice that a charge waiting for its 3-D Secure check ended: settled as the
 * reconciler's sweep settles the network's answer (endThreeDsChallenge), so a check ends the same
 * however we learn of it: declined, THREE_DS_FAILED; taken, the payment completes, keeping the
 * token the notice names for a card its payer asked to save. null when the notice says it still
 * waits, or another request took the attempt first.
 */
export async function settleNoticedThreeDs(
  ctx: TCardContext,
  attempt: TAttemptRow,
  outcome: TNoticedCharge,
): Promise<TAttemptRow | null> {
  switch (outcome.kind) {
    case 'pending':
      return null;
    case 'not_taken':
      return endThreeDsChallenge(ctx, attempt, 'declined', outcome);
    case 'taken': {
      if (outcome.amount !== attempt.amount) {
        // Never booked as it stands (settleProviderAnswer refuses it the same way).
        throw new Error(
          `Attempt ${attempt.id}: the provider took ${outcome.amount} kobo, not ${attempt.amount}`,
        );
      }
      const { cardBrand: brand, cardFirst6: first6, cardLast4: last4 } = attempt;
      const card = outcome.card ?? (brand && first6 && last4 ? { brand, first6, last4 } : null);
      // A card neither the notice nor the attempt names: the network's record says it.
      return endThreeDsChallenge(ctx, attempt, 'declined', card ? { ...outcome, card } : undefined);
    }
  }
}

/**
 * Ends a charge waiting for its 3-D Secure check (its time passed, or its payer cancelled it).
 * The network is asked first, so a challenge answered meanwhile is booked, not lost: taken, the
 * payment completes; otherwise the attempt fails with THREE_DS_FAILED (and says whether anything
 * was charged). null when another request had taken the attempt first; a network that cannot be
 * asked leaves it 'charging', for the reconciler.
 */
export async function endThreeDsChallenge(
  ctx: TCardContext,
  waiting: TAttemptRow,
  reason: 'challenge_expired' | 'cancelled' | 'declined',
  /**
   * What the provider said of the charge just now, when the caller asked already or was told (a
   * notice, which may name the token that charges the card again).
   */
  known?: TRequeryOutcome<{ card: TCardSummary; token?: string | null }>,
): Promise<TAttemptRow | null> {
  const { db, clock } = ctx;
  const taken = await moveAttempt(
    db,
    waiting.id,
    'takeAnswer',
    {},
    clock.now(),
    eq(paymentAttempts.stage, 'awaiting_3ds'),
  );
  if (!taken) return null;
  // A network that does not answer the question leaves the attempt 'charging' (502): the
  // reconciler asks again about its reference; nothing is ended or charged on a guess.
  const answer: NonNullable<typeof known> =
    known ??
    (await callProvider('CARD_PAYMENT_PROCESSING_FAILED', () =>
      ctx.providers.registry.portOf(taken.provider, 'cards').requeryCardCharge(taken.id),
    ));
  if (answer.kind === 'taken' && !answer.givenBack) {
    await settleCardCharge(ctx, taken, { ...answer, token: answer.token ?? null });
  } else {
    // A charge the provider ended says why (its decline); one still waiting ends for our reason.
    const why =
      answer.kind === 'taken' ? 'given_back' : answer.kind === 'not_taken' ? answer.reason : reason;
    await failAttempt(ctx, taken, new AppError('THREE_DS_FAILED'), why, clock.now());
  }
  const [ended] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, taken.id));
  return ended ?? null;
}

/**
 * How long a 3-D Secure challenge waits before each reconciler run asks the provider about it. A
 * charge at this step is not on its way (it waits for its payer), so the question is a plain read
 * at any age; a few seconds leave the payer who is still on the issuer's page alone.
 */
export const THREE_DS_ASK_AFTER_MS = 15_000;

/**
 * The reconciler's sweep of 3-D Secure challenges. One left unanswered past its
 * THREE_DS_CHALLENGE_MS ends (endThreeDsChallenge), so the payer's page moves on. One waiting
 * longer than THREE_DS_ASK_AFTER_MS is asked about first: a provider may tell of an approval by a
 * notice but of a decline by nothing (Paystack), and the payer who declined is not left waiting
 * for the challenge's whole life. Answers how many ended.
 */
export async function expireThreeDsChallenges(ctx: TCardContext): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        // A card link's check is swept by its own step (linking/link-challenges.ts).
        ofPayments,
        eq(paymentAttempts.stage, 'awaiting_3ds'),
        or(
          lte(paymentAttempts.challengeExpiresAt, now),
          lte(paymentAttempts.updatedAt, new Date(now.getTime() - THREE_DS_ASK_AFTER_MS)),
        ),
      ),
    );
  let ended = 0;
  for (const attempt of due) {
    const expired = attempt.challengeExpiresAt !== null && attempt.challengeExpiresAt <= now;
    // Asked once: its answer ends the challenge, or leaves it to the next run.
    const known = expired ? undefined : await askedAtProvider(ctx, attempt);
    if (!expired && (!known || known.kind === 'pending')) continue;
    const why = expired ? 'challenge_expired' : 'declined';
    if (await endThreeDsChallenge(ctx, attempt, why, known ?? undefined)) {
      ended += 1;
    }
  }
  return ended;
}

/** What the provider says of a charge waiting for its 3-D Secure check; null when it did not answer. */
async function askedAtProvider(ctx: TCardContext, attempt: TAttemptRow) {
  try {
    return await ctx.providers.registry
      .portOf(attempt.provider, 'cards')
      .requeryCardCharge(attempt.id);
  } catch {
    // Not answered now: asked again at the next run.
    return null;
  }
}

/**
 * POST /api/payments/{paymentId}/attempts/current/cancel: the payer gives up the 3-D Secure check
 * of their own charge to choose another way (the page's cancel link). Only who may answer the
 * charge may cancel it; none waiting reads NO_THREE_DS_CHALLENGE (404). Answers the attempt as it
 * ended: failed, or completed when the check was answered meanwhile, or still charging when the
 * network did not say.
 */
export async function cancelThreeDsChallenge(
  ctx: TCardContext,
  request: { paymentId: string; access: TPaymentAccess; chargeToken?: string },
): Promise<TAttemptRow> {
  const payable = await loadPayable(ctx.db, request.paymentId, request.access, ctx.clock.now());
  const [waiting] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.paymentId, payable.payment.id),
        eq(paymentAttempts.stage, 'awaiting_3ds'),
        chargeOwnedBy(request.access, request.chargeToken),
      ),
    )
    .limit(1);
  if (!waiting) throw new AppError('NO_THREE_DS_CHALLENGE');
  const ended = await endThreeDsChallenge(ctx, waiting, 'cancelled').catch(
    async (error: unknown) => {
      // Its network did not answer whether the check was answered meanwhile: the charge stays
      // 'charging' for the reconciler, and its payer follows it, never told of an error.
      if (!(error instanceof AppError && error.code === 'CARD_PAYMENT_PROCESSING_FAILED')) {
        throw error;
      }
      const [charging] = await ctx.db
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.id, waiting.id));
      return charging ?? null;
    },
  );
  // Taken by another request at this moment (the payer's answer): it is being answered.
  if (!ended) throw new AppError('PAYMENT_IN_PROGRESS');
  return ended;
}

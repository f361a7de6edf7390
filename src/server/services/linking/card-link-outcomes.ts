// The network's answer to a card link's test charge, recorded: the card checked to draw on the
// account, the charge refunded and the card saved to the account with the link made active, or
// the link failed; the call to the network that asks for it, and a waiting link taken for its
// answer once.
import { and, eq, gt } from 'drizzle-orm';
import {
  ACCOUNT_LINKED_MESSAGE,
  CARD_LINKING_PROGRESS_TEXT,
  CARD_LINKING_SUCCESS_TEXT,
  CARD_NOT_ON_ACCOUNT_TEXT,
} from '../../../domain/constants';
import { ERROR_CATALOGUE, type TErrorCode } from '../../../domain/errors';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts } from '../../db/schema';
import type { TCardChargeOutcome, TCardSummary } from '../../providers/payments';
import { activateLink } from './link-lifecycle';
import {
  linkChargesIn,
  linkStillOpen,
  moveLinkCharge,
  whoseLink,
  type TLinkCharge,
} from './link-test-attempts';
import { obfuscateCard } from '../../../domain/card-number';
import { AppError } from '../../app-error';
import { cardFailureOf, type TCardChargeResult, waitingResult } from '../payments/card-payments';
import { usable } from '../../providers/off';
import { recordAnswer, type TAttemptAnswer, type TAttemptOwner } from '../payments/attempts/runner';
import {
  type TCardLinkContext,
  TEST_CHARGE_NARRATION,
  chargeCardsOf,
  emitCardLinking,
  endLink,
  payerOf,
  recordNotTaken,
  recordTaken,
} from './card-link-charges';

export type TSavedCard = TCardSummary & { token: string; expiryMonth: number; expiryYear: number };

export async function saveCardToAccount(
  tx: TDb,
  accountId: string,
  card: TSavedCard,
  now: Date,
): Promise<void> {
  await tx
    .update(payerAccounts)
    .set({
      cardToken: card.token,
      cardBrand: card.brand,
      cardFirst6: card.first6,
      cardLast4: card.last4,
      cardExpiryMonth: card.expiryMonth,
      cardExpiryYear: card.expiryYear,
      cardSavedAt: now,
    })
    .where(eq(payerAccounts.id, accountId));
}

/**
 * A test charge that succeeded: refunded at the network, then in one transaction the charge
 * recorded taken and given back (recordTaken), the link made active, the card saved to the
 * account, and the stream told (progress when charged, progress when refunded and saving,
 * success). A link another link of the account beat to active, or that ended meanwhile, is
 * refused, its money back all the same; so is a charge another request settled first.
 */
async function recordSucceeded(
  ctx: TCardLinkContext,
  charge: TLinkCharge,
  outcome: Extract<TCardChargeOutcome, { kind: 'succeeded' }>,
): Promise<TCardChargeResult> {
  const { db, clock } = ctx;
  const { amount } = charge;
  try {
    await chargeCardsOf(ctx, charge).refundCard({
      providerReference: outcome.providerReference,
      amount,
      reference: charge.id,
    });
  } catch {
    // The card was charged and not refunded: the charge is recorded taken and owed back, which
    // the reconciler gives back (lost-link-charges.ts).
    const failure = new AppError('CARD_LINK_FAILED');
    await db.transaction(async (tx) => {
      const now = clock.now();
      await recordTaken(tx, charge, outcome, false, now);
      await endLink(tx, charge, failure, now);
    });
    throw failure;
  }
  const now = clock.now();
  const { token } = outcome;
  const { cardExpiryMonth, cardExpiryYear } = charge;
  const failure = await db.transaction(async (tx): Promise<AppError | null> => {
    const completed = await recordTaken(tx, charge, outcome, true, now);
    if (token === null || cardExpiryMonth === null || cardExpiryYear === null) {
      // An issuer that will not let the card be charged again cannot link it.
      const refused = new AppError('CARD_LINKING_FAILED');
      await endLink(tx, charge, refused, now);
      return refused;
    }
    // Only the request that completed the charge links the card.
    const activated = completed ? await activateLink(tx, charge.id, now) : null;
    if (!activated) {
      // Superseded by a newer attempt, or past its expiry while the network thought.
      const [row] = await tx
        .select({ expiresAt: accountLinks.expiresAt })
        .from(accountLinks)
        .where(eq(accountLinks.id, charge.id));
      const ended = new AppError(
        row && row.expiresAt.getTime() <= now.getTime()
          ? 'ACCOUNT_LINK_EXPIRED'
          : 'ACCOUNT_LINK_CANCELLED',
      );
      await endLink(tx, charge, ended, now);
      return ended;
    }
    const payerId = payerOf(charge);
    const progress = { paymentId: charge.id, message: CARD_LINKING_PROGRESS_TEXT };
    await emitCardLinking(tx, payerId, { event: 'card_linking_progress', ...progress });
    await saveCardToAccount(
      tx,
      activated.accountId,
      { ...outcome.card, token, expiryMonth: cardExpiryMonth, expiryYear: cardExpiryYear },
      now,
    );
    await emitCardLinking(tx, payerId, { event: 'card_linking_progress', ...progress });
    await emitCardLinking(tx, payerId, {
      event: 'card_linking_success',
      paymentId: charge.id,
      message: CARD_LINKING_SUCCESS_TEXT,
    });
    return null;
  });
  if (failure) throw failure;
  const obfuscatedCard = obfuscateCard(outcome.card);
  return {
    kind: 'completed',
    response: {
      success: true,
      paymentId: charge.id,
      amount,
      transactionReference: charge.id,
      message: ACCOUNT_LINKED_MESSAGE,
    },
    complete: {
      success: true,
      message: ACCOUNT_LINKED_MESSAGE,
      obfuscatedCard,
      payerCard: { obfuscatedCard, brand: outcome.card.brand },
      paymentType: 'card_linking',
      shouldPromptCardLinking: false,
      amount,
      narration: TEST_CHARGE_NARRATION,
    },
  };
}

/**
 * What the network answered for a link's test charge, as the attempt runner records it
 * (attempts/runner.ts): linked (recordSucceeded), waiting for an OTP or a 3-D Secure check, or
 * refused (linkFails: the charge failed and the link ended, thrown as the catalogue's error).
 */
export function linkAnswer(
  ctx: TCardLinkContext,
  charge: TLinkCharge,
  outcome: TCardChargeOutcome,
): TAttemptAnswer<TCardChargeResult> {
  switch (outcome.kind) {
    // A link's charge carries the PIN its form asked with the card: an issuer asking for it
    // again did not take it ('pin_required' ends the link as a wrong PIN).
    case 'failed':
    case 'pin_required': {
      const reason = outcome.kind === 'failed' ? outcome.reason : 'incorrect_pin';
      return { kind: 'fail', failure: cardFailureOf(reason, 'linking'), reason };
    }
    case 'otp_required':
    case 'three_ds_required':
      return {
        kind: 'wait',
        record: async () => {
          // Only a link still open waits for its payer: one superseded meanwhile is asked about
          // by the reconciler, its charge left at the network.
          const waiting = await moveLinkCharge(
            ctx.db,
            charge.id,
            outcome.kind === 'otp_required' ? 'askOtp' : 'ask3ds',
            { providerReference: outcome.providerReference },
            ctx.clock.now(),
            linkStillOpen,
          );
          if (!waiting) throw new AppError('ACCOUNT_LINK_CANCELLED');
          return waitingResult(outcome, {
            paymentId: charge.id,
            amount: charge.amount,
            transactionReference: charge.id,
          });
        },
      };
    case 'succeeded':
      return { kind: 'complete', record: () => recordSucceeded(ctx, charge, outcome) };
  }
}

/**
 * A link's test charge the network refused (or never took): failed, owing nothing back, and its
 * link ended with the failure, its stream told, in one transaction.
 */
export const linkFails =
  (ctx: TCardLinkContext): TAttemptOwner['fail'] =>
  (charge, { failure, reason }) =>
    ctx.db.transaction(async (tx) => {
      await recordNotTaken(tx, charge, failure, reason, ctx.clock.now());
      await endLink(tx, charge, failure, ctx.clock.now());
    });

/**
 * Records what the network answered for a link's charging test charge (linkAnswer): linked,
 * waiting for an OTP or a 3-D Secure check, or failed (thrown as the catalogue's error, the
 * stream told).
 */
export function recordLinkOutcome(
  ctx: TCardLinkContext,
  charge: TLinkCharge,
  outcome: TCardChargeOutcome,
): Promise<TCardChargeResult> {
  return recordAnswer(ctx, charge, linkAnswer(ctx, charge, outcome), linkFails(ctx));
}

/**
 * A card links only the account its issuer says it draws on: a card of another account (the
 * payer's own or anyone's) is 402 CARD_LINKING_FAILED before anything is charged or saved. A
 * network that cannot say is `fault`.
 */
export async function assertCardOnAccount(
  ctx: TCardLinkContext,
  card: { number: string } | { token: string },
  account: { accountNumber: string; institutionCode: string },
  fault: TErrorCode,
): Promise<void> {
  const { accountNumber, institutionCode } = account;
  let onAccount: boolean;
  try {
    onAccount = await usable(ctx.providers.payments.cards).isCardOnAccount({
      card,
      accountNumber,
      institutionCode,
    });
  } catch {
    throw new AppError(fault);
  }
  if (!onAccount) {
    throw new AppError(
      'CARD_LINKING_FAILED',
      `${ERROR_CATALOGUE.CARD_LINKING_FAILED.message}: ${CARD_NOT_ON_ACCOUNT_TEXT}`,
    );
  }
}

/**
 * A network call that threw (a fault, not an answer) ends the link: 'Failed to link card'. The
 * call may have reached the network and taken the money: the charge is left at the network, for
 * the reconciler to ask about (lost-link-charges.ts).
 */
export async function callNetwork(
  ctx: TCardLinkContext,
  charge: TLinkCharge,
  call: () => Promise<TCardChargeOutcome>,
): Promise<TCardChargeOutcome> {
  try {
    return await call();
  } catch {
    const failure = new AppError('CARD_LINK_FAILED');
    await endLink(ctx.db, charge, failure, ctx.clock.now());
    throw failure;
  }
}

/**
 * A card link's test charge waiting for its payer's answer (an OTP, a 3-D Secure check's result),
 * taken (now `charging`) in one statement, so an answer reaches the network, and the network's
 * answer the link, once. The payer's own answer (their OTP) is taken only while their link is
 * open and lasts; a provider's word of a charge it ended (its notice, by the link's id alone) is
 * taken while the link is open, at any age: the link's completion refuses a link past its expiry
 * and gives the money back.
 */
export function takeWaitingLink(
  ctx: TCardLinkContext,
  where: { linkId: string; payerId?: string },
  step: 'awaiting_otp' | 'awaiting_3ds',
): Promise<TLinkCharge | null> {
  const now = ctx.clock.now();
  const { linkId, payerId } = where;
  const waitsThere = linkChargesIn([step]);
  return moveLinkCharge(
    ctx.db,
    linkId,
    'takeAnswer',
    {},
    now,
    and(
      waitsThere,
      whoseLink(
        and(
          payerId === undefined
            ? undefined
            : and(eq(accountLinks.payerId, payerId), gt(accountLinks.expiresAt, now)),
          eq(accountLinks.route, 'card'),
          eq(accountLinks.state, 'created'),
        ),
      ),
    ),
  );
}

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
import { LINK_CHARGE_TRANSITIONS } from '../../../domain/link-charge-lifecycle';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts } from '../../db/schema';
import type { TCardChargeOutcome, TCardSummary } from '../../providers/payments';
import { activateLink, type TLinkRow } from './link-lifecycle';
import { inLinkChargeStages, moveLinkCharge } from './link-charge-moves';
import { obfuscateCard } from '../../../domain/card-number';
import { AppError } from '../../app-error';
import { cardFailureOf, type TCardChargeResult, waitingResult } from '../payments/card-payments';
import { usable } from '../../providers/off';
import {
  type TCardLinkContext,
  TEST_CHARGE_NARRATION,
  type TChargingLink,
  chargeCardsOf,
  emitCardLinking,
  endLink,
  amountOf,
  bookTestCharge,
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
 * A test charge that succeeded: refunded at the network, then in one transaction the link made
 * active, the charge and its refund booked, the card saved to the account, and the stream told
 * (progress when charged, progress when refunded and saving, success). A link another link of
 * the account beat to active, or that ended meanwhile, is refused, its money back all the same.
 */
async function recordSucceeded(
  ctx: TCardLinkContext,
  link: TChargingLink,
  outcome: Extract<TCardChargeOutcome, { kind: 'succeeded' }>,
): Promise<TCardChargeResult> {
  const { db, clock } = ctx;
  const amount = amountOf(link);
  try {
    await chargeCardsOf(ctx, link).refundCard({
      providerReference: outcome.providerReference,
      amount,
      reference: link.id,
    });
  } catch {
    // The card was charged and not refunded: the books hold the charge as owed to the payer, and
    // the charge unsettled is given back by the reconciler (lost-link-charges.ts).
    const failure = new AppError('CARD_LINK_FAILED');
    await db.transaction(async (tx) => {
      const now = clock.now();
      await bookTestCharge(tx, link, false, now);
      await endLink(tx, link, failure, now, 'unsettled');
    });
    throw failure;
  }
  const now = clock.now();
  const { token } = outcome;
  const { cardExpiryMonth, cardExpiryYear } = link;
  const failure = await db.transaction(async (tx): Promise<AppError | null> => {
    await bookTestCharge(tx, link, true, now);
    if (token === null || cardExpiryMonth === null || cardExpiryYear === null) {
      // An issuer that will not let the card be charged again cannot link it.
      const refused = new AppError('CARD_LINKING_FAILED');
      await endLink(tx, link, refused, now, 'settled');
      return refused;
    }
    // The charge's 'link' edge, made by the mandate's activation, which ends the charge with it.
    const activated = await activateLink(
      tx,
      link.id,
      now,
      inLinkChargeStages(LINK_CHARGE_TRANSITIONS.link.from),
    );
    if (!activated) {
      // Superseded by a newer attempt, or past its expiry while the network thought.
      const [row] = await tx
        .select({ expiresAt: accountLinks.expiresAt })
        .from(accountLinks)
        .where(eq(accountLinks.id, link.id));
      const ended = new AppError(
        row && row.expiresAt.getTime() <= now.getTime()
          ? 'ACCOUNT_LINK_EXPIRED'
          : 'ACCOUNT_LINK_CANCELLED',
      );
      await endLink(tx, link, ended, now, 'settled');
      return ended;
    }
    const progress = { paymentId: link.id, message: CARD_LINKING_PROGRESS_TEXT };
    await emitCardLinking(tx, link.payerId, { event: 'card_linking_progress', ...progress });
    await saveCardToAccount(
      tx,
      link.accountId,
      { ...outcome.card, token, expiryMonth: cardExpiryMonth, expiryYear: cardExpiryYear },
      now,
    );
    await emitCardLinking(tx, link.payerId, { event: 'card_linking_progress', ...progress });
    await emitCardLinking(tx, link.payerId, {
      event: 'card_linking_success',
      paymentId: link.id,
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
      paymentId: link.id,
      amount,
      transactionReference: link.id,
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
 * Records what the network answered for a link's charging test charge: linked, waiting for an
 * OTP or a 3-D Secure check, or failed (thrown as the catalogue's error, the stream told).
 */
export async function recordLinkOutcome(
  ctx: TCardLinkContext,
  link: TChargingLink,
  outcome: TCardChargeOutcome,
): Promise<TCardChargeResult> {
  const { db, clock } = ctx;
  switch (outcome.kind) {
    // A link's charge carries the PIN its form asked with the card: an issuer asking for it
    // again did not take it ('pin_required' ends the link as a wrong PIN).
    case 'failed':
    case 'pin_required': {
      const reason = outcome.kind === 'failed' ? outcome.reason : 'incorrect_pin';
      const failure = cardFailureOf(reason, 'linking');
      await endLink(db, link, failure, clock.now(), 'settled');
      throw failure;
    }
    case 'otp_required':
    case 'three_ds_required': {
      const waiting = await moveLinkCharge(
        db,
        link.id,
        outcome.kind === 'otp_required' ? 'askOtp' : 'ask3ds',
        { providerReference: outcome.providerReference },
        clock.now(),
      );
      if (!waiting) throw new AppError('ACCOUNT_LINK_CANCELLED');
      return waitingResult(outcome, {
        paymentId: link.id,
        amount: amountOf(link),
        transactionReference: link.id,
      });
    }
    case 'succeeded':
      return recordSucceeded(ctx, link, outcome);
  }
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
 * call may have reached the network and taken the money: the charge is left unsettled, for the
 * reconciler to ask about (lost-link-charges.ts).
 */
export async function callNetwork(
  ctx: TCardLinkContext,
  link: TChargingLink,
  call: () => Promise<TCardChargeOutcome>,
): Promise<TCardChargeOutcome> {
  try {
    return await call();
  } catch {
    const failure = new AppError('CARD_LINK_FAILED');
    await endLink(ctx.db, link, failure, ctx.clock.now(), 'unsettled');
    throw failure;
  }
}

/**
 * A card link waiting for the answer `edge` takes (the payer's OTP, the 3-D Secure check's
 * result), taken (now `charging`) in one statement, so an answer reaches the network, and the
 * network's answer the link, once. The payer's own answer (their OTP) is taken only while the
 * link lasts; a provider's word of a charge it ended (its notice, by the link's id alone) is taken
 * at any age: the link's completion refuses a link past its expiry and gives the money back.
 */
export function takeWaitingLink(
  ctx: TCardLinkContext,
  where: { linkId: string; payerId?: string },
  edge: 'takeOtp' | 'takeThreeDsResult',
): Promise<TLinkRow | null> {
  const now = ctx.clock.now();
  const { linkId, payerId } = where;
  return moveLinkCharge(
    ctx.db,
    linkId,
    edge,
    {},
    now,
    and(
      payerId === undefined
        ? undefined
        : and(eq(accountLinks.payerId, payerId), gt(accountLinks.expiresAt, now)),
      eq(accountLinks.route, 'card'),
      eq(accountLinks.state, 'created'),
    ),
  );
}

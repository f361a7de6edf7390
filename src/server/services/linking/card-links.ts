import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import {
  ACCOUNT_LINKED_MESSAGE,
  CARD_LINK_TTL_MS,
  CARD_LINKING_PROGRESS_TEXT,
  CARD_LINKING_SUCCESS_TEXT,
  CARD_NOT_ON_ACCOUNT_TEXT,
  CARD_SAVED_MESSAGE,
  OTP_RETRY_AFTER_MS,
  TEST_CARD_CHARGE_MAX_KOBO,
  TEST_CARD_CHARGE_MIN_KOBO,
} from '../../../domain/constants';
import { ERROR_CATALOGUE, errorStatus, type TErrorCode } from '../../../domain/errors';
import type {
  TCardChargeResponse,
  TCardCompleteResponse,
  TCardLinkingEvent,
  TEncryptedCard,
  TSaveCardRequest,
  TSaveCardResponse,
} from '../../../domain/schemas/card';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import {
  accountLinks,
  events,
  ledgerTransactions,
  payerAccounts,
  paymentAttempts,
} from '../../db/schema';
import { appendEvent, eventStreams } from '../../events/event-log';
import type {
  TCardChargeOutcome,
  TCardSummary,
  TCardsPort,
  TNoticedCharge,
  TRequeryOutcome,
} from '../../providers/payments';
import type { TSandboxNotices } from '../../sandbox/sandbox-notices';
import {
  abandonLink,
  activateLink,
  linkFromPayment,
  addPayerAccount,
  emitProgress,
  findAccountAtBank,
  isAccountLinkReference,
  newLinkId,
  openLink,
  settleLink,
  type TLinkRow,
} from './account-links';
import { holderOfAccount, type TOwnerLookups } from './account-owners';
import { assertAccountUnderPayersBvn } from './bvn-ownership';
import { obfuscateCard } from '../../../domain/card-number';
import { AppError } from '../app-error';
import { decryptCard } from '../payments/card-encryption-keys';
import {
  cardFailureOf,
  expiryColumnsOf,
  STALE_CHARGE_MS,
  submitCardOtp,
  type TCardChargeResult,
  threeDsAnswerOf,
  threeDsAttemptOf,
  waitingResult,
} from '../payments/card-payments';
import { book, ledgerAccount } from '../payments/ledger';
import { debitProviderOfNewLinks } from '../payments/mandate-debits';
import { ownedByPage } from '../payments/charge-owners';
import type { TPaymentAccess } from '../payments/payment-records';
import { usable } from '../../providers/off';

/*
 * Linking a card to a payer's bank account (spec §2 card_entry, §7 card calls and card-linking
 * stream, §9 test charge; docs/accounts.md "Linking by card"). A link by card is an account link
 * of route `card`: its test charge of ₦1.00–₦10.00 is made on the card network (OTP and 3-D Secure
 * as the card's bank asks), refunded at once, and only then is the card saved to the account and
 * the link made active. As with card payments, no transaction stays open while the network
 * thinks: the link is opened as `charging` first (one open attempt per account, by index), the
 * network is called, and its answer is recorded in a transaction of its own with the ledger and
 * the stream's events. The card's number, CVV and PIN are never kept: the account keeps the
 * provider's token, brand, first 6, last 4 and expiry.
 *
 * A card of a paid payment is saved to an account by POST /api/payments/save-card, with no test
 * charge: the payment proved the card.
 */

type TCardLinkContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/** What the card network's statement shows for a link's test charge. */
const TEST_CHARGE_NARRATION = 'Card linking test charge';

/** The link an outcome is recorded for: who, which account, how much, the card's expiry. */
export type TChargingLink = Pick<
  TLinkRow,
  | 'id'
  | 'payerId'
  | 'accountId'
  | 'testAmount'
  | 'cardExpiryMonth'
  | 'cardExpiryYear'
  | 'chargeProvider'
>;

/**
 * The cards port of the provider that made a link's test charge, as its row names it: every later
 * call about the charge (its OTP, requery, refund) goes there, whichever provider takes new cards
 * now. A provider this server no longer runs is ProviderNotConfigured, never another's port.
 */
export function chargeCardsOf(
  ctx: Pick<TAppContext, 'providers'>,
  link: Pick<TLinkRow, 'id' | 'chargeProvider'>,
): TCardsPort {
  if (link.chargeProvider === null) {
    throw new Error(`Card link ${link.id} names no provider of its test charge`);
  }
  return ctx.providers.registry.portOf(link.chargeProvider, 'cards');
}

/** A card-linking event on the payer's stream (spec §7), inside `tx`, the change's transaction. */
function emitCardLinking(tx: TDb, payerId: string, event: TCardLinkingEvent): Promise<number> {
  return appendEvent(tx, {
    stream: eventStreams.cardLinking(payerId),
    type: event.event,
    data: event,
  });
}

/**
 * The event a failure tells the page: the bank or network at fault (5xx) is an error, a card
 * the issuer refused, a wrong OTP or a failed 3-D Secure check a failure (spec §4 card_entry).
 */
const failureEvent = (paymentId: string, failure: AppError): TCardLinkingEvent => ({
  event: errorStatus(failure.code) >= 500 ? 'card_linking_error' : 'card_linking_failed',
  paymentId,
  error: failure.message,
});

/**
 * Records, inside `tx`, that the network's last word on a card link's test charge is had: never
 * taken, or taken and given back. Until then a link that ended is asked about by the reconciler
 * (lost-link-charges.ts), since its money may still be out.
 */
export async function markChargeSettled(tx: TDb, linkId: string, now: Date): Promise<void> {
  await tx
    .update(accountLinks)
    .set({ chargeSettledAt: now })
    .where(and(eq(accountLinks.id, linkId), isNull(accountLinks.chargeSettledAt)));
}

/**
 * Ends the link with `failure`, its events in the same transaction; false if it had ended.
 * `charge` says whether the network's last word on its test charge came with the end (settled:
 * nothing taken, or given back) or not (the reconciler asks about it later).
 */
export async function endLink(
  db: TDb,
  link: TChargingLink,
  failure: AppError,
  now: Date,
  charge: 'settled' | 'unsettled',
) {
  return db.transaction(async (tx) => {
    const ended = await abandonLink(tx, link.id, now, failure.message);
    if (ended) await emitCardLinking(tx, link.payerId, failureEvent(link.id, failure));
    if (charge === 'settled') await markChargeSettled(tx, link.id, now);
    return ended;
  });
}

const amountOf = (link: TChargingLink): number => {
  if (link.testAmount === null) throw new Error(`Card link ${link.id} has no test amount`);
  return link.testAmount;
};

/**
 * Books the test charge (the card's money held by the provider) and, once the provider refunded
 * it, its refund, the charge then settled: the two net to zero on every account. Each is booked
 * once by its kind and the link's id; answers whether the refund was booked now (false when it
 * was before, or not given).
 */
export async function bookTestCharge(
  tx: TDb,
  link: TChargingLink,
  refunded: boolean,
  now: Date,
): Promise<boolean> {
  const amount = amountOf(link);
  const card = ledgerAccount.payerSource('card');
  const held = ledgerAccount.linkTestCharges();
  const movement = { reference: link.id, paymentId: null, attemptId: null } as const;
  await book(tx, {
    ...movement,
    kind: 'link_test_charge',
    narration: TEST_CHARGE_NARRATION,
    entries: [
      { account: card, amount: -amount },
      { account: held, amount },
    ],
  });
  if (!refunded) return false;
  await markChargeSettled(tx, link.id, now);
  return book(tx, {
    ...movement,
    kind: 'test_charge_refund',
    narration: `${TEST_CHARGE_NARRATION} refunded`,
    entries: [
      { account: held, amount: -amount },
      { account: card, amount },
    ],
  });
}

type TSavedCard = TCardSummary & { token: string; expiryMonth: number; expiryYear: number };

async function saveCardToAccount(
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
    const activated = await activateLink(
      tx,
      link.id,
      now,
      eq(accountLinks.chargeStage, 'charging'),
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
async function recordLinkOutcome(
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
      const stage = outcome.kind === 'otp_required' ? 'awaiting_otp' : 'awaiting_3ds';
      const [waiting] = await db
        .update(accountLinks)
        .set({
          chargeStage: stage,
          providerReference: outcome.providerReference,
          updatedAt: clock.now(),
        })
        .where(and(eq(accountLinks.id, link.id), eq(accountLinks.chargeStage, 'charging')))
        .returning({ id: accountLinks.id });
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
async function assertCardOnAccount(
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
async function callNetwork(
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

/** A card link whose test charge waits at its 3-D Secure check. */
export const atThreeDsCheck = and(
  eq(accountLinks.route, 'card'),
  eq(accountLinks.state, 'created'),
  eq(accountLinks.chargeStage, 'awaiting_3ds'),
);

/**
 * What the provider that made a link's test charge says of it (by the link's id); null when it
 * did not answer, or is not run now (asked again at the next run).
 */
export async function askAboutLinkCharge(
  ctx: Pick<TAppContext, 'providers'>,
  link: Pick<TLinkRow, 'id' | 'chargeProvider'>,
): Promise<TNoticedCharge | null> {
  try {
    return await chargeCardsOf(ctx, link).requeryCardCharge(link.id);
  } catch {
    // Not answered now: the link stays where it is, to be asked about again.
    return null;
  }
}

/**
 * The network's last word on a card link's test charge, whoever asked (the reconciler, a new
 * attempt): taken, the money goes back to the card (the network's token for it is not at hand, so
 * the card cannot be saved), refunded first and then booked in and out; never taken, nothing to
 * give back. Either way the link, if still open, ends 'Failed to link card', for the payer to link
 * again, and its charge is settled. The refund is one per reference however often asked
 * (TCardsPort.refundCard) and each booking once by the link's id, so two askers at once give back
 * once; a refund that fails throws, the charge left unsettled for the reconciler's next run.
 */
export async function settleLinkCharge(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'providers'>,
  link: TChargingLink,
  word: Exclude<TRequeryOutcome, { kind: 'pending' }>,
): Promise<'given_back' | 'failed'> {
  const failure = new AppError('CARD_LINK_FAILED');
  if (word.kind === 'not_taken') {
    await endLink(ctx.db, link, failure, ctx.clock.now(), 'settled');
    return 'failed';
  }
  if (!word.givenBack) {
    await chargeCardsOf(ctx, link).refundCard({
      providerReference: word.providerReference,
      amount: word.amount,
      reference: link.id,
    });
  }
  await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    await bookTestCharge(tx, link, true, now);
    await endLink(tx, link, failure, now, 'settled');
  });
  return 'given_back';
}

/** A card link whose charge's answer was lost with its process: charging past STALE_CHARGE_MS. */
const lostWithItsProcess = (now: Date) =>
  and(
    eq(accountLinks.route, 'card'),
    eq(accountLinks.state, 'created'),
    eq(accountLinks.chargeStage, 'charging'),
    lt(accountLinks.updatedAt, new Date(now.getTime() - STALE_CHARGE_MS)),
  );

/**
 * The account's card links whose charge was lost with its process, which a new attempt supersedes
 * (supersedeStaleLinks), each asked about first as the reconciler asks (lost-link-charges.ts), so
 * that a link ends by the network's word whenever it can be had: taken, the money goes back and
 * the link fails; never taken, the link fails (settleLinkCharge). One the network cannot answer
 * for, says still waits, or whose refund fails is superseded with its charge unsettled, for the
 * reconciler to ask about until it is settled.
 */
async function settleLostCharges(
  ctx: TCardLinkContext,
  accountId: string,
  now: Date,
): Promise<void> {
  const lost = await ctx.db
    .select()
    .from(accountLinks)
    .where(and(eq(accountLinks.accountId, accountId), lostWithItsProcess(now)));
  for (const link of lost) {
    const word = await askAboutLinkCharge(ctx, link);
    if (!word || word.kind === 'pending') continue;
    try {
      await settleLinkCharge(ctx, link, word);
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
async function stillAtTheirCheck(
  ctx: TCardLinkContext,
  accountId: string,
  now: Date,
): Promise<string[]> {
  const stale = await ctx.db
    .select({ id: accountLinks.id, chargeProvider: accountLinks.chargeProvider })
    .from(accountLinks)
    .where(
      and(
        eq(accountLinks.accountId, accountId),
        atThreeDsCheck,
        lt(accountLinks.updatedAt, new Date(now.getTime() - OTP_RETRY_AFTER_MS)),
      ),
    );
  const waiting: string[] = [];
  for (const link of stale) {
    const { id } = link;
    const word = await askAboutLinkCharge(ctx, link);
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
async function supersedeStaleLinks(
  tx: TDb,
  of: { payerId: string; accountId: string; atTheirCheck: string[] },
  now: Date,
): Promise<void> {
  const superseded = await tx
    .update(accountLinks)
    .set({ state: 'cancelled', chargeStage: null, updatedAt: now })
    .where(
      and(
        eq(accountLinks.accountId, of.accountId),
        eq(accountLinks.route, 'card'),
        eq(accountLinks.state, 'created'),
        or(
          and(
            eq(accountLinks.chargeStage, 'awaiting_otp'),
            lt(accountLinks.updatedAt, new Date(now.getTime() - OTP_RETRY_AFTER_MS)),
          ),
          and(
            eq(accountLinks.chargeStage, 'awaiting_3ds'),
            inArray(accountLinks.id, of.atTheirCheck),
          ),
          lostWithItsProcess(now),
        ),
      ),
    )
    .returning({ id: accountLinks.id });
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

/**
 * POST /api/payments/card, linking variant (spec §7): links the card to the payer's account by a
 * test charge. The account is checked with its bank (name enquiry); its bank must take cards
 * (spec §3 integrations.card) and the card's issuer must say the card draws on this account (else
 * 402 CARD_LINKING_FAILED, nothing saved); then it is added to the payer's accounts. It must not
 * be linked already (409 ACCOUNT_ALREADY_LINKED) and no other attempt may be open on it (409
 * ACCOUNT_LINK_IN_PROGRESS). A charge of this account's that waited for its OTP or 3-D Secure
 * check past the OTP retry time (spec §9; a check once the network says it still waits), or was
 * lost with its process (asked about first, its money given back if taken), gives way.
 */
export async function linkCard(
  ctx: TCardLinkContext & TOwnerLookups,
  payerId: string,
  request: {
    saveToAccount: { accountNumber: string; institutionCode: string };
    cardDetails: TEncryptedCard;
  },
): Promise<TCardChargeResponse> {
  const { db, clock, providers } = ctx;
  const { accountNumber, institutionCode } = request.saveToAccount;
  // New work: the first card provider's, named on the link for every later call about its charge.
  const cards = usable(providers.payments.cards);
  const { bank, found } = await findAccountAtBank(ctx, request.saveToAccount, 'CARD_LINK_FAILED');
  if (!found.integrations.includes('card')) throw new AppError('ACCOUNT_NOT_SUPPORTED');
  // A card on the account proves its holder has the card, not that the holder is this payer.
  const holder = await holderOfAccount(ctx, payerId, request.saveToAccount, found.bvn);
  await assertAccountUnderPayersBvn(db, payerId, holder.bvnHash);
  const card = await decryptCard(db, clock, request.cardDetails, 'required');
  await assertCardOnAccount(
    ctx,
    { number: card.number },
    request.saveToAccount,
    'CARD_LINK_FAILED',
  );
  const now = clock.now();
  const accountId = await addPayerAccount(
    db,
    payerId,
    { accountNumber, institutionCode, bank, found, holder },
    now,
  );
  const link = {
    id: newLinkId(),
    payerId,
    accountId,
    route: 'card',
    state: 'created',
    chargeStage: 'charging',
    chargeProvider: cards.provider,
    debitProvider: debitProviderOfNewLinks(ctx.providers.payments),
    testAmount: randomInt(TEST_CARD_CHARGE_MIN_KOBO, TEST_CARD_CHARGE_MAX_KOBO + 1),
    ...expiryColumnsOf(card.expiry),
    expiresAt: new Date(now.getTime() + CARD_LINK_TTL_MS),
    createdAt: now,
    updatedAt: now,
  } as const;
  const atTheirCheck = await stillAtTheirCheck(ctx, accountId, now);
  await settleLostCharges(ctx, accountId, now);
  await db.transaction(async (tx) => {
    await supersedeStaleLinks(tx, { payerId, accountId, atTheirCheck }, now);
    await openLink(tx, link);
  });
  const outcome = await callNetwork(ctx, link, () =>
    cards.chargeCard({
      reference: link.id,
      amount: link.testAmount,
      narration: TEST_CHARGE_NARRATION,
      card: { number: card.number, expiry: card.expiry, cvv: card.cvv, pin: card.pin },
    }),
  );
  return (await recordLinkOutcome(ctx, link, outcome)).response;
}

/**
 * A card link waiting at `stage`, taken (now `charging`) in one statement, so an answer reaches
 * the network, and the network's answer the link, once. The payer's own answer (their OTP) is
 * taken only while the link lasts; a provider's word of a charge it ended (its notice, by the
 * link's id alone) is taken at any age: the link's completion refuses a link past its expiry and
 * gives the money back.
 */
async function takeWaitingLink(
  ctx: TCardLinkContext,
  where: { linkId: string; payerId?: string },
  stage: 'awaiting_otp' | 'awaiting_3ds',
): Promise<TLinkRow | null> {
  const { db, clock } = ctx;
  const now = clock.now();
  const { linkId, payerId } = where;
  const [taken] = await db
    .update(accountLinks)
    .set({ chargeStage: 'charging', updatedAt: now })
    .where(
      and(
        eq(accountLinks.id, linkId),
        payerId === undefined
          ? undefined
          : and(eq(accountLinks.payerId, payerId), gt(accountLinks.expiresAt, now)),
        eq(accountLinks.route, 'card'),
        eq(accountLinks.state, 'created'),
        eq(accountLinks.chargeStage, stage),
      ),
    )
    .returning();
  return taken ?? null;
}

/** Why a payer's card link cannot take an OTP now, in the catalogue's words. */
async function notWaitingForOtp(
  ctx: TCardLinkContext,
  payerId: string,
  linkId: string,
): Promise<AppError> {
  const [row] = await ctx.db
    .select()
    .from(accountLinks)
    .where(
      and(
        eq(accountLinks.id, linkId),
        eq(accountLinks.payerId, payerId),
        eq(accountLinks.route, 'card'),
      ),
    );
  // Another payer's link reads as none at all, so ids cannot be probed.
  if (!row) return new AppError('NO_OTP_DATA');
  const link = await settleLink(ctx, row);
  switch (link.state) {
    case 'active':
      return new AppError('ACCOUNT_ALREADY_LINKED');
    case 'expired':
      return new AppError('ACCOUNT_LINK_EXPIRED');
    case 'cancelled':
      return new AppError('ACCOUNT_LINK_CANCELLED');
    case 'created':
    case 'awaiting_authorisation':
      return new AppError(link.chargeStage === 'charging' ? 'PAYMENT_IN_PROGRESS' : 'NO_OTP_DATA');
  }
}

/** The OTP of a card link's test charge (POST /api/payments/card/complete with its id). */
async function submitCardLinkOtp(
  ctx: TCardLinkContext,
  payerId: string,
  linkId: string,
  otp: string,
): Promise<TCardCompleteResponse> {
  const link = await takeWaitingLink(ctx, { payerId, linkId }, 'awaiting_otp');
  if (!link) throw await notWaitingForOtp(ctx, payerId, linkId);
  const providerReference = link.providerReference;
  if (!providerReference)
    throw new Error(`Card link ${link.id} waits for an OTP without a reference`);
  const outcome = await callNetwork(ctx, link, () =>
    chargeCardsOf(ctx, link).submitCardOtp({ providerReference, otp }),
  );
  const result = await recordLinkOutcome(ctx, link, outcome);
  if (result.kind !== 'completed') throw new AppError('OTP_SUBMIT_FAILED');
  return result.complete;
}

/**
 * POST /api/payments/card/complete: the OTP of a waiting charge, a payment's or, by its id, a
 * card link's. A card link is the signed-in payer's own (spec §6: linking needs sign-in).
 */
export function completeCardCharge(
  ctx: TCardLinkContext,
  request: { paymentId: string; otp: string; access: TPaymentAccess; chargeToken?: string },
): Promise<TCardCompleteResponse> {
  if (!isAccountLinkReference(request.paymentId)) return submitCardOtp(ctx, request);
  if (!('payerId' in request.access)) throw new AppError('SIGN_IN_REQUIRED');
  return submitCardLinkOtp(ctx, request.access.payerId, request.paymentId, request.otp);
}

/**
 * A card link's test charge a notice says was taken, as recordLinkOutcome takes the network's
 * answer. One it cannot take as it stands (another amount, no card named by the notice or the
 * network) throws, leaving the link charging for the reconciler's requery (lost-link-charges.ts),
 * which gives the money back.
 */
async function linkChargeTaken(
  ctx: TCardLinkContext,
  link: TLinkRow,
  taken: Extract<TNoticedCharge, { kind: 'taken' }>,
): Promise<Extract<TCardChargeOutcome, { kind: 'succeeded' }>> {
  if (taken.amount !== link.testAmount) {
    throw new Error(`Card link ${link.id}: the network took ${taken.amount} kobo`);
  }
  // A notice that names no card: the network's record of the charge does.
  const answer = taken.card ? null : await chargeCardsOf(ctx, link).requeryCardCharge(link.id);
  const card = taken.card ?? (answer?.kind === 'taken' ? answer.card : null);
  if (!card) throw new Error(`Card link ${link.id}: the network names no card it charged`);
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
    .select()
    .from(accountLinks)
    .where(and(eq(accountLinks.id, linkId), eq(accountLinks.route, 'card')));
  // A link still open is being settled by whoever took it; an active one was refunded as linked.
  if (!link || (link.state !== 'cancelled' && link.state !== 'expired')) return false;
  if (await refundBooked(ctx.db, link.id)) return false;
  await chargeCardsOf(ctx, link).refundCard({
    providerReference: taken.providerReference,
    amount: taken.amount,
    reference: link.id,
  });
  return ctx.db.transaction((tx) => bookTestCharge(tx, link, true, ctx.clock.now()));
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
  const link = await takeWaitingLink(ctx, { linkId }, 'awaiting_3ds');
  if (!link) {
    const late = word.kind === 'taken' && !word.givenBack;
    return late && (await giveBackAfterEnd(ctx, linkId, word)) ? 'given_back' : 'unchanged';
  }
  if (word.kind !== 'taken') {
    // Declined, or still waiting once the check's time ran out: the check failed with nothing
    // taken. A charge the network still holds open is not settled: the reconciler asks again.
    const settled = word.kind === 'not_taken' ? 'settled' : 'unsettled';
    const failure = cardFailureOf('three_ds_declined', 'linking');
    await endLink(ctx.db, link, failure, ctx.clock.now(), settled);
    return 'ended';
  }
  if (word.givenBack) {
    // Taken and given back since (a reversal): booked in and out, and the link fails, as the
    // reconciler ends one whose charge it finds taken (lost-link-charges.ts).
    await settleLinkCharge(ctx, link, word);
    return 'ended';
  }
  const answer = await linkChargeTaken(ctx, link, word);
  try {
    await recordLinkOutcome(ctx, link, answer);
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
): Promise<{ status: 'completed' | 'failed'; message: string }> {
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
 * The charge of ours waiting at its 3-D Secure check under the network's `providerReference`, a
 * card link's test charge (one that lasts) or a payment's: how to read what the page says of it
 * once answered. null for none.
 */
async function waitingChallenge(
  ctx: TCardLinkContext,
  providerReference: string,
): Promise<(() => Promise<{ status: 'completed' | 'failed'; message: string }>) | null> {
  const [link] = await ctx.db
    .select({ id: accountLinks.id })
    .from(accountLinks)
    .where(
      and(
        eq(accountLinks.providerReference, providerReference),
        atThreeDsCheck,
        gt(accountLinks.expiresAt, ctx.clock.now()),
      ),
    );
  if (link) return () => linkChallengeAnswer(ctx, link.id);
  const attempt = await threeDsAttemptOf(ctx, providerReference);
  return attempt ? () => threeDsAnswerOf(ctx, attempt.id) : null;
}

/**
 * The payer's answer on the sandbox's 3-D Secure page, for a card link's test charge or a
 * payment's charge still waiting at its check (else 404, nothing sent to the network). The card
 * network records the answer and tells us by its notice (sandbox-notices.ts), which the notices
 * route applies in the completion path every provider's word takes; the page's answer is then
 * read from the link or the attempt. The payer's page hears it on its stream.
 */
export async function answerSandboxChallenge(
  ctx: TCardLinkContext & Pick<TAppContext, 'sandbox'>,
  notices: TSandboxNotices,
  providerReference: string,
  approved: boolean,
): Promise<{ status: 'completed' | 'failed'; message: string }> {
  const { sandbox } = ctx;
  if (!sandbox) throw new AppError('NOT_FOUND');
  const answerOf = await waitingChallenge(ctx, providerReference);
  // Answered before, or no longer waiting: the challenge is gone.
  if (!answerOf) throw new AppError('NOT_FOUND');
  if (!(await notices.answerThreeDs(sandbox.cards, providerReference, approved))) {
    throw new AppError('NOT_FOUND');
  }
  return answerOf();
}

/** The card a paid card attempt kept for saving (its payer asked, signed in), or null. */
function keptCardOf(attempt: typeof paymentAttempts.$inferSelect): TSavedCard | null {
  const { cardToken, cardBrand, cardFirst6, cardLast4, cardExpiryMonth, cardExpiryYear } = attempt;
  if (attempt.method !== 'card' || !cardToken || !cardBrand || !cardFirst6 || !cardLast4) {
    return null;
  }
  if (cardExpiryMonth === null || cardExpiryYear === null) return null;
  return {
    token: cardToken,
    brand: cardBrand,
    first6: cardFirst6,
    last4: cardLast4,
    expiryMonth: cardExpiryMonth,
    expiryYear: cardExpiryYear,
  };
}

/**
 * POST /api/payments/save-card (spec §7): puts the card of the payer's paid card payment on one
 * of their accounts, which the card then links (no test charge, no second entry: the payment
 * proved the card and the provider's token charges it again), if the card's issuer says the card
 * draws on that account (else 402 CARD_LINKING_FAILED). Only the payer who paid may: the
 * signed-in payer of the charge or, for a charge made without sign-in, the signed-in payer whose
 * page holds the charge's token (docs/accounts.md "Saving a paid card"). Anyone else, or an
 * unknown payment, is 404; a payment not paid by a card kept for saving (a card the payer did not
 * ask to save) is 409 CARD_NOT_SAVABLE; a card saved before is 409 CARD_ALREADY_SAVED, decided in
 * the statement that marks it saved.
 */
export async function saveCardOfPayment(
  ctx: TCardLinkContext & TOwnerLookups,
  payerId: string,
  request: TSaveCardRequest,
): Promise<TSaveCardResponse> {
  const { db, clock } = ctx;
  const attempts = await db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.paymentId, request.paymentId),
        or(eq(paymentAttempts.payerId, payerId), ownedByPage(request.chargeToken)),
      ),
    );
  if (attempts.length === 0) throw new AppError('NOT_FOUND', 'No payment of yours has this id');
  const paid = attempts.find((a) => a.status === 'completed');
  const card = paid ? keptCardOf(paid) : null;
  if (!paid || !card) throw new AppError('CARD_NOT_SAVABLE');
  if (paid.cardSavedAt) throw new AppError('CARD_ALREADY_SAVED');
  const { bank, found } = await findAccountAtBank(ctx, request, 'CARD_SAVE_FAILED');
  if (!found.integrations.includes('card')) throw new AppError('ACCOUNT_NOT_SUPPORTED');
  const account = {
    accountNumber: request.accountNumber,
    institutionCode: request.institutionCode,
  };
  const holder = await holderOfAccount(ctx, payerId, account, found.bvn);
  await assertAccountUnderPayersBvn(db, payerId, holder.bvnHash);
  await assertCardOnAccount(ctx, { token: card.token }, request, 'CARD_SAVE_FAILED');
  const now = clock.now();
  const accountId = await addPayerAccount(db, payerId, { ...account, bank, found, holder }, now);
  await linkFromPayment(
    db,
    {
      payerId,
      accountId,
      route: 'card',
      paymentId: paid.paymentId,
      prompt: 'shouldPromptCardLinking',
      debitProvider: debitProviderOfNewLinks(ctx.providers.payments),
      now,
    },
    async (tx) => {
      const [claimed] = await tx
        .update(paymentAttempts)
        .set({ cardSavedTo: accountId, cardSavedAt: now, updatedAt: now })
        .where(and(eq(paymentAttempts.id, paid.id), sql`${paymentAttempts.cardSavedAt} IS NULL`))
        .returning({ id: paymentAttempts.id });
      if (!claimed) throw new AppError('CARD_ALREADY_SAVED');
      await saveCardToAccount(tx, accountId, card, now);
    },
  );
  return { ok: true, message: CARD_SAVED_MESSAGE };
}

import { randomInt } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import {
  CARD_LINK_TTL_MS,
  CARD_SAVED_MESSAGE,
  TEST_CARD_CHARGE_MAX_KOBO,
  TEST_CARD_CHARGE_MIN_KOBO,
} from '../../../domain/constants';
import { namedStateOf } from '../../../domain/payment-attempts';
import type {
  TCardChargeResponse,
  TCardCompleteResponse,
  TEncryptedCard,
  TSaveCardRequest,
  TSaveCardResponse,
} from '../../../domain/schemas/card';
import { accountLinks, paymentAttempts } from '../../db/schema';
import { addPayerAccount, findAccountAtBank } from './account-at-bank';
import { isAccountLinkReference, newLinkId, openLink } from './link-lifecycle';
import { settleLink } from './link-mandates';
import { linkFromPayment } from './links-from-payments';
import { holderOfAccount, type TOwnerLookups } from './account-owners';
import { assertAccountUnderPayersBvn } from './bvn-ownership';
import { AppError } from '../../app-error';
import { decryptCard } from '../payments/card-encryption-keys';
import { expiryColumnsOf, submitCardOtp, type TCardChargeResult } from '../payments/card-payments';
import { debitProviderOfNewLinks } from '../payments/mandate-debits';
import { ownedByPage } from '../payments/charge-owners';
import type { TPaymentAccess } from '../payments/payment-records';
import { usable } from '../../providers/off';
import type { TCardChargeOutcome } from '../../providers/payments';
import { runAttempt } from '../payments/attempts/runner';
import { type TCardLinkContext, TEST_CHARGE_NARRATION, chargeCardsOf } from './card-link-charges';
import {
  type TSavedCard,
  saveCardToAccount,
  recordLinkOutcome,
  assertCardOnAccount,
  callNetwork,
  linkAnswer,
  linkFails,
  takeWaitingLink,
} from './card-link-outcomes';
import {
  settleLostCharges,
  stillAtTheirCheck,
  supersedeStaleLinks,
} from './superseded-link-charges';
import { openLinkCharge, readLinkCharge } from './link-test-attempts';

/*
 * Linking a card to a payer's bank account (spec §2 card_entry, §7 card calls and card-linking
 * stream, §9 test charge; docs/accounts.md "Linking by card"). A link by card is an account link
 * of route `card`: its test charge of ₦1.00–₦10.00 is made on the card network (OTP and 3-D Secure
 * as the card's bank asks), refunded at once, and only then is the card saved to the account and
 * the link made active. As with card payments, no transaction stays open while the network
 * thinks: the link and its test charge (an attempt of its own, `charging`: link-test-attempts.ts)
 * are opened first (one open link per account, by index), the network is called, and its answer
 * is recorded in a transaction of its own with the ledger and the stream's events. The card's number, CVV and PIN are never kept: the account keeps the
 * provider's token, brand, first 6, last 4 and expiry.
 *
 * A card of a paid payment is saved to an account by POST /api/payments/save-card, with no test
 * charge: the payment proved the card.
 */

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
    debitProvider: debitProviderOfNewLinks(ctx.providers.payments),
    // The card's test charge proves the mandate of the provider that debits the account.
    mandateSetUpBy: debitProviderOfNewLinks(ctx.providers.payments),
    testAmount: randomInt(TEST_CARD_CHARGE_MIN_KOBO, TEST_CARD_CHARGE_MAX_KOBO + 1),
    ...expiryColumnsOf(card.expiry),
    expiresAt: new Date(now.getTime() + CARD_LINK_TTL_MS),
    createdAt: now,
    updatedAt: now,
  } as const;
  const atTheirCheck = await stillAtTheirCheck(ctx, accountId, now);
  await settleLostCharges(ctx, accountId, now);
  // The link and its test charge, an attempt of the first card provider's (link-test-attempts.ts),
  // named there for every later call about the charge, run as every attempt is (attempts/runner.ts).
  const run = runAttempt<TCardChargeOutcome, TCardChargeResult>(ctx, {
    open: {
      open: () =>
        db.transaction(async (tx) => {
          await supersedeStaleLinks(tx, { payerId, accountId, atTheirCheck }, now);
          await openLink(tx, link);
          return openLinkCharge(tx, {
            link,
            amount: link.testAmount,
            provider: cards.provider,
            now,
          });
        }),
      fail: linkFails(ctx),
    },
    call: (charge) =>
      callNetwork(ctx, charge, () =>
        cards.chargeCard({
          reference: charge.id,
          amount: charge.amount,
          narration: TEST_CHARGE_NARRATION,
          card: { number: card.number, expiry: card.expiry, cvv: card.cvv, pin: card.pin },
        }),
      ),
    noAnswer: 'CARD_LINK_FAILED',
    answer: async (charge, outcome) => linkAnswer(ctx, charge, outcome),
  });
  return (await run).response;
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
    case 'awaiting_authorisation': {
      const charge = await readLinkCharge(ctx.db, link.id);
      const atTheNetwork = charge !== null && namedStateOf(charge) === 'charging';
      return new AppError(atTheNetwork ? 'PAYMENT_IN_PROGRESS' : 'NO_OTP_DATA');
    }
  }
}

/** The OTP of a card link's test charge (POST /api/payments/card/complete with its id). */
async function submitCardLinkOtp(
  ctx: TCardLinkContext,
  payerId: string,
  linkId: string,
  otp: string,
): Promise<TCardCompleteResponse> {
  const charge = await takeWaitingLink(ctx, { payerId, linkId }, 'awaiting_otp');
  if (!charge) throw await notWaitingForOtp(ctx, payerId, linkId);
  const providerReference = charge.providerReference;
  if (!providerReference)
    throw new Error(`Card link ${charge.id} waits for an OTP without a reference`);
  const outcome = await callNetwork(ctx, charge, () =>
    chargeCardsOf(ctx, charge).submitCardOtp({ providerReference, otp }),
  );
  const result = await recordLinkOutcome(ctx, charge, outcome);
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
      paymentId: request.paymentId,
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

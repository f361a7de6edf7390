import { eq } from 'drizzle-orm';
import { obfuscateCard } from '../../../../domain/card-number';
import type { TPaymentOrigin } from '../../../../domain/schemas/consent';
import type { TAppContext } from '../../../context';
import type { TDb } from '../../../db/database';
import { payerAccounts, paymentAttempts, terminalPurchases } from '../../../db/schema';
import type { TCardSummary } from '../../../providers/payments';
import { moveGiveBack, type TAttemptRow } from './moves';
import {
  completeAttempt,
  paidThePayment,
  type TCompletion,
  type TCompletionRequest,
} from './completion';
import { reverseAttemptDebit } from '../mandate-debits';

/*
 * Booking what a provider took, for each way of paying (docs/payments.md "Reconciliation"): the
 * provider's own answer and the reconciler's requery book a success alike, in one transaction
 * with the payment's execution, its ledger entries and its events (completion.ts). Money taken
 * for a payment that another attempt paid first is booked back out and owed back to the payer
 * in that transaction (the attempt's `refund` is 'owed'), then given back at the provider; what
 * stays owed (no answer, a crash) the reconciler gives back later.
 */

type TSettleContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'jobs'>;

/**
 * Whether an attempt's card is kept to be saved: the payer asked, and the charge has an owner who
 * alone can save it (the signed-in payer, or the page holding the charge's token).
 */
export const savesCard = (
  attempt: Pick<TAttemptRow, 'saveCard' | 'payerId' | 'ownerTokenHash'>,
): boolean => attempt.saveCard && (attempt.payerId !== null || attempt.ownerTokenHash !== null);

const cardOrigin = (attempt: TAttemptRow, card: TCardSummary): TPaymentOrigin => ({
  paymentMethod: 'card',
  obfuscatedCard: obfuscateCard(card),
  maskedCardNumber: obfuscateCard(card),
  schemeImageUrl: null,
  isNewCard: true,
  shouldPromptCardLinking: attempt.saveCard,
});

/** What a debited payment records as where its money came from (spec §3 Payment.origin). */
export function accountOrigin(account: typeof payerAccounts.$inferSelect): TPaymentOrigin {
  return {
    paymentMethod: 'bank_transfer',
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    institutionCode: account.institutionCode,
    bankId: account.id,
    bankName: account.bankName,
    logo: `/api/bank-logos/${encodeURIComponent(account.institutionCode)}`,
    isNewAccount: false,
    shouldPromptBankAccountLinking: false,
    shouldPromptCardLinking: false,
  };
}

/** What became of money owed back: given back, or still owed (the provider did not answer). */
export type TGiveBack = 'given_back' | 'pending';

/**
 * Gives back what an attempt took once its refund is owed (a card refund, a debit's reversal, a
 * chip purchase's reversal, a refund of the transaction a pushed terminal's payment request
 * produced, each with the attempt's id as our reference), and marks it settled. A provider that
 * does not answer leaves it owed, for the reconciler, whose requery names a pushed terminal's
 * transaction where the attempt kept none.
 */
export async function giveBack(
  ctx: TSettleContext,
  attempt: TAttemptRow,
  providerReference: string,
): Promise<TGiveBack> {
  const reference = attempt.id;
  try {
    switch (attempt.method) {
      case 'card':
        await ctx.providers.registry.portOf(attempt.provider, 'cards').refundCard({
          providerReference,
          amount: attempt.amount,
          reference,
        });
        break;
      case 'account':
        await reverseAttemptDebit(ctx.db, ctx.providers.registry, attempt, providerReference);
        break;
      case 'chip_card': {
        const acquirer = ctx.providers.registry.portOf(attempt.provider, 'acquirer');
        if (acquirer.kind === 'push') {
          if (!attempt.chargeReference)
            throw new Error(`Attempt ${attempt.id}: no transaction kept`);
          await acquirer.givePaymentBack({
            transaction: attempt.chargeReference,
            amount: attempt.amount,
            reference,
          });
          break;
        }
        await acquirer.terminalReverse({
          providerReference,
          amount: attempt.amount,
          reference,
        });
        break;
      }
      case 'bank_transfer':
        // A transfer that reaches a paid payment is returned by its bank, never booked.
        throw new Error(`Attempt ${attempt.id}: a transfer is not given back here`);
    }
  } catch {
    return 'pending';
  }
  await markRefundSettled(ctx, attempt.id);
  return 'given_back';
}

/** The attempt owes nothing back any more (given back, or never taken), in one statement. */
export async function markRefundSettled(ctx: TSettleContext, attemptId: string): Promise<void> {
  await moveGiveBack(ctx.db, attemptId, 'giveBack', ctx.clock.now());
}

/**
 * Records a refund an operator made at the provider for money left to them ('by_hand': a pushed
 * terminal's, owed before its transaction was kept and so given back by no call), with the
 * provider's reference of it, in one statement: answers false when the attempt owes nothing by
 * hand (unknown, given back already, or owed for the reconciler to give back).
 */
export async function recordRefundGivenBack(
  ctx: Pick<TSettleContext, 'db' | 'clock'>,
  attemptId: string,
  refundReference: string,
): Promise<boolean> {
  const recorded = await moveGiveBack(ctx.db, attemptId, 'givenBackByHand', ctx.clock.now(), {
    refundReference,
  });
  return recorded !== null;
}

/**
 * Books what the provider took (completeAttempt), in a transaction of its own with what the way of
 * paying keeps beside it (`alongside`); a payment paid meanwhile gets the money back (giveBack).
 */
async function settleTaken(
  ctx: TSettleContext,
  request: TCompletionRequest,
  providerReference: string,
  alongside?: (tx: TDb, now: Date) => Promise<void>,
): Promise<TCompletion> {
  const now = ctx.clock.now();
  const completion = await ctx.db.transaction(async (tx) => {
    const completed = await completeAttempt(ctx.jobs, tx, request, now);
    await alongside?.(tx, now);
    return completed;
  });
  if (!paidThePayment(completion)) {
    await giveBack(ctx, { ...request.attempt, ...request.taken }, providerReference);
  }
  return completion;
}

/** Books a card charge the network took; a payment paid meanwhile gets the money back. */
export async function settleCardCharge(
  ctx: TSettleContext,
  attempt: TAttemptRow,
  charged: { providerReference: string; card: TCardSummary; token: string | null },
): Promise<TCompletion> {
  const { card, providerReference } = charged;
  const cardColumns = { cardBrand: card.brand, cardFirst6: card.first6, cardLast4: card.last4 };
  // The card is kept for POST /api/payments/save-card only where its owner asked (savesCard).
  const cardToken = savesCard(attempt) ? charged.token : null;
  return settleTaken(
    ctx,
    {
      attempt: { ...attempt, ...cardColumns },
      taken: { providerReference, cardToken, ...cardColumns },
      origin: cardOrigin(attempt, card),
      event: {
        paymentType: 'card',
        payerCard: { obfuscatedCard: obfuscateCard(card), brand: card.brand },
        shouldPromptCardLinking: attempt.saveCard,
        shouldPromptBankAccountLinking: false,
        // Kept, waiting for the account it goes on ('Enter Account Number', spec §2).
        cardWasSaved: cardToken !== null,
      },
    },
    providerReference,
  );
}

/** Books a saved account's debit the bank made; a payment paid meanwhile gets it reversed. */
export async function settleDebit(
  ctx: TSettleContext,
  attempt: TAttemptRow,
  account: typeof payerAccounts.$inferSelect,
  providerReference: string,
): Promise<TCompletion> {
  return settleTaken(
    ctx,
    {
      attempt,
      taken: { providerReference },
      origin: accountOrigin(account),
      event: {
        paymentType: 'account',
        payerBank: {
          bankName: account.bankName,
          accountName: account.accountName,
          accountNumber: account.accountNumber,
          institutionCode: account.institutionCode,
        },
        shouldPromptBankAccountLinking: false,
        shouldPromptCardLinking: false,
      },
    },
    providerReference,
  );
}

/** The saved account a debit attempt debited. */
export async function debitedAccount(
  ctx: TSettleContext,
  attempt: TAttemptRow,
): Promise<typeof payerAccounts.$inferSelect> {
  const [account] = attempt.debitAccountId
    ? await ctx.db.select().from(payerAccounts).where(eq(payerAccounts.id, attempt.debitAccountId))
    : [];
  if (!account) throw new Error(`Attempt ${attempt.id} names no account it debited`);
  return account;
}

/** Books a chip purchase the acquirer approved; a payment paid meanwhile gets it reversed. */
export async function settleChipPurchase(
  ctx: TSettleContext,
  attempt: TAttemptRow,
  /**
   * A pushed terminal's payment request names no authorisation code, and took the money by a
   * transaction of its own (chargeReference).
   */
  approved: { providerReference: string; authCode: string | null; chargeReference?: string },
): Promise<TCompletion> {
  const { providerReference, authCode } = approved;
  const chargeReference = approved.chargeReference ?? null;
  const [purchase] = await ctx.db
    .select({ maskedPan: terminalPurchases.maskedPan })
    .from(terminalPurchases)
    .where(eq(terminalPurchases.attemptId, attempt.id));
  const maskedPan =
    purchase?.maskedPan ??
    obfuscateCard({ first6: attempt.cardFirst6 ?? '', last4: attempt.cardLast4 ?? '' });
  return settleTaken(
    ctx,
    {
      attempt,
      taken: { providerReference, chargeReference },
      origin: {
        paymentMethod: 'card',
        obfuscatedCard: maskedPan,
        maskedCardNumber: maskedPan,
        schemeImageUrl: null,
        isNewCard: false,
        shouldPromptCardLinking: false,
      },
      event: {
        paymentType: 'chip_card',
        payerCard: { obfuscatedCard: maskedPan, brand: attempt.cardBrand },
        // A chip purchase leaves no token to save the card with.
        shouldPromptCardLinking: false,
        shouldPromptBankAccountLinking: false,
        cardWasSaved: false,
      },
    },
    providerReference,
    (tx, now) => recordAcquirerCodes(tx, attempt, { responseCode: '00', authCode }, now),
  );
}

/** The acquirer's response and authorisation codes, kept with the purchase. */
async function recordAcquirerCodes(
  db: TSettleContext['db'],
  attempt: TAttemptRow,
  codes: { responseCode: string; authCode: string | null },
  now: Date,
): Promise<void> {
  await db
    .update(terminalPurchases)
    .set({ responseCode: codes.responseCode, authCode: codes.authCode, updatedAt: now })
    .where(eq(terminalPurchases.attemptId, attempt.id));
}

/** The acquirer's answer to a purchase it declined: its codes, and its reference on the attempt. */
export async function recordAcquirerAnswer(
  db: TSettleContext['db'],
  attempt: TAttemptRow,
  answer: { responseCode: string; authCode: string | null; providerReference: string | null },
  now: Date,
): Promise<void> {
  await recordAcquirerCodes(db, attempt, answer, now);
  await db
    .update(paymentAttempts)
    .set({ providerReference: answer.providerReference })
    .where(eq(paymentAttempts.id, attempt.id));
}

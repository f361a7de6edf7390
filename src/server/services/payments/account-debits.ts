import { and, eq, inArray } from 'drizzle-orm';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts, paymentAttempts } from '../../db/schema';
import type { TAccountDebitOutcome } from '../../providers/payments';
import { AppError } from '../app-error';
import { reconcilePayment } from './lost-attempts';
import {
  emitPaymentEvent,
  failAttempt,
  insertAttempt,
  lockPendingPayment,
  loadPayable,
  type TAttemptRow,
} from './payment-records';
import { settleDebit } from './settlements';

/*
 * Paying from a saved account (spec §2 'OneTap', docs/payments.md "Saved-account payments"): the
 * immediate payment is debited at the grant from one of the payer's linked accounts, on the
 * mandate its link activated. The attempt is 'charging' while the bank is asked, so a second
 * grant of the same consent at once waits its turn (409) instead of debiting again; the bank
 * itself answers a repeated reference with what it did the first time. A debit whose answer was
 * lost stays 'charging' until the bank is asked about its reference (lost-attempts.ts).
 */

type TDebitContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;

export type TLinkedAccount = {
  account: typeof payerAccounts.$inferSelect;
  /** The account link whose active mandate the debit runs on. */
  mandateId: string;
};

/** The payer's accounts among `accountIds` that are linked (an active mandate), by id. */
export async function linkedAccountsOf(
  db: TDb,
  payerId: string,
  accountIds: readonly string[],
): Promise<Map<string, TLinkedAccount>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({ account: payerAccounts, mandateId: accountLinks.id })
    .from(payerAccounts)
    .innerJoin(
      accountLinks,
      and(eq(accountLinks.accountId, payerAccounts.id), eq(accountLinks.state, 'active')),
    )
    .where(and(eq(payerAccounts.payerId, payerId), inArray(payerAccounts.id, [...accountIds])));
  return new Map(rows.map((row) => [row.account.id, row]));
}

export type TDebitResult = { debited: true } | { debited: false; reason: string };

async function askBank(
  ctx: TDebitContext,
  attempt: TAttemptRow,
  linked: TLinkedAccount,
  narration: string,
): Promise<TAccountDebitOutcome | null> {
  try {
    return await ctx.providers.payments.debitAccount({
      reference: attempt.id,
      mandateReference: linked.mandateId,
      institutionCode: linked.account.institutionCode,
      accountNumber: linked.account.accountNumber,
      amount: attempt.amount,
      narration,
    });
  } catch {
    return null;
  }
}

/**
 * Debits the consent's immediate payment from the payer's linked account. A failed debit ends the
 * attempt (its event says 'Direct debit payment failed') and answers why; the payment stays
 * pending, so the payer may try another account or method. A bank that does not answer leaves
 * the attempt 'charging' for the reconciler, and the grant answers the failure meanwhile.
 */
export async function debitImmediatePayment(
  ctx: TDebitContext,
  request: { paymentId: string; payerId: string; linked: TLinkedAccount },
): Promise<TDebitResult> {
  const { db, clock } = ctx;
  const now = clock.now();
  const payable = await loadPayable(db, request.paymentId, { payerId: request.payerId }, now);
  // A debit whose answer was lost is asked about first: booked if the bank took it.
  await reconcilePayment(ctx, payable.payment.id);
  const attempt = await db.transaction(async (tx) => {
    await lockPendingPayment(tx, payable.payment.id);
    const inserted = await insertAttempt(tx, {
      paymentId: payable.payment.id,
      consentId: payable.consentId,
      method: 'account',
      status: 'in_progress',
      stage: 'charging',
      amount: payable.payment.amount,
      payerId: request.payerId,
      provider: ctx.providers.payments.name,
      debitAccountId: request.linked.account.id,
      createdAt: now,
      updatedAt: now,
    });
    await emitPaymentEvent(tx, { paymentId: payable.payment.id, status: 'in_progress' }, inserted);
    return inserted;
  });
  const outcome = await askBank(ctx, attempt, request.linked, payable.payment.narration);
  // No answer: whether the money moved is not known, so the attempt stays for the reconciler.
  if (!outcome) return { debited: false, reason: 'no_answer' };
  if (outcome.kind === 'failed') {
    if (outcome.providerReference) {
      await db
        .update(paymentAttempts)
        .set({ providerReference: outcome.providerReference })
        .where(eq(paymentAttempts.id, attempt.id));
    }
    await failAttempt(
      db,
      attempt,
      new AppError('DIRECT_DEBIT_FAILED'),
      outcome.reason,
      clock.now(),
    );
    return { debited: false, reason: outcome.reason };
  }
  const completion = await settleDebit(
    ctx,
    attempt,
    request.linked.account,
    outcome.providerReference,
  );
  // Paid meanwhile by another way: this debit was booked back out and reversed.
  if (!completion.completed) throw new AppError('PAYMENT_ALREADY_MADE');
  return { debited: true };
}

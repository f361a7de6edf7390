import { and, eq, inArray } from 'drizzle-orm';
import type { TPaymentOrigin } from '../../../domain/schemas/consent';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts, paymentAttempts } from '../../db/schema';
import type { TAccountDebitOutcome } from '../../providers/payments';
import { AppError } from '../app-error';
import {
  completeAttempt,
  emitPaymentEvent,
  endStaleCharges,
  failAttempt,
  insertAttempt,
  lockPendingPayment,
  loadPayable,
  type TAttemptRow,
} from './payment-records';

/*
 * Paying from a saved account (spec §2 'OneTap', docs/payments.md "Saved-account payments"): the
 * immediate payment is debited at the grant from one of the payer's linked accounts, on the
 * mandate its link activated. The attempt is 'charging' while the bank is asked, so a second
 * grant of the same consent at once waits its turn (409) instead of debiting again; the bank
 * itself answers a repeated reference with what it did the first time.
 */

type TDebitContext = Pick<TAppContext, 'db' | 'clock' | 'providers'>;

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

/** What a debited payment records as where its money came from (spec §3 Payment.origin). */
export function accountOrigin(account: TLinkedAccount['account']): TPaymentOrigin {
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
 * pending, so the payer may try another account or method.
 */
export async function debitImmediatePayment(
  ctx: TDebitContext,
  request: { paymentId: string; payerId: string; linked: TLinkedAccount },
): Promise<TDebitResult> {
  const { db, clock } = ctx;
  const now = clock.now();
  const payable = await loadPayable(db, request.paymentId, { payerId: request.payerId }, now);
  const attempt = await db.transaction(async (tx) => {
    await lockPendingPayment(tx, payable.payment.id);
    // A debit whose process died waiting for the bank gives way past the stale age: the bank
    // answers its reference if it was taken, and this payment is not blocked for good.
    await endStaleCharges(tx, payable.payment.id, now, 'DIRECT_DEBIT_FAILED', 'stale_debit');
    const inserted = await insertAttempt(tx, {
      paymentId: payable.payment.id,
      consentId: payable.consentId,
      method: 'account',
      status: 'in_progress',
      stage: 'charging',
      amount: payable.payment.amount,
      payerId: request.payerId,
      provider: ctx.providers.payments.name,
      createdAt: now,
      updatedAt: now,
    });
    await emitPaymentEvent(tx, { paymentId: payable.payment.id, status: 'in_progress' });
    return inserted;
  });
  const outcome = await askBank(ctx, attempt, request.linked, payable.payment.narration);
  if (!outcome || outcome.kind === 'failed') {
    if (outcome?.providerReference) {
      await db
        .update(paymentAttempts)
        .set({ providerReference: outcome.providerReference })
        .where(eq(paymentAttempts.id, attempt.id));
    }
    const reason = outcome ? outcome.reason : 'provider_error';
    await failAttempt(db, attempt, new AppError('DIRECT_DEBIT_FAILED'), reason, clock.now());
    return { debited: false, reason };
  }
  const { account } = request.linked;
  // completeAttempt locks the payment first; the attempt's row after it, the order every
  // transaction of a payment takes (a new attempt's too), so two never wait on each other.
  const completion = await db.transaction(async (tx) => {
    const completed = await completeAttempt(
      tx,
      attempt,
      accountOrigin(account),
      {
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
      clock.now(),
    );
    await tx
      .update(paymentAttempts)
      .set({ providerReference: outcome.providerReference })
      .where(eq(paymentAttempts.id, attempt.id));
    return completed;
  });
  if (!completion.completed) {
    // Paid meanwhile by another way: this debit goes back to the account.
    await ctx.providers.payments.reverseDebit({ providerReference: outcome.providerReference });
    throw new AppError('PAYMENT_ALREADY_MADE');
  }
  return { debited: true };
}

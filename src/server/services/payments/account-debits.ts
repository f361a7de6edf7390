import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts } from '../../db/schema';
import type { TAccountDebitOutcome } from '../../providers/payments';
import { AppError } from '../../app-error';
import { paidWith, runAttempt } from './attempts/runner';
import { loadPayable } from './payment-records';
import { settleDebit } from './attempts/settlements';
import { debitableUnderBvn } from '../linking/bvn-ownership';
import { debitsFor } from './mandate-debits';

/*
 * Paying from a saved account (spec §2 'OneTap', docs/payments.md "Saved-account payments"): the
 * immediate payment is debited at the grant from one of the payer's linked accounts, on the
 * mandate its link activated. The attempt is 'charging' while the bank is asked, so a second
 * grant of the same consent at once waits its turn (409) instead of debiting again; the bank
 * itself answers a repeated reference with what it did the first time. A debit whose answer was
 * lost stays 'charging' until the bank is asked about its reference (attempts/reconcile.ts).
 */

type TDebitContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

export type TLinkedAccount = {
  account: typeof payerAccounts.$inferSelect;
  /** The account link whose active mandate the debit runs on. */
  mandateId: string;
  /** What the provider debits it by: the authorisation the bank confirmed, else the link's id. */
  mandateReference: string;
  /** Who keeps the mandate and debits it, where not the debits capability (mandate-debits.ts). */
  mandateProvider: string | null;
  /** Who debits it, named on the link when it was made (mandate-debits.ts debitsFor). */
  debitProvider: string | null;
};

/** SQL: what the provider debits an active link by (TAccountDebitRequest.mandateReference). */
export const mandateReferenceOf = sql<string>`coalesce(${accountLinks.debitAuthorization}, ${accountLinks.id})`;

/** The payer's accounts among `accountIds` that are linked (an active mandate), by id. */
export async function linkedAccountsOf(
  db: TDb,
  payerId: string,
  accountIds: readonly string[],
): Promise<Map<string, TLinkedAccount>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({
      account: payerAccounts,
      mandateId: accountLinks.id,
      mandateReference: mandateReferenceOf,
      mandateProvider: accountLinks.mandateProvider,
      debitProvider: accountLinks.debitProvider,
    })
    .from(payerAccounts)
    .innerJoin(
      accountLinks,
      // Only a link made under the payer's BVN as it is now debits (docs/identity.md "The BVN").
      and(
        eq(accountLinks.accountId, payerAccounts.id),
        eq(accountLinks.state, 'active'),
        debitableUnderBvn,
      ),
    )
    .where(and(eq(payerAccounts.payerId, payerId), inArray(payerAccounts.id, [...accountIds])));
  return new Map(rows.map((row) => [row.account.id, row]));
}

export type TDebitResult = { debited: true } | { debited: false; reason: string };

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
  const { linked } = request;
  const payable = await loadPayable(
    db,
    request.paymentId,
    { payerId: request.payerId },
    clock.now(),
  );
  const debits = debitsFor(ctx.providers, linked);
  return runAttempt<TAccountDebitOutcome, TDebitResult>(ctx, {
    open: {
      payable,
      fields: {
        method: 'account',
        provider: debits.provider,
        payerId: request.payerId,
        debitAccountId: linked.account.id,
      },
    },
    call: (attempt) =>
      debits.debitAccount({
        reference: attempt.id,
        mandateReference: linked.mandateReference,
        payerId: request.payerId,
        institutionCode: linked.account.institutionCode,
        accountNumber: linked.account.accountNumber,
        amount: attempt.amount,
        narration: payable.payment.narration,
      }),
    // No answer: whether the money moved is not known, so the attempt stays for the reconciler.
    noAnswer: () => ({ debited: false, reason: 'no_answer' }),
    answer: async (attempt, outcome) =>
      // Waiting at the bank: whether the money moves is not known yet, as with no answer.
      outcome.kind === 'pending'
        ? { kind: 'wait', record: async () => ({ debited: false, reason: 'no_answer' }) }
        : outcome.kind === 'failed'
          ? {
              kind: 'fail',
              failure: new AppError('DIRECT_DEBIT_FAILED'),
              reason: outcome.reason,
              change: outcome.providerReference
                ? { providerReference: outcome.providerReference }
                : {},
              result: { debited: false, reason: outcome.reason },
            }
          : paidWith(
              () => settleDebit(ctx, attempt, linked.account, outcome.providerReference),
              () => ({ debited: true }),
            ),
  });
}

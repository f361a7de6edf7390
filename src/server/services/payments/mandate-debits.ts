import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts } from '../../db/schema';
import type {
  TDebitsPort,
  TPaymentProviders,
  TRequeryOutcome,
  TSettlementPort,
} from '../../providers/payments';
import { capabilityOff, isOff, usable } from '../../providers/off';

/**
 * Who debits a link's mandate: the debits capability, unless the link's mandate is kept by the
 * mandates capability's own provider (TOwnMandates: Remita), whose debits it then is. A mandate
 * of a provider this server no longer runs is debited by no one: its calls refuse, as an off
 * capability's do.
 */
export function debitsFor(
  payments: TPaymentProviders,
  mandateProvider: string | null,
): TDebitsPort {
  // An attempt names the adapter that debited it ('off' for none): the debits capability's then.
  if (mandateProvider === null || mandateProvider === payments.debits.provider) {
    return usable(payments.debits);
  }
  const { mandates } = payments;
  if (!isOff(mandates) && mandates.provider === mandateProvider && mandates.own) {
    return mandates.own.debits;
  }
  throw capabilityOff(['debits']);
}

/**
 * The settlement report with the debits on the mandates capability's own mandates added (Remita
 * keeps no report by our reference): each debit we made on one, as its provider answers when
 * asked about it (a collection's try that succeeded, a saved-account payment's attempt). What
 * `npm run ledger:check` compares with the books; a debit the provider took that we never
 * recorded is not in it.
 */
export function withOwnMandateSettlement(db: TDb, payments: TPaymentProviders): TSettlementPort {
  const { settlement, mandates } = payments;
  return {
    provider: settlement.provider,
    async settlementReport(period) {
      const lines = [...(await settlement.settlementReport(period))];
      const own = isOff(mandates) ? undefined : mandates.own;
      if (!own) return lines;
      const result: unknown = await db.execute(sql`
        SELECT t->>'reference' AS reference, l.debit_authorization AS mandate
        FROM future_payment_collections c
        CROSS JOIN LATERAL jsonb_array_elements(c.tries) t
        JOIN account_links l ON l.account_id = t->>'accountId'
          AND l.mandate_provider = ${mandates.provider} AND l.debit_authorization IS NOT NULL
        WHERE t->>'outcome' = 'succeeded'
        UNION
        SELECT a.id, l.debit_authorization
        FROM payment_attempts a
        JOIN account_links l ON l.account_id = a.debit_account_id
          AND l.mandate_provider = ${mandates.provider} AND l.debit_authorization IS NOT NULL
        WHERE a.provider = ${mandates.provider} AND a.method = 'account'`);
      const seen = new Set<string>();
      for (const row of (result as { rows: Array<{ reference: string; mandate: string }> }).rows) {
        if (seen.has(row.reference)) continue;
        const answer = await own.debits.requeryDebit(row.reference, row.mandate);
        if (answer.kind !== 'taken') continue;
        seen.add(row.reference);
        lines.push({
          channel: 'debit',
          reference: row.reference,
          amount: answer.amount,
          givenBack: answer.givenBack,
          provider: mandates.provider,
        });
      }
      return lines;
    },
  };
}

/** A saved-account payment's attempt: its reference, who debited it, and the account. */
type TDebitAttempt = {
  id: string;
  provider: string;
  debitAccountId: string | null;
  createdAt: Date;
};

/**
 * The debit's account and, for a provider that keeps its mandates, the mandate it ran on: the
 * account's link of that provider active last when the attempt began (a link made after it is
 * another mandate, where the provider knows nothing of this debit and would answer 'not taken').
 */
async function debitedAccountOf(db: TDb, attempt: TDebitAttempt) {
  if (!attempt.debitAccountId) return null;
  const [row] = await db
    .select({ account: payerAccounts, mandate: accountLinks.debitAuthorization })
    .from(payerAccounts)
    .leftJoin(
      accountLinks,
      and(
        eq(accountLinks.accountId, payerAccounts.id),
        eq(accountLinks.mandateProvider, attempt.provider),
        isNotNull(accountLinks.activatedAt),
        lte(accountLinks.activatedAt, attempt.createdAt),
      ),
    )
    .where(eq(payerAccounts.id, attempt.debitAccountId))
    .orderBy(desc(accountLinks.activatedAt))
    .limit(1);
  return row ?? null;
}

/**
 * Asks the provider that made a saved-account payment's debit what became of it (the attempt's
 * provider, never another: one that never had the reference would close it as not taken).
 */
export async function requeryAttemptDebit(
  db: TDb,
  payments: TPaymentProviders,
  attempt: TDebitAttempt,
): Promise<TRequeryOutcome> {
  const debits = debitsFor(payments, attempt.provider);
  if (debits === payments.debits) return debits.requeryDebit(attempt.id);
  const debited = await debitedAccountOf(db, attempt);
  return debits.requeryDebit(attempt.id, debited?.mandate ?? undefined);
}

/** Gives a saved-account payment's debit back through the provider that made it. */
export async function reverseAttemptDebit(
  db: TDb,
  payments: TPaymentProviders,
  attempt: TDebitAttempt,
  providerReference: string,
): Promise<void> {
  const debits = debitsFor(payments, attempt.provider);
  const debited = debits === payments.debits ? null : await debitedAccountOf(db, attempt);
  await debits.reverseDebit({
    providerReference,
    reference: attempt.id,
    ...(debited ? { account: debited.account } : {}),
  });
}

import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { sandboxAccounts, sandboxDebits } from '../db/schema';
import type { TAccountDebitOutcome, TAccountDebitRequest } from '../providers/payments';
import { SANDBOX_ACCOUNTS } from './fixtures';

/*
 * The sandbox bank's direct debits (docs/sandbox.md "Direct debits"): a test account's balance
 * starts at its fixture's and each debit takes from it, in one statement that refuses to go below
 * zero, so the 'insufficient_funds' account fails and two debits at once never overdraw. Every
 * debit is recorded under our reference: asking again answers what was done the first time.
 */

const PROVIDER_REFERENCE_PREFIX = 'sbx_dd_';

const outcomeOf = (row: typeof sandboxDebits.$inferSelect): TAccountDebitOutcome =>
  row.outcome === 'succeeded'
    ? { kind: 'succeeded', providerReference: row.providerReference }
    : { kind: 'failed', providerReference: row.providerReference, reason: row.outcome };

export async function debitSandboxAccount(
  db: TDb,
  clock: TClock,
  request: TAccountDebitRequest,
): Promise<TAccountDebitOutcome> {
  const now = clock.now();
  const fixture = SANDBOX_ACCOUNTS.find(
    (a) =>
      a.institutionCode === request.institutionCode && a.accountNumber === request.accountNumber,
  );
  return db.transaction(async (tx) => {
    const [earlier] = await tx
      .select()
      .from(sandboxDebits)
      .where(eq(sandboxDebits.reference, request.reference))
      .for('update');
    if (earlier) return outcomeOf(earlier);
    let outcome: (typeof sandboxDebits.$inferSelect)['outcome'] = 'account_not_found';
    if (fixture && Number.isSafeInteger(request.amount) && request.amount > 0) {
      // The account's row is made at its first debit, with the fixture's opening balance.
      await tx
        .insert(sandboxAccounts)
        .values({
          institutionCode: fixture.institutionCode,
          accountNumber: fixture.accountNumber,
          accountName: fixture.accountName,
          balance: fixture.balance,
        })
        .onConflictDoNothing();
      const [debited] = await tx
        .update(sandboxAccounts)
        .set({ balance: sql`${sandboxAccounts.balance} - ${request.amount}` })
        .where(
          and(
            eq(sandboxAccounts.institutionCode, fixture.institutionCode),
            eq(sandboxAccounts.accountNumber, fixture.accountNumber),
            gte(sandboxAccounts.balance, request.amount),
          ),
        )
        .returning({ balance: sandboxAccounts.balance });
      outcome = debited ? 'succeeded' : 'insufficient_funds';
    }
    const [row] = await tx
      .insert(sandboxDebits)
      .values({
        reference: request.reference,
        providerReference: `${PROVIDER_REFERENCE_PREFIX}${request.reference}`,
        institutionCode: request.institutionCode,
        accountNumber: request.accountNumber,
        amount: request.amount,
        outcome,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error(`Sandbox debit ${request.reference} was not recorded`);
    return outcomeOf(row);
  });
}

/** Gives a succeeded debit back to its account; a second call finds it given back already. */
export async function reverseSandboxDebit(
  db: TDb,
  clock: TClock,
  providerReference: string,
): Promise<{ reversed: true }> {
  await db.transaction(async (tx) => {
    const [debit] = await tx
      .update(sandboxDebits)
      .set({ reversedAt: clock.now() })
      .where(
        and(
          eq(sandboxDebits.providerReference, providerReference),
          eq(sandboxDebits.outcome, 'succeeded'),
          isNull(sandboxDebits.reversedAt),
        ),
      )
      .returning();
    if (!debit) return;
    await tx
      .update(sandboxAccounts)
      .set({ balance: sql`${sandboxAccounts.balance} + ${debit.amount}` })
      .where(
        and(
          eq(sandboxAccounts.institutionCode, debit.institutionCode),
          eq(sandboxAccounts.accountNumber, debit.accountNumber),
        ),
      );
  });
  return { reversed: true };
}

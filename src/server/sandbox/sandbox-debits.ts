import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { sandboxAccounts, sandboxDebits, sandboxPayouts } from '../db/schema';
import type {
  TAccountDebitOutcome,
  TAccountDebitRequest,
  TPayoutOutcome,
  TPayoutRequest,
  TRequeryOutcome,
  TSettlementLine,
} from '../providers/payments';
import type { TSandboxAccount } from './fixtures';
import { findSandboxAccount } from './sandbox-people';

/*
 * The sandbox bank's direct debits and payouts (docs/sandbox.md "Direct debits"): a test
 * account's balance starts at its fixture's and each debit takes from it, in one statement that
 * refuses to go below zero, so the 'insufficient_funds' account fails and two debits at once
 * never overdraw; a payout adds to it. Every debit and payout is recorded under our reference,
 * claimed in one statement: asking again answers what was done the first time, and a requery
 * reads the record (a reference never seen is closed, 'expired', so a late call is refused).
 */

const PROVIDER_REFERENCE_PREFIX = 'sbx_dd_';
const PAYOUT_REFERENCE_PREFIX = 'sbx_po_';

/**
 * Makes a test account's row, with its opening balance (a minted account's is its scenario's
 * fixture's), where it has none yet.
 */
export async function openAccount(tx: TDb, fixture: TSandboxAccount): Promise<void> {
  await tx
    .insert(sandboxAccounts)
    .values({
      institutionCode: fixture.institutionCode,
      accountNumber: fixture.accountNumber,
      accountName: fixture.accountName,
      balance: fixture.balance,
    })
    .onConflictDoNothing();
}

const outcomeOf = (row: typeof sandboxDebits.$inferSelect): TAccountDebitOutcome =>
  row.outcome === 'succeeded'
    ? { kind: 'succeeded', providerReference: row.providerReference }
    : { kind: 'failed', providerReference: row.providerReference, reason: row.outcome };

export async function debitSandboxAccount(
  db: TDb,
  clock: TClock,
  request: TAccountDebitRequest,
): Promise<TAccountDebitOutcome> {
  const fixture = await findSandboxAccount(db, request);
  const valid = fixture && Number.isSafeInteger(request.amount) && request.amount > 0;
  return db.transaction(async (tx) => {
    const { row: claimed, first } = await claimBankRecord(
      tx,
      sandboxDebits,
      request,
      valid ? 'succeeded' : 'account_not_found',
      clock.now(),
    );
    if (!first || !fixture || !valid) return outcomeOf(claimed);
    await openAccount(tx, fixture);
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
    if (debited) return outcomeOf(claimed);
    const [refused] = await tx
      .update(sandboxDebits)
      .set({ outcome: 'insufficient_funds' })
      .where(eq(sandboxDebits.reference, request.reference))
      .returning();
    if (!refused) throw new Error(`Sandbox debit ${request.reference} vanished`);
    return outcomeOf(refused);
  });
}

type TBankRecord = typeof sandboxDebits.$inferSelect;

/**
 * Records a call with `reference` in the bank's table of debits or payouts, in one statement, or
 * finds the record of the first call with it (a second call waits for the first, then finds its
 * row): `first` says which.
 */
async function claimBankRecord(
  tx: TDb,
  table: typeof sandboxDebits | typeof sandboxPayouts,
  request: { reference: string; institutionCode: string; accountNumber: string; amount: number },
  outcome: TBankRecord['outcome'],
  now: Date,
): Promise<{ row: TBankRecord; first: boolean }> {
  const prefix = table === sandboxDebits ? PROVIDER_REFERENCE_PREFIX : PAYOUT_REFERENCE_PREFIX;
  // Both tables have these columns; a payout's row has no reversal (never given back).
  const records = table as typeof sandboxDebits;
  const [claimed] = await tx
    .insert(records)
    .values({
      reference: request.reference,
      providerReference: `${prefix}${request.reference}`,
      institutionCode: request.institutionCode,
      accountNumber: request.accountNumber,
      amount: Number.isSafeInteger(request.amount) ? request.amount : 0,
      outcome,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (claimed) return { row: claimed, first: true };
  const [earlier] = await tx.select().from(records).where(eq(records.reference, request.reference));
  if (!earlier) throw new Error(`Sandbox record ${request.reference} conflicted but is missing`);
  return { row: earlier, first: false };
}

/**
 * What the bank says of the debit (`sandboxDebits`) or payout (`sandboxPayouts`) with
 * `reference`, from its record: a reference it never saw is closed first (recorded 'expired',
 * nothing moved), so a call that arrives with it later is refused.
 */
export async function requeryBankRecord(
  db: TDb,
  clock: TClock,
  table: typeof sandboxDebits | typeof sandboxPayouts,
  reference: string,
): Promise<TRequeryOutcome> {
  const nothing = { reference, institutionCode: '', accountNumber: '', amount: 0 };
  const { row } = await claimBankRecord(db, table, nothing, 'expired', clock.now());
  return row.outcome === 'succeeded'
    ? {
        kind: 'taken',
        providerReference: row.providerReference,
        amount: row.amount,
        givenBack: Boolean(row.reversedAt),
      }
    : { kind: 'not_taken', providerReference: row.providerReference, reason: row.outcome };
}

/** The bank's lines of the settlement report: every debit and payout that moved money. */
export async function bankSettlementLines(db: TDb): Promise<TSettlementLine[]> {
  const debits = await db
    .select()
    .from(sandboxDebits)
    .where(eq(sandboxDebits.outcome, 'succeeded'));
  const paid = await db
    .select()
    .from(sandboxPayouts)
    .where(eq(sandboxPayouts.outcome, 'succeeded'));
  return [
    ...debits.map((row) => ({
      channel: 'debit' as const,
      reference: row.reference,
      amount: row.amount,
      givenBack: row.reversedAt !== null,
    })),
    ...paid.map((row) => ({
      channel: 'payout' as const,
      reference: row.reference,
      amount: row.amount,
      givenBack: false,
    })),
  ];
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

/**
 * Credits a test account with a payout, once per reference: a repeated call (a retry after a
 * lost answer) answers the first outcome. A number that is not a test account is refused, as a
 * bank refuses an unknown account.
 */
export async function payOutToSandboxAccount(
  db: TDb,
  clock: TClock,
  request: TPayoutRequest,
): Promise<TPayoutOutcome> {
  const fixture = await findSandboxAccount(db, request);
  const valid = fixture && Number.isSafeInteger(request.amount) && request.amount > 0;
  const row = await db.transaction(async (tx) => {
    const { row: claimed, first } = await claimBankRecord(
      tx,
      sandboxPayouts,
      request,
      valid ? 'succeeded' : 'account_not_found',
      clock.now(),
    );
    if (!first) return claimed;
    if (fixture && claimed.outcome === 'succeeded') {
      await openAccount(tx, fixture);
      await tx
        .update(sandboxAccounts)
        .set({ balance: sql`${sandboxAccounts.balance} + ${request.amount}` })
        .where(
          and(
            eq(sandboxAccounts.institutionCode, fixture.institutionCode),
            eq(sandboxAccounts.accountNumber, fixture.accountNumber),
          ),
        );
    }
    return claimed;
  });
  const { providerReference, outcome } = row;
  if (outcome === 'succeeded') return { kind: 'succeeded', providerReference };
  // A payout is never refused for funds: its failures are these two.
  return {
    kind: 'failed',
    providerReference,
    reason: outcome === 'expired' ? 'expired' : 'account_not_found',
  };
}

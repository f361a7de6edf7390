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
import { SANDBOX_ACCOUNTS } from './fixtures';

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

const fixtureOf = (request: { institutionCode: string; accountNumber: string }) =>
  SANDBOX_ACCOUNTS.find(
    (a) =>
      a.institutionCode === request.institutionCode && a.accountNumber === request.accountNumber,
  );

/** Makes a test account's row, with its fixture's opening balance, where it has none yet. */
async function openAccount(tx: TDb, fixture: (typeof SANDBOX_ACCOUNTS)[number]): Promise<void> {
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
  const fixture = fixtureOf(request);
  const valid = fixture && Number.isSafeInteger(request.amount) && request.amount > 0;
  return db.transaction(async (tx) => {
    // The reference's row is claimed first: a second call (or a requery) waits for this one,
    // then finds it.
    const [claimed] = await tx
      .insert(sandboxDebits)
      .values({
        reference: request.reference,
        providerReference: `${PROVIDER_REFERENCE_PREFIX}${request.reference}`,
        institutionCode: request.institutionCode,
        accountNumber: request.accountNumber,
        amount: Number.isSafeInteger(request.amount) ? request.amount : 0,
        outcome: valid ? 'succeeded' : 'account_not_found',
        createdAt: clock.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!claimed) {
      const [earlier] = await tx
        .select()
        .from(sandboxDebits)
        .where(eq(sandboxDebits.reference, request.reference));
      if (!earlier) throw new Error(`Sandbox debit ${request.reference} was not recorded`);
      return outcomeOf(earlier);
    }
    if (!fixture || !valid) return outcomeOf(claimed);
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

/** What the bank says of the debit with `reference`: a reference it never saw is closed. */
export async function requerySandboxDebit(
  db: TDb,
  clock: TClock,
  reference: string,
): Promise<TRequeryOutcome> {
  await db
    .insert(sandboxDebits)
    .values({ ...expiredRecord(reference, PROVIDER_REFERENCE_PREFIX), createdAt: clock.now() })
    .onConflictDoNothing();
  const [row] = await db.select().from(sandboxDebits).where(eq(sandboxDebits.reference, reference));
  if (!row) throw new Error(`Sandbox debit ${reference} was not recorded`);
  return row.outcome === 'succeeded'
    ? {
        kind: 'taken',
        providerReference: row.providerReference,
        amount: row.amount,
        givenBack: row.reversedAt !== null,
      }
    : { kind: 'not_taken', providerReference: row.providerReference, reason: row.outcome };
}

/** What the bank says of the payout with `reference`: a reference it never saw is closed. */
export async function requerySandboxPayout(
  db: TDb,
  clock: TClock,
  reference: string,
): Promise<TRequeryOutcome> {
  await db
    .insert(sandboxPayouts)
    .values({ ...expiredRecord(reference, PAYOUT_REFERENCE_PREFIX), createdAt: clock.now() })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(sandboxPayouts)
    .where(eq(sandboxPayouts.reference, reference));
  if (!row) throw new Error(`Sandbox payout ${reference} was not recorded`);
  return row.outcome === 'succeeded'
    ? {
        kind: 'taken',
        providerReference: row.providerReference,
        amount: row.amount,
        givenBack: false,
      }
    : { kind: 'not_taken', providerReference: row.providerReference, reason: row.outcome };
}

/** The record of a reference closed by a requery before any call with it arrived. */
const expiredRecord = (reference: string, prefix: string) =>
  ({
    reference,
    providerReference: `${prefix}${reference}`,
    institutionCode: '',
    accountNumber: '',
    amount: 0,
    outcome: 'expired',
  }) as const;

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
 * lost answer, or the runner finishing a payout whose process stopped) answers the first
 * outcome. A number that is not a test account is refused, as a bank refuses an unknown account.
 */
export async function payOutToSandboxAccount(
  db: TDb,
  clock: TClock,
  request: TPayoutRequest,
): Promise<TPayoutOutcome> {
  const fixture = fixtureOf(request);
  const valid = fixture && Number.isSafeInteger(request.amount) && request.amount > 0;
  const row = await db.transaction(async (tx) => {
    // The reference's row is claimed first: a second call waits for the first, then finds it.
    const [claimed] = await tx
      .insert(sandboxPayouts)
      .values({
        reference: request.reference,
        providerReference: `${PAYOUT_REFERENCE_PREFIX}${request.reference}`,
        institutionCode: request.institutionCode,
        accountNumber: request.accountNumber,
        amount: request.amount,
        outcome: valid ? 'succeeded' : 'account_not_found',
        createdAt: clock.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!claimed) {
      const [earlier] = await tx
        .select()
        .from(sandboxPayouts)
        .where(eq(sandboxPayouts.reference, request.reference));
      return earlier;
    }
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
  if (!row) throw new Error(`Sandbox payout ${request.reference} was not recorded`);
  return row.outcome === 'succeeded'
    ? { kind: 'succeeded', providerReference: row.providerReference }
    : { kind: 'failed', providerReference: row.providerReference, reason: row.outcome };
}

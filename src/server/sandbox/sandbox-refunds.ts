import { and, eq, sql } from 'drizzle-orm';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import {
  sandboxAccounts,
  sandboxCardCharges,
  sandboxDebits,
  sandboxRefunds,
  sandboxVirtualAccounts,
} from '../db/schema';
import type {
  TRefundOutcome,
  TRefundRequery,
  TRefundRequest,
  TSettlementLine,
} from '../providers/payments';
import { openAccount } from './sandbox-debits';
import { findSandboxAccount } from './sandbox-people';

/*
 * The sandbox network's refunds (docs/sandbox.md "Refunds"): the card's issuer takes back part or
 * all of a charge it made, the bank puts part or all of a debit back on its account, and a
 * transfer's sender is paid back from the one-time account's bank. Each refund is recorded under
 * our reference, claimed in one statement under a lock on the charge, debit or one-time account
 * it gives back from: refunds of one charge are judged one after the other and never give back
 * more than it took; asking again answers what was done the first time, and a requery of a
 * reference never seen closes it ('expired'), so a late refund with it is refused.
 */

const PROVIDER_REFERENCE_PREFIX = 'sbx_rf_';

type TRefundRow = typeof sandboxRefunds.$inferSelect;

const outcomeOf = (row: TRefundRow): TRefundOutcome =>
  row.outcome === 'processed'
    ? { kind: 'processed', providerReference: row.providerReference }
    : {
        kind: 'failed',
        providerReference: row.providerReference,
        reason: row.reason ?? row.outcome,
      };

/** What the charge, debit or transfer a refund names took, locked while the refund is judged. */
async function lockedSource(
  tx: TDb,
  request: TRefundRequest,
): Promise<
  | { taken: number; account: { institutionCode: string; accountNumber: string } | null }
  | { refused: string }
> {
  switch (request.channel) {
    case 'card': {
      const [charge] = await tx
        .select()
        .from(sandboxCardCharges)
        .where(eq(sandboxCardCharges.providerReference, request.providerReference))
        .for('update');
      if (!charge || charge.status !== 'succeeded') return { refused: 'no_such_charge' };
      if (charge.givenBackAt) return { refused: 'already_given_back' };
      return { taken: charge.amount, account: null };
    }
    case 'debit': {
      const [debit] = await tx
        .select()
        .from(sandboxDebits)
        .where(eq(sandboxDebits.providerReference, request.providerReference))
        .for('update');
      if (!debit || debit.outcome !== 'succeeded') return { refused: 'no_such_debit' };
      if (debit.reversedAt) return { refused: 'already_given_back' };
      return { taken: debit.amount, account: debit };
    }
    case 'transfer': {
      // A transfer's reference at the bank is the one-time account's: ours, for its attempt.
      const [account] = await tx
        .select()
        .from(sandboxVirtualAccounts)
        .where(eq(sandboxVirtualAccounts.reference, request.providerReference))
        .for('update');
      if (!account || account.status !== 'paid') return { refused: 'no_such_transfer' };
      if (!request.sender) return { refused: 'account_not_found' };
      return { taken: account.amount, account: request.sender };
    }
  }
}

/** Refunded before from one charge, debit or transfer: what its processed refunds gave back. */
async function refundedFrom(tx: TDb, request: TRefundRequest): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string | null>`sum(${sandboxRefunds.amount})` })
    .from(sandboxRefunds)
    .where(
      and(
        eq(sandboxRefunds.channel, request.channel),
        eq(sandboxRefunds.chargeReference, request.providerReference),
        eq(sandboxRefunds.outcome, 'processed'),
      ),
    );
  return Number(row?.total ?? 0);
}

/** Records a refund once per reference, or finds the first call's record. */
async function claimRefund(
  tx: TDb,
  values: Omit<typeof sandboxRefunds.$inferInsert, 'providerReference'>,
): Promise<{ row: TRefundRow; first: boolean }> {
  const [claimed] = await tx
    .insert(sandboxRefunds)
    .values({ ...values, providerReference: `${PROVIDER_REFERENCE_PREFIX}${values.reference}` })
    .onConflictDoNothing()
    .returning();
  if (claimed) return { row: claimed, first: true };
  const [earlier] = await tx
    .select()
    .from(sandboxRefunds)
    .where(eq(sandboxRefunds.reference, values.reference));
  if (!earlier) throw new Error(`Sandbox refund ${values.reference} conflicted but is missing`);
  return { row: earlier, first: false };
}

/** Gives money back as the request says, once per reference (TRefundsPort.refund). */
export async function refundInSandbox(
  db: TDb,
  clock: TClock,
  request: TRefundRequest,
): Promise<TRefundOutcome> {
  const sender = request.sender ? await findSandboxAccount(db, request.sender) : null;
  return db.transaction(async (tx) => {
    const [earlier] = await tx
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.reference, request.reference));
    if (earlier) return outcomeOf(earlier);
    const source = await lockedSource(tx, request);
    const amount = Number.isSafeInteger(request.amount) ? request.amount : 0;
    let refused = 'refused' in source ? source.refused : null;
    if (!refused && amount <= 0) refused = 'invalid_amount';
    if (!refused && request.channel === 'transfer' && !sender) refused = 'account_not_found';
    if (!refused && 'taken' in source) {
      if ((await refundedFrom(tx, request)) + amount > source.taken) refused = 'exceeds_charge';
    }
    const account = 'account' in source ? source.account : null;
    const { row, first } = await claimRefund(tx, {
      reference: request.reference,
      channel: request.channel,
      chargeReference: request.providerReference,
      institutionCode: account?.institutionCode ?? null,
      accountNumber: account?.accountNumber ?? null,
      amount,
      outcome: refused ? 'failed' : 'processed',
      reason: refused,
      createdAt: clock.now(),
    });
    if (!first || refused || !account) return outcomeOf(row);
    if (sender) await openAccount(tx, sender);
    await tx
      .update(sandboxAccounts)
      .set({ balance: sql`${sandboxAccounts.balance} + ${amount}` })
      .where(
        and(
          eq(sandboxAccounts.institutionCode, account.institutionCode),
          eq(sandboxAccounts.accountNumber, account.accountNumber),
        ),
      );
    return outcomeOf(row);
  });
}

/**
 * What became of the refund asked with `reference` (TRefundsPort.requeryRefund): a reference the
 * network never saw is closed here (recorded 'expired' against the charge it named, nothing
 * given back). The network finds a refund by its reference at once, however many it holds.
 */
export async function requerySandboxRefund(
  db: TDb,
  clock: TClock,
  { reference, channel, providerReference }: TRefundRequery,
): Promise<TRefundOutcome> {
  const { row } = await claimRefund(db, {
    reference,
    channel,
    chargeReference: providerReference,
    amount: 0,
    outcome: 'expired',
    reason: 'expired',
    createdAt: clock.now(),
  });
  return outcomeOf(row);
}

/** The settlement report's refund lines: every refund that gave money back. */
export async function refundSettlementLines(db: TDb): Promise<TSettlementLine[]> {
  const rows = await db
    .select()
    .from(sandboxRefunds)
    .where(eq(sandboxRefunds.outcome, 'processed'));
  return rows.map((row) => ({
    channel: 'refund' as const,
    reference: row.reference,
    amount: row.amount,
    givenBack: false,
  }));
}

import { sql } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import {
  type LEDGER_ACCOUNT_KINDS,
  type LEDGER_TRANSACTION_KINDS,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
} from '../../db/schema';

/*
 * The double-entry ledger (docs/payments.md "The ledger"): every movement of money is one
 * transaction whose entries sum to zero, in integer kobo, booked in the same database
 * transaction as the state change it records. The database keeps the rules too (migration
 * 0003): entries are append-only, an account's balance moves in the entry's own statement, and
 * a transaction that does not sum to zero cannot commit.
 */

type TAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];
export type TLedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number];

export type TLedgerAccountRef = { id: string; kind: TAccountKind; merchantId: string | null };

/** Our books' accounts, by what they hold. */
export const ledgerAccount = {
  /** Money that came in from outside by this way: a card, a bank transfer, a debit. */
  payerSource: (way: 'card' | 'bank_transfer' | 'account' | 'chip_card'): TLedgerAccountRef => ({
    id: `payer_source:${way}`,
    kind: 'payer_source',
    merchantId: null,
  }),
  /** Test transfers of account links, held between their arrival and their refund. */
  linkTestTransfers: (): TLedgerAccountRef => ({
    id: 'provider_clearing:link_test_transfers',
    kind: 'provider_clearing',
    merchantId: null,
  }),
  /** Test charges of card links, held between the charge and its refund. */
  linkTestCharges: (): TLedgerAccountRef => ({
    id: 'provider_clearing:link_test_charges',
    kind: 'provider_clearing',
    merchantId: null,
  }),
  /** Payouts on their way to a bank: between the wallet and the bank's answer. */
  payoutsInFlight: (): TLedgerAccountRef => ({
    id: 'provider_clearing:payouts',
    kind: 'provider_clearing',
    merchantId: null,
  }),
  /** Money that left our books to a payer's bank account by a payout. */
  payoutDestination: (): TLedgerAccountRef => ({
    id: 'payout_destination:bank_account',
    kind: 'payout_destination',
    merchantId: null,
  }),
  /** A merchant's collection ("shield") wallet: immediate payments land here. */
  collectionWallet: (merchantId: string): TLedgerAccountRef => ({
    id: `collection_wallet:${merchantId}`,
    kind: 'collection_wallet',
    merchantId,
  }),
};

export type TBooking = {
  kind: TLedgerTransactionKind;
  /** Unique per kind: booking the same movement again books nothing. */
  reference: string;
  paymentId: string | null;
  attemptId: string | null;
  narration: string;
  entries: ReadonlyArray<{ account: TLedgerAccountRef; amount: number }>;
};

/**
 * Books a movement inside `tx`, the transaction of the state change it records. Answers false
 * when this kind and reference were booked before (a retry), and books nothing then.
 */
export async function book(tx: TDb, booking: TBooking): Promise<boolean> {
  const total = booking.entries.reduce((sum, entry) => sum + entry.amount, 0);
  if (total !== 0 || booking.entries.some((e) => !Number.isSafeInteger(e.amount) || e.amount === 0))
    throw new Error(`Ledger booking ${booking.kind}:${booking.reference} does not balance`);
  const accounts = [...new Map(booking.entries.map((e) => [e.account.id, e.account])).values()];
  await tx
    .insert(ledgerAccounts)
    .values(accounts.map(({ id, kind, merchantId }) => ({ id, kind, merchantId })))
    .onConflictDoNothing();
  const [transaction] = await tx
    .insert(ledgerTransactions)
    .values({
      kind: booking.kind,
      reference: booking.reference,
      paymentId: booking.paymentId,
      attemptId: booking.attemptId,
      narration: booking.narration,
    })
    .onConflictDoNothing()
    .returning({ id: ledgerTransactions.id });
  if (!transaction) return false;
  await tx.insert(ledgerEntries).values(
    booking.entries.map((entry) => ({
      transactionId: transaction.id,
      accountId: entry.account.id,
      amount: entry.amount,
    })),
  );
  return true;
}

export type TLedgerReport = {
  transactions: number;
  entries: number;
  /** Transactions whose entries do not sum to zero (must be none). */
  unbalanced: number[];
  /** Accounts whose kept balance is not the sum of their entries (must be none). */
  balanceMismatches: string[];
  /**
   * Executed payments not booked exactly once (must be none): an immediate payment net of
   * refunds, a future payment by its one collection (future_payment_debit).
   */
  paymentsNotBookedOnce: string[];
  /**
   * Payouts whose bookings do not match where they stand (must be none): each taken from its
   * wallet once (payout), then credited (payout_settled) if completed or put back
   * (payout_return) if failed, neither while paying.
   */
  payoutsNotBookedAsEnded: string[];
  /** Sum over every entry: zero in balanced books. */
  total: number;
};

/** Proves the books: what `npm run ledger:check` prints and the payment tests assert. */
export async function checkLedger(db: TDb): Promise<TLedgerReport> {
  // Both drivers answer raw SQL with `{ rows }`.
  const list = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
    const result: unknown = await db.execute(query);
    return (result as { rows: T[] }).rows;
  };
  const [counts] = await list<{ transactions: string; entries: string; total: string | null }>(sql`
      SELECT (SELECT count(*) FROM ledger_transactions) AS transactions,
             (SELECT count(*) FROM ledger_entries) AS entries,
             (SELECT sum(amount) FROM ledger_entries) AS total`);
  const unbalanced = await list<{ id: string }>(sql`
      SELECT t.id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
      GROUP BY t.id HAVING COALESCE(sum(e.amount), 0) <> 0 OR count(e.id) < 2`);
  const mismatches = await list<{ id: string }>(sql`
      SELECT a.id FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
      GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(sum(e.amount), 0)`);
  // An executed immediate payment is booked once as money in (card, transfer, debit, chip);
  // a charge refunded because the payment was already paid nets to zero and does not count.
  // An executed future payment is booked once by the collection that debited it.
  const notOnce = await list<{ id: string }>(sql`
      SELECT p.id FROM payments p
      WHERE p.type = 'immediate' AND (
        (p.status = 'executed') <> (
          (SELECT count(*) FROM ledger_transactions t WHERE t.payment_id = p.id
             AND t.kind IN ('card_payment', 'transfer_payment', 'account_debit', 'chip_card_payment'))
          - (SELECT count(*) FROM ledger_transactions t WHERE t.payment_id = p.id AND t.kind = 'card_refund')
          = 1)
        OR (SELECT count(*) FROM ledger_transactions t WHERE t.payment_id = p.id
             AND t.kind IN ('card_payment', 'transfer_payment', 'account_debit', 'chip_card_payment'))
          - (SELECT count(*) FROM ledger_transactions t WHERE t.payment_id = p.id AND t.kind = 'card_refund')
          > 1)
      UNION ALL
      SELECT p.id FROM payments p
      WHERE p.type = 'future' AND (
        (p.status = 'executed') <> ((SELECT count(*) FROM ledger_transactions t
          WHERE t.payment_id = p.id AND t.kind = 'future_payment_debit') = 1)
        OR (SELECT count(*) FROM ledger_transactions t
          WHERE t.payment_id = p.id AND t.kind = 'future_payment_debit') > 1)`);
  const payoutsAmiss = await list<{ id: string }>(sql`
      SELECT o.id FROM payouts o
      WHERE (SELECT count(*) FROM ledger_transactions t WHERE t.reference = o.id AND t.kind = 'payout') <> 1
         OR (SELECT count(*) FROM ledger_transactions t WHERE t.reference = o.id AND t.kind = 'payout_settled')
            <> (CASE WHEN o.status = 'completed' THEN 1 ELSE 0 END)
         OR (SELECT count(*) FROM ledger_transactions t WHERE t.reference = o.id AND t.kind = 'payout_return')
            <> (CASE WHEN o.status = 'failed' THEN 1 ELSE 0 END)`);
  return {
    transactions: Number(counts?.transactions ?? 0),
    entries: Number(counts?.entries ?? 0),
    unbalanced: unbalanced.map((r) => Number(r.id)),
    balanceMismatches: mismatches.map((r) => r.id),
    paymentsNotBookedOnce: notOnce.map((r) => r.id),
    payoutsNotBookedAsEnded: payoutsAmiss.map((r) => r.id),
    total: Number(counts?.total ?? 0),
  };
}

/** The report's problems, one line each: none in balanced books. */
export function ledgerProblems(report: TLedgerReport): string[] {
  return [
    ...report.unbalanced.map((id) => `transaction ${id} does not sum to zero`),
    ...report.balanceMismatches.map((id) => `account ${id}: balance is not the sum of its entries`),
    ...report.paymentsNotBookedOnce.map((id) => `payment ${id} is not booked exactly once`),
    ...report.payoutsNotBookedAsEnded.map((id) => `payout ${id} is not booked as it ended`),
  ];
}

import { sql, type SQL } from 'drizzle-orm';
import { CURRENCY_CODE } from '../../../domain/constants';
import { rowsOf, type TDb } from '../../db/database';
import type {
  TSettlementChannel,
  TSettlementPeriod,
  TSettlementPort,
} from '../../providers/payments';
import type { LEDGER_ACCOUNT_KINDS, LEDGER_TRANSACTION_KINDS } from '../../db/schema';
import { SETTLED_IN } from '../../provider-lists';

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
  /** Debits a bank made after their future payment was cancelled: held until given back. */
  debitsToGiveBack: (): TLedgerAccountRef => ({
    id: 'provider_clearing:debits_to_give_back',
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
  const result = await tx.execute(sql`
    WITH ${bookingSteps([booking])}
    SELECT count(*)::int AS booked FROM ledger_booked`);
  return (rowsOf<{ booked: number }>(result)[0]?.booked ?? 0) > 0;
}

/**
 * The steps of a statement that books `bookings` (each checked to balance first), as common
 * table expressions: the accounts made where missing, the transactions (none for a kind and
 * reference booked before), and their entries. `ledger_booked` names the transactions booked
 * now. Books alone (book) or beside a change's records (change-records.ts), in one statement
 * either way. The entries' triggers (the balances, the accounts they name) run at the
 * statement's end, once the accounts are there, in the order of the accounts' ids: every booking
 * locks the balances it moves in one order, so two bookings that move the same accounts the
 * opposite way (a payment in, a refund out) never wait on each other.
 */
export function bookingSteps(bookings: readonly TBooking[]): SQL {
  for (const booking of bookings) {
    const total = booking.entries.reduce((sum, entry) => sum + entry.amount, 0);
    if (
      total !== 0 ||
      booking.entries.some((e) => !Number.isSafeInteger(e.amount) || e.amount === 0)
    ) {
      throw new Error(`Ledger booking ${booking.kind}:${booking.reference} does not balance`);
    }
  }
  const accounts = [
    ...new Map(
      bookings.flatMap((booking) => booking.entries.map((e) => [e.account.id, e.account] as const)),
    ).values(),
  ].map(({ id, kind, merchantId }) => ({ id, kind, merchant_id: merchantId }));
  const transactions = bookings.map((booking, position) => ({
    position,
    kind: booking.kind,
    reference: booking.reference,
    payment_id: booking.paymentId,
    attempt_id: booking.attemptId,
    narration: booking.narration,
  }));
  const entries = bookings.flatMap((booking) =>
    booking.entries.map((entry) => ({
      kind: booking.kind,
      reference: booking.reference,
      account_id: entry.account.id,
      amount: entry.amount,
    })),
  );
  return sql`
    ledger_accounts_made AS (
      INSERT INTO ledger_accounts (id, kind, merchant_id)
      SELECT id, kind, merchant_id
      FROM jsonb_to_recordset(${JSON.stringify(accounts)}::jsonb)
           AS account(id text, kind text, merchant_id text)
      ON CONFLICT DO NOTHING),
    ledger_booked AS (
      INSERT INTO ledger_transactions (kind, reference, payment_id, attempt_id, narration)
      SELECT kind, reference, payment_id, attempt_id, narration
      FROM jsonb_to_recordset(${JSON.stringify(transactions)}::jsonb)
           AS booking(position int, kind text, reference text, payment_id text, attempt_id text,
                      narration text)
      ORDER BY position
      ON CONFLICT DO NOTHING
      RETURNING id, kind, reference),
    ledger_entries_made AS (
      INSERT INTO ledger_entries (transaction_id, account_id, amount)
      SELECT ledger_booked.id, entry.account_id, entry.amount
      FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb)
           AS entry(kind text, reference text, account_id text, amount bigint)
      JOIN ledger_booked
        ON ledger_booked.kind = entry.kind AND ledger_booked.reference = entry.reference
      ORDER BY entry.account_id
      RETURNING transaction_id)`;
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
  /**
   * Notices of money and the books that disagree (must be none): every notice we took (a
   * transfer, transfer_notices) is booked once, at its amount, for its reference (a payment's
   * transfer_payment, a link's link_test_transfer), and every such booking is a taken notice's.
   * Money in another currency than the naira is never taken: it is given back, never booked.
   * Named `notice {provider} {providerReference}` or `booking {transaction id}`.
   */
  noticesNotBookedAsTold: string[];
  /**
   * Where the provider's record and the books disagree (must be none): money the provider took
   * by one of our references, net of what it gave back, against what the books hold for it.
   * Compared only when checkLedger is given the provider.
   */
  providerDifferences: TProviderDifference[];
  /** Sum over every entry: zero in balanced books. */
  total: number;
};

export type TProviderDifference = {
  /** The provider whose record this is (the row's, or the report line's); null if neither says. */
  holder: string | null;
  channel: TSettlementChannel;
  reference: string;
  /** Kobo the provider holds as taken by this reference (net of what it gave back). */
  provider: number;
  /** Kobo the books hold as taken by it. */
  books: number;
  /** Money owed back that only an operator can give (an attempt's refund 'by_hand'). */
  byHand?: boolean;
};

/** Both drivers answer raw SQL with `{ rows }`. */
async function listRows<T>(db: TDb, query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/**
 * What the books hold as taken from outside by each of our references a provider knows, by
 * channel: an attempt's card charge, debit or chip purchase (net of a refund booked for it), a
 * card link's test charge (net of its refund), a future payment's debit (by the reference of the
 * try that succeeded, under the provider that debits the link the try ran on: its
 * debit_provider, mandate-debits.ts debitsFor), a payout credited (and a debit made after its payment was cancelled, given
 * back by a payout), a merchant's refund given back (by the refund's id), each booked in the
 * period where one is given. A transaction's amount is the sum of its credits.
 */
async function booksByReference(
  db: TDb,
  period?: TSettlementPeriod,
): Promise<Map<string, TBooked>> {
  const booked = period
    ? sql`AND t.created_at BETWEEN ${period.from.toISOString()} AND ${period.to.toISOString()}`
    : sql``;
  const rows = await listRows<{
    channel: TSettlementChannel;
    reference: string;
    provider: string | null;
    amount: string;
  }>(
    db,
    sql`
      WITH moved AS (
        SELECT t.id, t.kind, t.reference, t.attempt_id,
               (SELECT sum(e.amount) FROM ledger_entries e
                 WHERE e.transaction_id = t.id AND e.amount > 0) AS amount
        FROM ledger_transactions t
        WHERE t.kind IN ('card_payment', 'account_debit', 'chip_card_payment', 'card_refund',
                         'link_test_charge', 'test_charge_refund', 'future_payment_debit',
                         'payout_settled', 'merchant_refund') ${booked})
      SELECT CASE a.method WHEN 'card' THEN 'card' WHEN 'account' THEN 'debit' ELSE 'chip' END
               AS channel,
             m.attempt_id AS reference, a.provider,
             sum(CASE WHEN m.kind = 'card_refund' THEN -m.amount ELSE m.amount END) AS amount
      FROM moved m JOIN payment_attempts a ON a.id = m.attempt_id
      WHERE m.kind IN ('card_payment', 'account_debit', 'chip_card_payment', 'card_refund')
        AND a.method <> 'bank_transfer'
      GROUP BY a.method, m.attempt_id, a.provider
      UNION ALL
      SELECT 'card', m.reference, a.provider,
             sum(CASE WHEN m.kind = 'test_charge_refund' THEN -m.amount ELSE m.amount END)
      FROM moved m LEFT JOIN payment_attempts a ON a.id = m.reference
      WHERE m.kind IN ('link_test_charge', 'test_charge_refund')
      GROUP BY m.reference, a.provider
      UNION ALL
      SELECT 'debit', try.value->>'reference', l.debit_provider, sum(m.amount)
      FROM moved m
      JOIN future_payment_collections c ON c.id = m.reference
      CROSS JOIN LATERAL jsonb_array_elements(c.tries) AS try(value)
      LEFT JOIN future_payment_accounts bound ON bound.payment_id = c.payment_id
        AND bound.position = (try.value->>'position')::integer
      LEFT JOIN account_links l ON l.id = bound.mandate_id
      WHERE m.kind = 'future_payment_debit' AND try.value->>'outcome' = 'succeeded'
      GROUP BY try.value->>'reference', l.debit_provider
      UNION ALL
      SELECT 'payout', m.reference, o.provider, sum(m.amount)
      FROM moved m LEFT JOIN payouts o ON o.id = m.reference
      WHERE m.kind = 'payout_settled'
      GROUP BY m.reference, o.provider
      UNION ALL
      SELECT 'payout', t.reference, NULL, sum(e.amount)
      FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
      WHERE t.kind = 'cancelled_debit_return' AND e.account_id = 'payout_destination:bank_account'
        ${booked}
      GROUP BY t.reference
      UNION ALL
      SELECT 'refund', m.reference, r.provider, sum(m.amount)
      FROM moved m LEFT JOIN payment_refunds r ON r.id = m.reference
      WHERE m.kind = 'merchant_refund'
      GROUP BY m.reference, r.provider`,
  );
  return new Map(
    rows.map((row) => [
      `${row.channel} ${row.reference}`,
      { amount: Number(row.amount), provider: settledIn(row.provider) },
    ]),
  );
}

/**
 * What the books hold as taken by a reference, and the provider whose record should hold it (the
 * one its row names, as that provider's settlement report files it); null where no row names one
 * (a give-back paid by payout, a debit on a link that names no debit provider).
 */
type TBooked = { amount: number; provider: string | null };

/** The provider whose settlement report holds a provider's money (a terminal's: Paystack's). */
const settledIn = (provider: string | null): string | null =>
  provider === null ? null : (SETTLED_IN[provider] ?? provider);

/** How far a provider's record of a call may be dated from our booking of it (clocks, zones). */
const RECORD_MARGIN_MS = 24 * 60 * 60 * 1000;

/**
 * The provider's record against the books, reference by reference: where they differ. Over a
 * period, the references booked within it are compared with the provider's record of the period
 * widened by a day either side, so a call recorded a moment apart from its booking still meets
 * it; a reference of that record booked outside the period is another period's to compare, and
 * one booked nowhere is a difference whenever it was made.
 */
async function compareWithProvider(
  db: TDb,
  provider: TSettlementReports,
  period?: TSettlementPeriod,
): Promise<TProviderDifference[]> {
  const widened = period && {
    from: new Date(period.from.getTime() - RECORD_MARGIN_MS),
    to: new Date(period.to.getTime() + RECORD_MARGIN_MS),
  };
  const booked = await booksByReference(db);
  const bookedInPeriod = period ? await booksByReference(db, period) : booked;
  // Each report's lines under the provider that filed them: a line of one provider's record
  // meets only a row of that provider (one whose row names none: whichever filed it).
  const held = new Map<string, Map<string | null, number>>();
  for (const line of await provider.settlementReport(widened)) {
    const key = `${line.channel} ${line.reference}`;
    const holder = line.provider ?? provider.provider ?? booked.get(key)?.provider ?? null;
    const byHolder = held.get(key) ?? new Map<string | null, number>();
    byHolder.set(holder, (byHolder.get(holder) ?? 0) + (line.givenBack ? 0 : line.amount));
    held.set(key, byHolder);
  }
  const holderOf = (key: string): string | null =>
    booked.get(key)?.provider ?? [...(held.get(key)?.keys() ?? [])][0] ?? null;
  // Money no call of ours could give back: still owed by hand, or given back by an operator at
  // the provider (its refund's reference recorded), which the provider's record may not show.
  const byHand = await listRows<{ key: string; amount: string; owed: boolean }>(
    db,
    sql`SELECT CASE method WHEN 'card' THEN 'card' WHEN 'account' THEN 'debit' ELSE 'chip' END
                 || ' ' || id AS key,
               amount, refund = 'by_hand' AS owed
        FROM payment_attempts WHERE refund = 'by_hand' OR refund_reference IS NOT NULL`,
  );
  for (const row of byHand) {
    const byHolder = held.get(row.key);
    const holder = holderOf(row.key);
    if (row.owed || !byHolder?.has(holder)) continue;
    byHolder.set(holder, Math.max(0, (byHolder.get(holder) ?? 0) - Number(row.amount)));
  }
  const owedByHand = new Set(byHand.filter((row) => row.owed).map((row) => row.key));
  const differences: TProviderDifference[] = [];
  for (const key of new Set([...held.keys(), ...bookedInPeriod.keys()])) {
    if (!bookedInPeriod.has(key) && booked.has(key)) continue;
    const [channel, reference] = key.split(' ') as [TSettlementChannel, string];
    const inBooksAt = holderOf(key);
    const onRecord = held.get(key) ?? new Map<string | null, number>();
    for (const holder of new Set([inBooksAt, ...onRecord.keys()])) {
      const record = onRecord.get(holder) ?? 0;
      const books = holder === inBooksAt ? (booked.get(key)?.amount ?? 0) : 0;
      if (record === books) continue;
      const difference = { holder, channel, reference, provider: record, books };
      differences.push(owedByHand.has(key) ? { ...difference, byHand: true } : difference);
    }
  }
  return differences.sort((a, b) => a.reference.localeCompare(b.reference));
}

/**
 * The settlement reports the books are compared with: each line names the provider whose record
 * it is (the registry's union of reports names each); a line that does not is the port's.
 */
type TSettlementReports = Pick<TSettlementPort, 'settlementReport'> & { provider?: string };

/**
 * Proves the books: what `npm run ledger:check` prints and the payment tests assert. Given the
 * payment provider, it also compares the provider's record of what it took with the books.
 */
export async function checkLedger(
  db: TDb,
  options: {
    provider?: TSettlementReports;
    /** Compare with the provider only what was booked within it (else the whole history). */
    period?: TSettlementPeriod;
  } = {},
): Promise<TLedgerReport> {
  const list = <T>(query: ReturnType<typeof sql>) => listRows<T>(db, query);
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
  // Every kobo a notice told of that we took is booked, once; nothing else is booked as arrived.
  const noticesAmiss = await list<{ id: string }>(sql`
      WITH taken AS (
        SELECT provider, provider_reference, reference, amount, currency FROM transfer_notices
        WHERE answer = 'taken'),
      booked AS (
        SELECT t.id, t.reference,
               (SELECT sum(e.amount) FROM ledger_entries e
                 WHERE e.transaction_id = t.id AND e.amount > 0) AS amount
        FROM ledger_transactions t WHERE t.kind IN ('transfer_payment', 'link_test_transfer'))
      SELECT 'notice ' || n.provider || ' ' || n.provider_reference AS id FROM taken n
      WHERE n.currency <> ${CURRENCY_CODE}
         OR (SELECT count(*) FROM booked b WHERE b.reference = n.reference AND b.amount = n.amount) <> 1
      UNION ALL
      SELECT 'booking ' || b.id FROM booked b
      WHERE (SELECT count(*) FROM taken n WHERE n.reference = b.reference AND n.amount = b.amount
               AND n.currency = ${CURRENCY_CODE}) <> 1`);
  return {
    transactions: Number(counts?.transactions ?? 0),
    entries: Number(counts?.entries ?? 0),
    unbalanced: unbalanced.map((r) => Number(r.id)),
    balanceMismatches: mismatches.map((r) => r.id),
    paymentsNotBookedOnce: notOnce.map((r) => r.id),
    payoutsNotBookedAsEnded: payoutsAmiss.map((r) => r.id),
    noticesNotBookedAsTold: noticesAmiss.map((r) => r.id),
    providerDifferences: options.provider
      ? await compareWithProvider(db, options.provider, options.period)
      : [],
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
    ...report.noticesNotBookedAsTold.map((id) => `${id}: a notice taken and its booking disagree`),
    ...report.providerDifferences.map((d) =>
      d.byHand
        ? `${d.channel} ${d.reference}: ${d.provider - d.books} kobo owed back by hand: refund it at ${d.holder ?? 'the provider'}, then npm run refund:given-back -- ${d.reference} <its refund reference>`
        : `${d.channel} ${d.reference}: ${d.holder ?? 'the provider'}'s record holds ${d.provider} kobo taken, the books ${d.books}`,
    ),
  ];
}

import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type {
  TFavoritesAndRecentsResponse,
  TPaymentHistoryResponse,
} from '../../../domain/schemas/payment';
import type { TDb } from '../../db/database';
import { consents, merchants, paymentAttempts, payments } from '../../db/schema';

/*
 * A signed-in payer's own payments (spec §7 GET /api/payments/history and
 * favorites-and-recents; the spec does not show their answers, docs/payments.md gives ours):
 * every immediate payment they tried to pay, and the merchants they paid.
 */

const HISTORY_LIMIT = 100;

/** The payer's payments, newest first: executed, or the state of their last try. */
export async function paymentHistory(db: TDb, payerId: string): Promise<TPaymentHistoryResponse> {
  const tried = db
    .selectDistinct({ paymentId: paymentAttempts.paymentId })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.payerId, payerId));
  const rows = await db
    .select({
      paymentId: payments.id,
      amount: payments.amount,
      narration: payments.narration,
      status: payments.status,
      executedAt: payments.executedAt,
      counterpartyName: merchants.name,
      // The payer's last try decides a payment that was not executed: failed, or still pending.
      lastTry: sql<string | null>`(SELECT a.status FROM payment_attempts a
        WHERE a.payment_id = ${payments.id} AND a.payer_id = ${payerId}
        ORDER BY a.created_at DESC, a.id DESC LIMIT 1)`,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .where(inArray(payments.id, tried))
    .orderBy(desc(sql`COALESCE(${payments.executedAt}, ${payments.createdAt})`))
    .limit(HISTORY_LIMIT);
  return {
    success: true,
    payments: rows.map((row) => ({
      paymentId: row.paymentId,
      amount: row.amount,
      narration: row.narration,
      status:
        row.status === 'executed' ? 'executed' : row.lastTry === 'failed' ? 'failed' : 'pending',
      executedAt: row.executedAt ? row.executedAt.toISOString() : null,
      counterpartyName: row.counterpartyName,
    })),
  };
}

/**
 * The merchants the payer paid: recents by the last payment, favourites by how often (ties by
 * the last payment), at most `limit` each (spec §9: 8).
 */
export async function favoritesAndRecents(
  db: TDb,
  payerId: string,
  limit: number,
): Promise<TFavoritesAndRecentsResponse> {
  const paid = await db
    .select({
      accountName: merchants.name,
      bankName: merchants.walletBankName,
      logo: merchants.image,
      times: sql<number>`count(*)::int`,
      last: sql<string>`max(${paymentAttempts.completedAt})`,
    })
    .from(paymentAttempts)
    .innerJoin(consents, eq(consents.id, paymentAttempts.consentId))
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .where(
      and(
        eq(paymentAttempts.payerId, payerId),
        eq(paymentAttempts.status, 'completed'),
        isNotNull(paymentAttempts.completedAt),
      ),
    )
    .groupBy(merchants.id, merchants.name, merchants.walletBankName, merchants.image);
  const summary = (row: (typeof paid)[number]) => ({
    accountNumber: null,
    accountName: row.accountName,
    bankName: row.bankName,
    institutionCode: null,
    logo: row.logo,
  });
  const byLast = [...paid].sort((a, b) => Date.parse(b.last) - Date.parse(a.last));
  const byTimes = [...byLast].sort((a, b) => b.times - a.times);
  return {
    success: true,
    favorites: byTimes.slice(0, limit).map(summary),
    recents: byLast.slice(0, limit).map(summary),
  };
}

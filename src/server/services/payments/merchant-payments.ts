import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ERROR_CATALOGUE, formatErrorMessage } from '../../../domain/errors';
import { formatNaira } from '../../../domain/money';
import type { TCollection, TMerchantPayment } from '../../../domain/schemas/collections';
import type { TPaymentMethod } from '../../../domain/constants';
import type { TAppContext } from '../../context';
import { randomId } from '../../crypto/secret-hash';
import { rowsOf, type TDb } from '../../db/database';
import {
  consents,
  futurePaymentAccounts,
  futurePaymentCollections,
  payerAccounts,
  payments,
} from '../../db/schema';
import { AppError } from '../../app-error';
import { collectionById, type TCollectionRow } from './future-collections';
import { sendDebitNotices } from './debit-notices';
import { noticeLeadMs } from '../../../domain/debit-notices';
import { isDeadlock, isUniqueViolation } from '../../db/database-errors';
import { refundsOfPayments } from './refunds';

/*
 * The merchant's side of future payments (docs/payments.md "Collecting future payments"): ask to
 * collect a variable or 'As needed' payment, which waits for its payer's notice and is then
 * debited by the runner as a scheduled one is, and read a payment with every collection of it,
 * failures and the accounts tried included.
 */

type TMerchant = { clientId: string; merchantId: string };
type TPaymentRow = typeof payments.$inferSelect;

const masked = (accountNumber: string) => `******${accountNumber.slice(-4)}`;

/** The payment, if it belongs to one of the merchant's consents; another's reads as absent. */
async function merchantPayment(db: TDb, merchant: TMerchant, paymentId: string) {
  const [row] = await db
    .select({ payment: payments, consentStatus: consents.status, pausedAt: consents.pausedAt })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(and(eq(payments.id, paymentId), eq(consents.merchantId, merchant.merchantId)));
  if (!row) throw new AppError('PAYMENT_NOT_FOUND');
  return row;
}

/** Why a collect call on this payment cannot run, or null when it can. */
async function refusal(
  db: TDb,
  merchant: TMerchant,
  paymentId: string,
  amount: number,
): Promise<AppError | null> {
  const { payment, consentStatus, pausedAt } = await merchantPayment(db, merchant, paymentId);
  if (payment.type !== 'future') return new AppError('NOT_A_FUTURE_PAYMENT');
  if (payment.status === 'executed') return new AppError('PAYMENT_ALREADY_MADE');
  if (payment.amountType === 'fixed' && payment.dueDate) {
    return new AppError('FUTURE_PAYMENT_SCHEDULED');
  }
  const [bound] = await db
    .select({ paymentId: futurePaymentAccounts.paymentId })
    .from(futurePaymentAccounts)
    .where(eq(futurePaymentAccounts.paymentId, paymentId))
    .limit(1);
  if (consentStatus !== 'granted' || !bound) return new AppError('FUTURE_PAYMENT_NOT_GRANTED');
  if (pausedAt) return new AppError('CONSENT_PAUSED');
  if (amount > payment.amount) {
    return new AppError(
      'COLLECTION_AMOUNT_ABOVE_CONSENTED',
      formatErrorMessage('COLLECTION_AMOUNT_ABOVE_CONSENTED', {
        consented: formatNaira(payment.amount),
      }),
    );
  }
  return null;
}

/**
 * Opens a merchant's collection, pending until its payer's notice has had its whole lead
 * (`dueAt`), in one statement that checks everything the refusals name: of two calls at once for one payment, the second breaks the one-open index. It
 * locks the payment's row, so a collection that is being recorded as paid is waited for and the
 * payment then read as executed, never collected again.
 */
async function openCollection(
  db: TDb,
  merchant: TMerchant,
  paymentId: string,
  amount: number,
  now: Date,
  dueAt: Date,
): Promise<TCollectionRow | null> {
  const id = randomId('col');
  const at = now.toISOString();
  try {
    const result: unknown = await db.execute(sql`
      INSERT INTO future_payment_collections (id, payment_id, consent_id, "trigger", amount, status,
        due_at, requested_by, created_at, updated_at)
      SELECT ${id}::text, p.id, p.consent_id, 'merchant', ${amount}::bigint, 'pending',
             ${dueAt.toISOString()}::timestamptz, ${merchant.clientId}::text, ${at}::timestamptz,
             ${at}::timestamptz
      FROM payments p JOIN consents c ON c.id = p.consent_id
      WHERE p.id = ${paymentId}::text AND c.merchant_id = ${merchant.merchantId}::text
        AND c.status = 'granted' AND c.paused_at IS NULL AND p.type = 'future'
        AND p.status = 'pending'
        AND (p.amount_type = 'variable' OR p.due_date IS NULL) AND p.amount >= ${amount}::bigint
        AND EXISTS (SELECT 1 FROM future_payment_accounts f WHERE f.payment_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM future_payment_collections o WHERE o.payment_id = p.id
          AND o.status IN ('pending', 'collecting'))
      FOR UPDATE OF p
      RETURNING id`);
    const opened = (result as { rows: unknown[] }).rows.length > 0;
    return opened ? collectionById(db, id) : null;
  } catch (error) {
    // Another call opened it meanwhile: the unique index said so, or the wait for it ended in a
    // deadlock PostgreSQL broke by rolling this statement back. Either way nothing was opened here.
    if (isUniqueViolation(error) || isDeadlock(error)) throw new AppError('PAYMENT_IN_PROGRESS');
    throw error;
  }
}

/**
 * POST /api/v1/payments/{paymentId}/collect: asks to debit a granted variable or 'As needed'
 * future payment. As every debit of a mandate, it waits for its payer's notice (debit-notices.ts):
 * the collection is opened pending, due DEBIT_NOTICE_HOURS from now, its notice sent at once, and
 * the runner debits it from its bound accounts first to last once the notice has had its lead
 * (future_payment.collected or future_payment.failed tell the merchant). Answers the collection
 * pending with the time it is due; one whose payer cannot be told now waits for the next notice
 * window, due later (future_payment.delayed, reason payer_not_notified).
 */
export async function collectOnRequest(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'providers' | 'jobs' | 'config'>,
  merchant: TMerchant,
  paymentId: string,
  amount: number,
): Promise<TCollection> {
  const refused = await refusal(ctx.db, merchant, paymentId, amount);
  if (refused) throw refused;
  const now = ctx.clock.now();
  const dueAt = new Date(now.getTime() + noticeLeadMs(ctx.config.debitNoticeHours));
  const opened = await openCollection(ctx.db, merchant, paymentId, amount, now, dueAt);
  // Changed between the look and the claim: say what changed, or that another call has it.
  if (!opened)
    throw (
      (await refusal(ctx.db, merchant, paymentId, amount)) ?? new AppError('PAYMENT_IN_PROGRESS')
    );
  await sendDebitNotices(ctx, opened.id);
  const noticed = await collectionById(ctx.db, opened.id);
  const [view] = await collectionViews(ctx.db, [noticed]);
  if (!view) throw new Error(`Collection ${noticed.id} has no view`);
  return view;
}

/** Collections as the merchant reads them: accounts masked, failures in the catalogue's words. */
async function collectionViews(db: TDb, rows: TCollectionRow[]): Promise<TCollection[]> {
  const ids = [
    ...new Set(rows.flatMap((r) => [r.accountId, ...r.tries.map((t) => t.accountId)])),
  ].filter((id): id is string => id !== null);
  const accounts =
    ids.length === 0
      ? []
      : await db
          .select({
            id: payerAccounts.id,
            bankName: payerAccounts.bankName,
            accountNumber: payerAccounts.accountNumber,
          })
          .from(payerAccounts)
          .where(inArray(payerAccounts.id, ids));
  const accountOf = (accountId: string) => {
    const found = accounts.find((a) => a.id === accountId);
    return {
      accountId,
      bankName: found?.bankName ?? '',
      accountNumber: found ? masked(found.accountNumber) : '',
    };
  };
  return rows.map((row) => ({
    collectionId: row.id,
    paymentId: row.paymentId,
    trigger: row.trigger,
    amount: row.amount,
    status: row.status,
    dueAt: row.dueAt.toISOString(),
    notifiedAt: row.notifiedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    account: row.accountId ? accountOf(row.accountId) : null,
    failure:
      row.failureCode && row.failureReason
        ? {
            code: row.failureCode,
            message: ERROR_CATALOGUE[row.failureCode].message,
            reason: row.failureReason,
          }
        : null,
    tries: row.tries.map((t) => ({
      ...accountOf(t.accountId),
      position: t.position,
      outcome: t.outcome,
      reason: t.reason,
      at: t.at,
    })),
  }));
}

/** GET /api/v1/payments/{paymentId}: one of the merchant's payments, its collections and refunds. */
export async function readMerchantPayment(
  db: TDb,
  merchant: TMerchant,
  paymentId: string,
): Promise<TMerchantPayment> {
  const { payment } = await merchantPayment(db, merchant, paymentId);
  const [view] = await merchantPaymentViews(db, [payment]);
  if (!view) throw new Error(`Payment ${paymentId} has no view`);
  return view;
}

/**
 * How a payment was paid, as SQL over `payments p`: its completed attempt's method, or 'account'
 * when a collection debited it; null while unpaid. GET /api/v1/payments filters by it too.
 */
export const paymentMethodSql = sql<TPaymentMethod | null>`coalesce(
  (SELECT a.method FROM payment_attempts a
    WHERE a.payment_id = p.id AND a.status = 'completed' ORDER BY a.id LIMIT 1),
  CASE WHEN EXISTS (SELECT 1 FROM future_payment_collections f
    WHERE f.payment_id = p.id AND f.status = 'succeeded') THEN 'account' END)`;

/**
 * Payments as the merchant reads them, in the order given: each with its collections and refunds,
 * how it was paid, and its consent's reference and metadata; a few queries for the whole list.
 */
export async function merchantPaymentViews(
  db: TDb,
  rows: TPaymentRow[],
): Promise<TMerchantPayment[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [collectionRows, refundRows, extras] = await Promise.all([
    db
      .select()
      .from(futurePaymentCollections)
      .where(inArray(futurePaymentCollections.paymentId, ids))
      .orderBy(asc(futurePaymentCollections.createdAt), asc(futurePaymentCollections.id)),
    refundsOfPayments(db, ids),
    db.execute(sql`
      SELECT p.id, ${paymentMethodSql} AS method, c.reference, c.metadata
      FROM payments p JOIN consents c ON c.id = p.consent_id
      WHERE p.id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`),
  ]);
  const collections = await collectionViews(db, collectionRows);
  const extraOf = new Map(
    rowsOf<{
      id: string;
      method: TPaymentMethod | null;
      reference: string | null;
      metadata: Record<string, string> | null;
    }>(extras).map((row) => [row.id, row]),
  );
  return rows.map((payment) => {
    const extra = extraOf.get(payment.id);
    return {
      paymentId: payment.id,
      consentId: payment.consentId,
      type: payment.type,
      status: payment.status,
      amount: payment.amount,
      amountType: payment.amountType,
      narration: payment.narration,
      dueDate: payment.dueDate?.toISOString() ?? null,
      executedAt: payment.executedAt?.toISOString() ?? null,
      collections: collections.filter((c) => c.paymentId === payment.id),
      refunded: payment.refunded,
      refunds: refundRows.filter((r) => r.paymentId === payment.id),
      method: extra?.method ?? null,
      createdAt: payment.createdAt.toISOString(),
      reference: extra?.reference ?? null,
      metadata: extra?.metadata ?? {},
    };
  });
}

import { and, asc, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { formatErrorMessage } from '../../../domain/errors';
import { collectionNoticeWords, collectionTimelineWords } from '../../../domain/dashboard-texts';
import { formatNaira } from '../../../domain/money';
import { PAID_WITH_WORDS, paidWithWay } from '../../../domain/paid-with';
import type {
  TDashboardPaymentRow,
  TDashboardRefundRequest,
  TPaymentDetail,
  TPaymentSearchQuery,
  TTimelineEntry,
} from '../../../domain/schemas/dashboard';
import { DASHBOARD_PAGE_SIZE } from '../../../domain/schemas/dashboard';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import {
  consents,
  futurePaymentCollections,
  merchantEvents,
  paymentAttempts,
  paymentRefunds,
  payments,
  transferNotices,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema';
import { AppError } from '../../app-error';
import { refundsOfPayment, requestRefund } from '../payments/refunds';
import { recordAudit, type TActor } from './audit';

/*
 * The dashboard's payments (docs/dashboard.md "Payments"): a search over the merchant's
 * payments, one payment's timeline (its attempts, the provider's notices, the webhooks that told
 * the merchant, its refunds), and the refund of the refunds API, capped for support staff.
 */

type TPaymentRow = typeof payments.$inferSelect;

const last4 = (digits: string | null | undefined) => (digits ? `****${digits.slice(-4)}` : null);

type TAttemptMethod = typeof paymentAttempts.$inferSelect.method;

/**
 * How the payer paid, masked as the dashboard shows it, in the payer's page's words (paid-with.ts);
 * null while unpaid. `method` is the completed attempt's (none for a collection).
 */
function paidWith(row: TPaymentRow, method: TAttemptMethod | null): string | null {
  const origin = row.origin;
  if (row.status !== 'executed' || !origin) return null;
  const way =
    paidWithWay(row.type, method) ?? (origin.paymentMethod === 'card' ? 'card' : 'bank_transfer');
  const words = PAID_WITH_WORDS[way];
  if (origin.paymentMethod === 'card') {
    return `${words} ${origin.maskedCardNumber ?? origin.obfuscatedCard ?? ''}`.trim();
  }
  const from = [origin.bankName, last4(origin.accountNumber)].filter(Boolean).join(' ');
  if (!from) return words;
  return way === 'account' ? `${words} ${from}` : `${words} from ${from}`;
}

/** The method of the payment's completed attempt, in the same statement as the payment. */
const completedMethod = sql<TAttemptMethod | null>`(
  select ${paymentAttempts.method} from ${paymentAttempts}
  where ${paymentAttempts.paymentId} = ${payments.id} and ${paymentAttempts.status} = 'completed'
  limit 1)`;

const rowOf = (
  row: TPaymentRow,
  reference: string | null,
  method: TAttemptMethod | null,
): TDashboardPaymentRow => ({
  paymentId: row.id,
  consentId: row.consentId,
  reference,
  type: row.type,
  status: row.status,
  amount: row.amount,
  refunded: row.refunded,
  narration: row.narration,
  paidWith: paidWith(row, method),
  createdAt: row.createdAt.toISOString(),
  executedAt: row.executedAt?.toISOString() ?? null,
  dueDate: (row.dueDate ?? row.startDate)?.toISOString() ?? null,
  frequency: row.frequency,
  interval: row.interval,
});

/** A page's position: the last row's creation time and id, newest first. */
const encodeCursor = (row: TPaymentRow) =>
  Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');

function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const when = new Date(String(at));
    if (typeof id === 'string' && !Number.isNaN(when.getTime())) return { at: when, id };
  } catch {
    // Answered below as any cursor we did not make.
  }
  throw new AppError('VALIDATION_FAILED', 'cursor: not one this list made');
}

/** A Lagos day's bounds (the dashboard's dates are Lagos dates, UTC+1 all year). */
export const lagosDay = (day: string, end = false) =>
  new Date(new Date(`${day}T00:00:00+01:00`).getTime() + (end ? 86_400_000 : 0));

/** `q`: a reference, an id, or digits of the payer's account or card (their last ones). */
function matching(q: string): SQL {
  const text = q.trim();
  const digits = text.replace(/\D/g, '');
  return or(
    eq(consents.reference, text),
    eq(payments.id, text),
    eq(payments.consentId, text),
    digits.length >= 4
      ? or(
          sql`${payments.origin}->>'accountNumber' like ${`%${digits}`}`,
          sql`replace(coalesce(${payments.origin}->>'maskedCardNumber', ${payments.origin}->>'obfuscatedCard', ''), ' ', '') like ${`%${digits}`}`,
        )
      : undefined,
  ) as SQL;
}

export async function searchPayments(
  db: TDb,
  merchantId: string,
  query: TPaymentSearchQuery,
): Promise<{ payments: TDashboardPaymentRow[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await db
    .select({ payment: payments, reference: consents.reference, method: completedMethod })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(
      and(
        eq(consents.merchantId, merchantId),
        query.status ? eq(payments.status, query.status) : undefined,
        query.amount === undefined ? undefined : eq(payments.amount, query.amount),
        query.from ? gte(payments.createdAt, lagosDay(query.from)) : undefined,
        query.to ? lt(payments.createdAt, lagosDay(query.to, true)) : undefined,
        query.q?.trim() ? matching(query.q) : undefined,
        after
          ? or(
              lt(payments.createdAt, after.at),
              and(eq(payments.createdAt, after.at), lt(payments.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(DASHBOARD_PAGE_SIZE + 1);
  const page = rows.slice(0, DASHBOARD_PAGE_SIZE);
  const last = page.at(-1);
  return {
    payments: page.map((r) => rowOf(r.payment, r.reference, r.method)),
    nextCursor: rows.length > DASHBOARD_PAGE_SIZE && last ? encodeCursor(last.payment) : null,
  };
}

/** One of the merchant's payments; another merchant's reads as absent. */
async function merchantPayment(db: TDb, merchantId: string, paymentId: string) {
  const [row] = await db
    .select({
      payment: payments,
      reference: consents.reference,
      clientId: consents.clientId,
      method: completedMethod,
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(and(eq(payments.id, paymentId), eq(consents.merchantId, merchantId)));
  if (!row) throw new AppError('PAYMENT_NOT_FOUND');
  return row;
}

const naira = (kobo: number) => formatNaira(kobo);

/** Everything that happened to a payment, oldest first. */
async function timelineOf(
  db: TDb,
  payment: TPaymentRow,
  method: TAttemptMethod | null,
): Promise<TTimelineEntry[]> {
  const entries: TTimelineEntry[] = [
    {
      at: payment.createdAt.toISOString(),
      kind: 'created',
      title: `Asked for ${naira(payment.amount)}`,
      detail: payment.narration,
    },
  ];
  const attempts = await db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, payment.id))
    .orderBy(asc(paymentAttempts.createdAt));
  for (const attempt of attempts) {
    const card = attempt.cardLast4 ? ` ending ${attempt.cardLast4}` : '';
    entries.push({
      at: attempt.createdAt.toISOString(),
      kind: 'attempt',
      title: `${attempt.method.replace('_', ' ')}${card}: ${attempt.status}`,
      detail: attempt.failureReason ?? attempt.stepText ?? null,
    });
    // Why new work went to this provider rather than the first of its list (docs/routing.md).
    if (attempt.routeNote) {
      entries.push({
        at: attempt.createdAt.toISOString(),
        kind: 'attempt',
        title: 'Routed by provider health',
        detail: attempt.routeNote,
      });
    }
  }
  const attemptIds = attempts.map((a) => a.id);
  if (attemptIds.length > 0) {
    const notices = await db
      .select()
      .from(transferNotices)
      .where(inArray(transferNotices.reference, attemptIds));
    for (const notice of notices) {
      entries.push({
        at: notice.createdAt.toISOString(),
        kind: 'notice',
        title: `The bank told us of a transfer of ${naira(notice.amount)}`,
        detail: notice.answer === 'taken' ? 'Taken' : `Sent back: ${notice.answer}`,
      });
    }
  }
  entries.push(...(await collectionEntries(db, payment.id)));
  if (payment.executedAt) {
    entries.push({
      at: payment.executedAt.toISOString(),
      kind: 'executed',
      title: `Paid ${naira(payment.amount)}`,
      detail: paidWith(payment, method),
    });
  }
  const deliveries = await db
    .select({
      type: merchantEvents.type,
      url: webhookEndpoints.url,
      status: webhookDeliveries.status,
      lastStatus: webhookDeliveries.lastStatus,
      attempts: webhookDeliveries.attempts,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(merchantEvents, eq(merchantEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(merchantEvents.consentId, payment.consentId),
        sql`${merchantEvents.data}->>'paymentId' = ${payment.id}`,
      ),
    )
    .orderBy(asc(webhookDeliveries.id));
  for (const d of deliveries) {
    const answered = d.lastStatus === null ? '' : `, answered ${d.lastStatus}`;
    entries.push({
      at: d.createdAt.toISOString(),
      kind: 'webhook',
      title: `Webhook ${d.type}: ${d.status}`,
      detail: `${d.url} (${d.attempts} ${d.attempts === 1 ? 'try' : 'tries'}${answered})`,
    });
  }
  const refunds = await db
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.paymentId, payment.id))
    .orderBy(asc(paymentRefunds.createdAt));
  for (const refund of refunds) {
    entries.push({
      at: refund.createdAt.toISOString(),
      kind: 'refund',
      title: `Refund of ${naira(refund.amount)}: ${refund.status}`,
      detail: refund.reason ?? refund.failureReason,
    });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/**
 * A future payment's collections on its timeline: the payer told of each debit, and each that
 * ended without the payment (skipped, failed, cancelled), in the domain's words.
 */
async function collectionEntries(db: TDb, paymentId: string): Promise<TTimelineEntry[]> {
  const collections = await db
    .select()
    .from(futurePaymentCollections)
    .where(eq(futurePaymentCollections.paymentId, paymentId))
    .orderBy(asc(futurePaymentCollections.dueAt));
  return collections.flatMap((collection) => {
    const facts = { ...collection, dueAt: collection.dueAt.toISOString() };
    const told = collection.notifiedAt
      ? [
          {
            at: collection.notifiedAt.toISOString(),
            kind: 'collection' as const,
            ...collectionNoticeWords(facts),
          },
        ]
      : [];
    const words = collection.completedAt ? collectionTimelineWords(facts) : null;
    const ended =
      words && collection.completedAt
        ? [{ at: collection.completedAt.toISOString(), kind: 'collection' as const, ...words }]
        : [];
    return [...told, ...ended];
  });
}

export async function paymentDetail(
  db: TDb,
  merchantId: string,
  paymentId: string,
): Promise<Omit<TPaymentDetail, 'success'>> {
  const { payment, reference, method } = await merchantPayment(db, merchantId, paymentId);
  return {
    payment: rowOf(payment, reference, method),
    refunds: await refundsOfPayment(db, payment.id),
    refundable: payment.status === 'executed' ? payment.amount - payment.refunded : 0,
    timeline: await timelineOf(db, payment, method),
  };
}

/**
 * The refunds API's refund (services/payments/refunds.ts), for the client the payment's consent
 * belongs to. A support member's refund is capped by the limit their owner set; the audit log
 * keeps who asked.
 */
export async function refundFromDashboard(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'providers' | 'jobs'>,
  who: TActor & { refundLimit: number | null; role: string },
  paymentId: string,
  body: TDashboardRefundRequest,
) {
  if (who.role === 'support' && body.amount > (who.refundLimit ?? 0)) {
    throw new AppError(
      'REFUND_ABOVE_STAFF_LIMIT',
      formatErrorMessage('REFUND_ABOVE_STAFF_LIMIT', { limit: naira(who.refundLimit ?? 0) }),
    );
  }
  const { clientId } = await merchantPayment(ctx.db, who.merchantId, paymentId);
  // The audit row is written with the refund's reservation: a crash leaves both or neither.
  return requestRefund(
    ctx,
    { clientId, merchantId: who.merchantId },
    paymentId,
    body,
    (tx, refund) =>
      recordAudit(
        tx,
        who,
        {
          action: 'payment.refunded',
          target: paymentId,
          data: { refundId: refund.id, amount: refund.amount, reason: body.reason },
        },
        ctx.clock.now(),
      ),
  );
}

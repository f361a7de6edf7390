import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type {
  TMerchantPaymentsQuery,
  TMerchantPaymentsResponse,
} from '../../../domain/schemas/collections';
import type { TDb } from '../../db/database';
import { consents, payments } from '../../db/schema';
import { decodeListCursor, encodeListCursor } from '../list-cursor';
import { merchantPaymentViews, paymentMethodSql } from './merchant-payments';

/*
 * GET /api/v1/payments (docs/payments.md "Listing payments"): the merchant's payments, newest
 * first, each as its single read answers it. Ordered as the consent list is: the creation time
 * to the millisecond (what a cursor carries), then the id.
 */

/** A page of the merchant's payments matching the query, and the cursor of the next page. */
export async function listMerchantPayments(
  db: TDb,
  merchantId: string,
  query: TMerchantPaymentsQuery,
): Promise<Omit<TMerchantPaymentsResponse, 'success'>> {
  const after = query.cursor ? decodeListCursor(query.cursor) : null;
  const created = sql<Date>`date_trunc('milliseconds', ${payments.createdAt})`;
  // The method's subqueries read `p`, the payments of the outer query.
  const method = sql`(SELECT ${paymentMethodSql} FROM payments p WHERE p.id = ${payments.id})`;
  const rows = await db
    .select({ payment: payments, createdAt: created.mapWith(payments.createdAt) })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(
      and(
        eq(consents.merchantId, merchantId),
        query.status ? eq(payments.status, query.status) : undefined,
        query.method ? sql`${method} = ${query.method}` : undefined,
        // As instants: PostgreSQL refuses a timestamp's text with an offset past ±15:59.
        query.createdFrom ? gte(payments.createdAt, new Date(query.createdFrom)) : undefined,
        query.createdTo ? lt(payments.createdAt, new Date(query.createdTo)) : undefined,
        query.reference ? eq(consents.reference, query.reference) : undefined,
        query.consentId ? eq(payments.consentId, query.consentId) : undefined,
        after ? sql`(${created}, ${payments.id}) < (${after.at}, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(created), desc(payments.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    payments: await merchantPaymentViews(
      db,
      page.map((row) => row.payment),
    ),
    nextCursor:
      rows.length > query.limit && last ? encodeListCursor(last.createdAt, last.payment.id) : null,
  };
}

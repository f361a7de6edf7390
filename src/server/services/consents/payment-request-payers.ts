import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import { consentEvents, consents, merchants } from '../../db/schema';
import { AppError } from '../../app-error';

/*
 * Who may answer a payment request (docs/payment-requests.md "Who may answer"): the payer it was
 * sent to, named in its 'consent.created' audit row. Kept out of payment-requests.ts, which
 * imports consent-grants.ts, so that consent-grants.ts can import it without an import cycle.
 */

export type TPaymentRequest = {
  consentId: string;
  status: (typeof consents.$inferSelect)['status'];
  expiresAt: Date;
  /** The payer asked: the only one who may answer it. */
  requestedOf: string;
};

/** A payment request by its consent id; null for unknown ids and merchants' consents. */
export async function findPaymentRequest(
  db: TDb,
  consentId: string,
): Promise<TPaymentRequest | null> {
  const [row] = await db
    .select({ status: consents.status, expiresAt: consents.expiresAt, data: consentEvents.data })
    .from(consents)
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .innerJoin(
      consentEvents,
      and(eq(consentEvents.consentId, consents.id), eq(consentEvents.type, 'consent.created')),
    )
    .where(and(eq(consents.id, consentId), eq(merchants.type, 'api_user')));
  const requestedOf = row?.data.requestedOf;
  if (!row || typeof requestedOf !== 'string') return null;
  return { consentId, status: row.status, expiresAt: row.expiresAt, requestedOf };
}

/**
 * Refuses a payer other than the one a payment request was sent to; any other consent passes.
 * For every answer to a payment request: decline-invitation (payment-requests.ts), and the grant
 * and the page's 'Decline' (consent-grants.ts; docs/payment-requests.md "Who may answer").
 */
export async function assertPaymentRequestPayer(
  db: TDb,
  consentId: string,
  payerId: string | null,
): Promise<TPaymentRequest | null> {
  const request = await findPaymentRequest(db, consentId);
  if (request && request.requestedOf !== payerId) throw new AppError('PAYMENT_REQUEST_FORBIDDEN');
  return request;
}

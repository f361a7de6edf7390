import { and, eq, inArray, sql } from 'drizzle-orm';
import { maskOrigin } from '../../../domain/origin-privacy';
import type { TConsent, TPaymentOrigin } from '../../../domain/schemas/consent';
import type { TPaymentStatusEvent } from '../../../domain/schemas/payment';
import type { TDb } from '../../db/database';
import { consents, paymentAttempts, payments } from '../../db/schema';
import type { TPaymentAccess } from './payment-records';

/*
 * Where a payment's money came from, as each reader may see it (docs/payments.md "Who sees the
 * origin"; the mask itself is src/domain/origin-privacy.ts). The payer who paid sees the origin in
 * full; every other reader of a payer's call — another signed-in payer, whoever holds the consent
 * link — sees it masked. The merchant's API reads the consent without this (its own data).
 */

/** Who reads: a signed-in payer, or null for whoever holds the consent link. */
export type TOriginReader = string | null;

/** The reader of a payer's call on a payment. */
export const readerOf = (access: TPaymentAccess): TOriginReader =>
  'payerId' in access ? access.payerId : null;

/**
 * The payer who paid each executed payment: the payer of its completed attempt, or for a future
 * payment (collected from the accounts the grant chose) the payer who granted the consent. Null
 * for a payment paid without sign-in; absent for one not paid.
 */
async function payersWhoPaid(db: TDb, paymentIds: string[]): Promise<Map<string, string | null>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db
    .select({
      paymentId: payments.id,
      payerId: sql<string | null>`COALESCE(
        (SELECT a.payer_id FROM ${paymentAttempts} a
          WHERE a.payment_id = ${payments.id} AND a.status = 'completed' LIMIT 1),
        CASE WHEN ${payments.type} = 'future' THEN ${consents.grantedBy} END)`,
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(and(inArray(payments.id, paymentIds), eq(payments.status, 'executed')));
  return new Map(rows.map((row) => [row.paymentId, row.payerId]));
}

/** Whether `reader` is the signed-in payer who paid the payment. */
export async function paidBy(db: TDb, paymentId: string, reader: TOriginReader): Promise<boolean> {
  if (reader === null) return false;
  return (await payersWhoPaid(db, [paymentId])).get(paymentId) === reader;
}

/** A payment's origin as `reader` may see it: in full to the payer who paid, masked to others. */
export async function originSeenBy(
  db: TDb,
  paymentId: string,
  origin: TPaymentOrigin | null,
  reader: TOriginReader,
): Promise<TPaymentOrigin | null> {
  if (!origin) return null;
  return (await paidBy(db, paymentId, reader)) ? origin : maskOrigin(origin);
}

/** A consent as `reader` may see it: each payment's origin in full only to the payer who paid it. */
export async function consentSeenBy(
  db: TDb,
  consent: TConsent,
  reader: TOriginReader,
): Promise<TConsent> {
  const paid = consent.payments.filter((p) => p.origin).map((p) => p.paymentId);
  if (paid.length === 0) return consent;
  const payers = reader === null ? new Map<string, string | null>() : await payersWhoPaid(db, paid);
  return {
    ...consent,
    payments: consent.payments.map((payment) =>
      payment.origin && payers.get(payment.paymentId) !== reader
        ? { ...payment, origin: maskOrigin(payment.origin) }
        : payment,
    ),
  };
}

/**
 * The payment stream's events as the stream's reader may see them: the event that names the
 * account the money came from (payerBank) is masked unless the reader is the payer who paid,
 * which is asked when the first such event goes out (a failed lookup masks, and asks again).
 */
export function paymentEventsSeenBy(
  db: TDb,
  paymentId: string,
  reader: TOriginReader,
): (data: Record<string, unknown>) => Promise<Record<string, unknown>> {
  let payer: Promise<boolean> | null = null;
  return async (data) => {
    const { payerBank } = data as TPaymentStatusEvent;
    if (!payerBank) return data;
    payer ??= paidBy(db, paymentId, reader);
    const full = await payer.catch(() => {
      payer = null;
      return false;
    });
    return full ? data : { ...data, payerBank: maskOrigin(payerBank) };
  };
}

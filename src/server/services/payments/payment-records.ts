import { eq, sql } from 'drizzle-orm';
import { isConsentAvailable } from '../../../domain/consent-availability';
import type { TDb } from '../../db/database';
import { preparedQuery } from '../../db/prepared-queries';
import { consents, merchants, paymentAttempts, payments } from '../../db/schema';
import { AT_THE_PROVIDER } from '../../../domain/payment-attempts';
import { inAttemptStates } from './attempts/moves';
import { AppError } from '../../app-error';

/*
 * Who may pay a payment, and when (docs/payments.md): what every way of paying checks before it
 * opens an attempt. An attempt's lifecycle is attempts/moves.ts; its completion, the one place
 * an attempt executes its payment, attempts/completion.ts.
 */

type TPaymentRow = typeof payments.$inferSelect;

/** Who is paying: a signed-in payer, or the holder of the consent link (spec §6). */
export type TPaymentAccess = { payerId: string } | { consentId: string };

export type TPayable = {
  payment: TPaymentRow;
  consentId: string;
  /** The merchant client that owns the consent. */
  clientId: string;
  merchantId: string;
  merchantName: string;
  /** After it the consent, and so its payment, can no longer be paid. */
  consentExpiresAt: Date;
  /**
   * The oldest last change of the payment's attempts still at their provider (a charge, a debit
   * or a purchase whose answer is awaited), as the payable's read saw it; null for none. Opening
   * a new attempt asks about those gone quiet first (reconcile.ts reconcilePayment), and skips
   * the asking when there are none, as there mostly are not.
   */
  atProviderSince: Date | null;
};

/**
 * A payment with its consent, its merchant's name, and the oldest last change of its attempts at
 * their provider, as one prepared query.
 */
const preparePayable = (db: TDb) =>
  db
    .select({
      payment: payments,
      consent: consents,
      merchantName: merchants.name,
      atProviderSince: sql<Date | null>`(
        SELECT min("payment_attempts"."updated_at") FROM "payment_attempts"
        WHERE "payment_attempts"."payment_id" = "payments"."id"
          AND ${inAttemptStates(AT_THE_PROVIDER)})`.mapWith(paymentAttempts.updatedAt),
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .where(eq(payments.id, sql.placeholder('paymentId')))
    .prepare('payable_payment');

/**
 * The immediate payment a payer may pay now. Unknown payments, and payments of another consent
 * than the one the anonymous payer holds, read alike (404), so ids cannot be probed; a consent
 * that asks for sign-in refuses anonymous payers (spec §6).
 */
export async function loadPayable(
  db: TDb,
  paymentId: string,
  access: TPaymentAccess,
  now: Date,
  /** 'read': the payment's state may be read after it was paid and its consent granted. */
  purpose: 'pay' | 'read' = 'pay',
): Promise<TPayable> {
  const [row] = await preparedQuery(db, 'payable_payment', preparePayable).execute({ paymentId });
  if (!row || row.payment.type !== 'immediate') throw new AppError('NO_IMMEDIATE_PAYMENT');
  if ('consentId' in access && access.consentId !== row.consent.id) {
    throw new AppError('NO_IMMEDIATE_PAYMENT');
  }
  if ('consentId' in access && row.consent.requiresAuth) throw new AppError('SIGN_IN_REQUIRED');
  if (purpose === 'pay' && row.payment.status === 'executed') {
    throw new AppError('PAYMENT_ALREADY_MADE');
  }
  const available = isConsentAvailable(
    {
      expiresAt: row.consent.expiresAt.toISOString(),
      payments: [
        {
          type: 'immediate',
          shieldWallet: row.payment.shieldWalletBankName
            ? { bankName: row.payment.shieldWalletBankName }
            : null,
        },
      ],
    },
    now,
  );
  if (purpose === 'pay' && (!available || row.consent.status !== 'pending')) {
    throw new AppError('CONSENT_NOT_FOUND');
  }
  return {
    payment: row.payment,
    consentId: row.consent.id,
    clientId: row.consent.clientId,
    merchantId: row.consent.merchantId,
    merchantName: row.merchantName,
    consentExpiresAt: row.consent.expiresAt,
    atProviderSince: row.atProviderSince,
  };
}

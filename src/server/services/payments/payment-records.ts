import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TCapability } from '../../../domain/capabilities';
import { isConsentAvailable } from '../../../domain/consent-availability';
import type { TDb } from '../../db/database';
import { preparedQuery } from '../../db/prepared-queries';
import { consents, merchants, paymentAttempts, payments, routeSettings } from '../../db/schema';
import type { TRouteSettings } from '../../providers/routing/provider-health';
import { AT_THE_PROVIDER, FAILED_OVER } from '../../../domain/payment-attempts';
import { inAttemptStates, type TAttemptRow } from './attempts/moves';
import { AppError } from '../../app-error';

/*
 * Who may pay a payment, and when (docs/payments.md): what every way of paying checks before it
 * opens an attempt. An attempt's lifecycle is attempts/moves.ts; its completion, the one place
 * an attempt executes its payment, attempts/completion.ts. A card charge and a transfer's
 * one-time account read what their routing needs in the same statement as the payment
 * (loadCardPayable, loadTransferPayable): the merchant's pin and pauses for the capability, and
 * the payment's failed-over card charges or its open account.
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

/** A payable with what its way of paying routes by: its merchant's settings for the capability. */
type TRoutedPayable = TPayable & { routeSettings: TRouteSettings | null };

/** A card charge of the payment that failed over (card-failover.ts). */
export type TFailedOverCharge = {
  id: string;
  provider: string;
  stage: 'retry_elsewhere' | 'tried_elsewhere';
};

/** A new card charge's read: its payable, its routing, its failed-over charges (newest first). */
export type TCardPayable = TRoutedPayable & { failedOver: TFailedOverCharge[] };

/** What a transfer reads: its payable, its routing, and its one-time account still open, if any. */
export type TTransferPayable = TRoutedPayable & { openTransfer: TAttemptRow | null };

/** A payment's row read with its consent, its merchant's name and its attempts at a provider. */
const PAYABLE_COLUMNS = {
  payment: payments,
  consent: consents,
  merchantName: merchants.name,
  atProviderSince: sql<Date | null>`(
    SELECT min("payment_attempts"."updated_at") FROM "payment_attempts"
    WHERE "payment_attempts"."payment_id" = "payments"."id"
      AND ${inAttemptStates(AT_THE_PROVIDER)})`.mapWith(paymentAttempts.updatedAt),
};

/** The joins every payable's query makes: its consent, and the consent's merchant. */
const consentOfPayment = eq(consents.id, payments.consentId);
const merchantOfConsent = eq(merchants.id, consents.merchantId);
const isPaymentAsked = eq(payments.id, sql.placeholder('paymentId'));

/**
 * A payment with its consent, its merchant's name, and the oldest last change of its attempts at
 * their provider, as one prepared query.
 */
const preparePayable = (db: TDb) =>
  db
    .select(PAYABLE_COLUMNS)
    .from(payments)
    .innerJoin(consents, consentOfPayment)
    .innerJoin(merchants, merchantOfConsent)
    .where(isPaymentAsked)
    .prepare('payable_payment');

/** The merchant's route settings for the query's `capability`: its row, where it has one. */
const settingsOfCapability = and(
  eq(routeSettings.merchantId, consents.merchantId),
  eq(routeSettings.capability, sql.placeholder('capability')),
);

/** The payable's columns with the merchant's route settings beside them. */
const PAYING_COLUMNS = {
  ...PAYABLE_COLUMNS,
  pinned: routeSettings.pinned,
  paused: routeSettings.paused,
};

/**
 * The payable as a card charge reads it: with its merchant's route settings for cards and the
 * payment's card charges that failed over (card-failover.ts), newest first, as a JSON array.
 */
const prepareCardPayable = (db: TDb) =>
  db
    .select({
      ...PAYING_COLUMNS,
      failedOver: sql<TFailedOverCharge[]>`(
        SELECT coalesce(json_agg(json_build_object(
          'id', "payment_attempts"."id",
          'provider', "payment_attempts"."provider",
          'stage', "payment_attempts"."stage"
        ) ORDER BY "payment_attempts"."created_at" DESC), '[]'::json)
        FROM "payment_attempts"
        WHERE "payment_attempts"."payment_id" = "payments"."id"
          AND "payment_attempts"."method" = 'card'
          AND ${inAttemptStates(FAILED_OVER)})`,
    })
    .from(payments)
    .innerJoin(consents, consentOfPayment)
    .innerJoin(merchants, merchantOfConsent)
    .leftJoin(routeSettings, settingsOfCapability)
    .where(isPaymentAsked)
    .prepare('payable_payment_by_card');

/** The payment's open one-time account (one at most: payment_attempts_one_open_transfer). */
const openTransfer = alias(paymentAttempts, 'open_transfer');

/**
 * The payable as a transfer reads it: with its merchant's route settings for transfers in and
 * the payment's one-time account still open, if any.
 */
const prepareTransferPayable = (db: TDb) =>
  db
    .select({ ...PAYING_COLUMNS, openTransfer })
    .from(payments)
    .innerJoin(consents, consentOfPayment)
    .innerJoin(merchants, merchantOfConsent)
    .leftJoin(routeSettings, settingsOfCapability)
    .leftJoin(
      openTransfer,
      and(eq(openTransfer.paymentId, payments.id), eq(openTransfer.stage, 'awaiting_transfer')),
    )
    .where(isPaymentAsked)
    .prepare('payable_payment_by_transfer');

type TPayableRow = Awaited<ReturnType<ReturnType<typeof preparePayable>['execute']>>[number];

/** The payment's row as its query found it: none reads as no immediate payment (404). */
function foundRow<TRow>([row]: readonly TRow[]): TRow {
  if (!row) throw new AppError('NO_IMMEDIATE_PAYMENT');
  return row;
}

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
  const rows = await preparedQuery(db, 'payable_payment', preparePayable).execute({ paymentId });
  return payableOf(foundRow(rows), access, now, purpose);
}

/** A payable's row with its merchant's route settings beside it (PAYING_COLUMNS). */
type TRoutedRow = TPayableRow & { pinned: string | null; paused: Record<string, string> | null };

/**
 * One way of paying's read of its payable, in one statement (the prepared query `name`): the
 * payable as loadPayable checks it, the merchant's route settings for `capability` (null where it
 * has no row), and what `more` takes of the row for that way of paying.
 */
const routedPayableReader =
  <TRow extends TRoutedRow, TMore>(
    name: string,
    prepare: (db: TDb) => { execute(values: Record<string, unknown>): Promise<TRow[]> },
    capability: TCapability,
    more: (row: TRow) => TMore,
  ) =>
  async (db: TDb, paymentId: string, access: TPaymentAccess, now: Date) => {
    const row = foundRow(await preparedQuery(db, name, prepare).execute({ paymentId, capability }));
    const { pinned, paused } = row;
    const routeSettings = paused === null ? null : { pinned, paused };
    const payable: TRoutedPayable = { ...payableOf(row, access, now, 'pay'), routeSettings };
    return { ...payable, ...more(row) };
  };

/** A card charge's payable, with the routing of the charge (card-failover.ts routeCardCharge). */
export const loadCardPayable = routedPayableReader(
  'payable_payment_by_card',
  prepareCardPayable,
  'cards',
  (row): Pick<TCardPayable, 'failedOver'> => ({ failedOver: row.failedOver }),
);

/** A transfer's payable, with its routing and its one-time account still open. */
export const loadTransferPayable = routedPayableReader(
  'payable_payment_by_transfer',
  prepareTransferPayable,
  'transfersIn',
  (row): Pick<TTransferPayable, 'openTransfer'> => ({ openTransfer: row.openTransfer }),
);

/** The payable `row` is, when `access` may pay it (or read it) now; refused otherwise. */
function payableOf(
  row: TPayableRow,
  access: TPaymentAccess,
  now: Date,
  purpose: 'pay' | 'read',
): TPayable {
  if (row.payment.type !== 'immediate') throw new AppError('NO_IMMEDIATE_PAYMENT');
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

import { and, desc, eq, isNotNull, not, or, sql, type SQL } from 'drizzle-orm';
import { payerBankOf } from '../../../domain/after-payment';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TPaymentStateResponse, TTransferDetails } from '../../../domain/schemas/payment';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { consents, paymentAttempts, payments } from '../../db/schema';
import { eventStreams, latestEventId } from '../../events/event-log';
import { attemptViewOf } from './attempt-view';
import { AppError } from '../../app-error';
import { mayOwnCharge, ownedByPage } from './charge-owners';
import type { TAttemptRow } from './attempts/moves';
import type { TPaymentAccess } from './payment-records';
import { originSeenBy, readerOf } from './origin-views';

/*
 * Reading a payment as its payer's page does (GET /api/payments/{paymentId}): where it stands,
 * and its latest attempt in the shape every payment event carries (attempt-view.ts).
 *
 * Who may read or stream a payment (docs/payments.md "Who reads a payment"): its payer — the
 * signed-in payer who made an attempt of it, or the page that holds the token of an attempt made
 * without sign-in (every such attempt gives its page one: a card charge, a one-time account, a
 * chip purchase) — and, while nobody has made an attempt anyone can be named for, whoever may pay
 * it (the page opens on the payment before paying). Holding the consent link is not enough: it
 * is the link of every page that pays the consent. Once executed, only the payer of the attempt
 * that paid it. Anyone else finds no payment (404 NO_IMMEDIATE_PAYMENT), as for an id that does
 * not exist, so ids cannot be probed. The check is part of the statement that reads the payment.
 */

/** Who reads a payment: who acts on it, and the charge tokens their page holds. */
export type TPaymentReader = { access: TPaymentAccess; chargeTokens: readonly string[] };

/**
 * The attempts `reader` made: those made without sign-in whose token their page holds, and a
 * signed-in payer's own (with those they made on this page before signing in).
 */
function madeBy(reader: TPaymentReader): SQL {
  const held = reader.chargeTokens.map(ownedByPage);
  const mine =
    'payerId' in reader.access ? [eq(paymentAttempts.payerId, reader.access.payerId)] : [];
  return or(...mine, ...held) ?? sql`false`;
}

/** Attempts someone can be named for: a signed-in payer's, or a page's that got a token. */
const claimed = or(isNotNull(paymentAttempts.payerId), isNotNull(paymentAttempts.ownerTokenHash));

/** The attempts `reader` sees: their own, and those nobody can be named for. */
export const attemptsSeenBy = (reader: TPaymentReader): SQL =>
  or(madeBy(reader), not(claimed ?? sql`false`)) ?? sql`false`;

/** Whether `reader` may read the payment of the row being read (a condition on `payments`). */
function readableBy(reader: TPaymentReader): SQL {
  return sql`(EXISTS (SELECT 1 FROM ${paymentAttempts}
      WHERE ${paymentAttempts.paymentId} = ${payments.id} AND ${madeBy(reader)}
        AND (${payments.status} <> 'executed' OR ${paymentAttempts.status} = 'completed'))
    OR (${payments.status} <> 'executed' AND NOT EXISTS (SELECT 1 FROM ${paymentAttempts}
      WHERE ${paymentAttempts.paymentId} = ${payments.id} AND ${claimed})))`;
}

/** An immediate payment `reader` may read (see above), and its consent. */
export type TReadablePayment = {
  payment: typeof payments.$inferSelect;
  consentId: string;
  /** The merchant client that owns the consent. */
  clientId: string;
};

/**
 * The immediate payment `reader` may read, in one statement: unknown, another consent's than the
 * one an anonymous reader holds, or another payer's, it is 404 NO_IMMEDIATE_PAYMENT. A consent
 * that asks for sign-in refuses anonymous readers (spec §6).
 */
export async function loadReadable(
  db: TDb,
  paymentId: string,
  reader: TPaymentReader,
): Promise<TReadablePayment> {
  const { access } = reader;
  const [row] = await db
    .select({
      payment: payments,
      consentId: consents.id,
      clientId: consents.clientId,
      requiresAuth: consents.requiresAuth,
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.type, 'immediate'),
        'consentId' in access ? eq(consents.id, access.consentId) : undefined,
        readableBy(reader),
      ),
    );
  if (!row) throw new AppError('NO_IMMEDIATE_PAYMENT');
  if ('consentId' in access && row.requiresAuth) throw new AppError('SIGN_IN_REQUIRED');
  return { payment: row.payment, consentId: row.consentId, clientId: row.clientId };
}

/** The one-time account of an attempt, as spec §3 Transfer details. */
export const detailsOf = (attempt: TAttemptRow): TTransferDetails | null =>
  attempt.transferDetails ? { amount: attempt.amount, ...attempt.transferDetails } : null;

/** GET /api/payments/{paymentId}: where the payment stands, for a page that lost its stream. */
export async function paymentState(
  ctx: Pick<TAppContext, 'db' | 'clock'>,
  paymentId: string,
  reader: TPaymentReader,
): Promise<TPaymentStateResponse> {
  const { access } = reader;
  // Read before the payment: an event written meanwhile is after it, so the page's stream,
  // opened from it, still sends it.
  const lastEventId = await latestEventId(ctx.db, eventStreams.payment(paymentId));
  const { payment } = await loadReadable(ctx.db, paymentId, reader);
  // Another payer's attempt (its one-time account, its 3-D Secure page) is not shown.
  const [attempt] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.paymentId, payment.id), attemptsSeenBy(reader)))
    .orderBy(desc(paymentAttempts.createdAt), desc(paymentAttempts.id))
    .limit(1);
  const executed = payment.status === 'executed';
  // Where the money came from: in full to the payer who paid, masked to anyone else.
  const origin = executed
    ? await originSeenBy(ctx.db, payment.id, payment.origin, readerOf(access))
    : null;
  return {
    success: true,
    paymentId: payment.id,
    status: executed ? 'completed' : (attempt?.status ?? 'pending'),
    stepText: executed ? null : (attempt?.stepText ?? null),
    method: attempt?.method ?? null,
    amount: payment.amount,
    executedAt: payment.executedAt ? payment.executedAt.toISOString() : null,
    transferDetails:
      !executed && attempt?.stage === 'awaiting_transfer' ? detailsOf(attempt) : null,
    message:
      !executed && attempt?.status === 'failed' && attempt.failureCode
        ? ERROR_CATALOGUE[attempt.failureCode].message
        : null,
    // The OTP screen is only for who may answer it: another payer's charge is not shown.
    otpDisplayMessage:
      !executed && attempt?.stage === 'awaiting_otp' && mayOwnCharge(attempt, access)
        ? (attempt.displayMessage ?? '')
        : null,
    attempt: attempt ? attemptViewOf(attempt) : null,
    payerBank: payerBankOf(origin),
    shouldPromptBankAccountLinking: origin?.shouldPromptBankAccountLinking ?? false,
    lastEventId,
  };
}

/**
 * Whether a payment stream's reader hears the events of the attempt `attemptId`: those of the
 * attempts they see (attemptsSeenBy), so a stream opened before another payer began does not
 * follow them.
 */
export async function hearsAttempt(
  db: TDb,
  attemptId: string,
  reader: TPaymentReader,
): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.id, attemptId), attemptsSeenBy(reader)));
  return Boolean(row);
}

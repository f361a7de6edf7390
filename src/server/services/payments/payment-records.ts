import { and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/database-errors';
import { isConsentAvailable } from '../../../domain/consent-availability';
import type { TErrorCode } from '../../../domain/errors';
import {
  ATTEMPT_STATES,
  ATTEMPT_TRANSITIONS,
  mayMove,
  namedStateOf,
  type TAttemptEdge,
  type TAttemptState,
} from '../../../domain/payment-attempts';
import type { TPaymentOrigin } from '../../../domain/schemas/consent';
import type { TPaymentStatusEvent } from '../../../domain/schemas/payment';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { consentEvents, consents, merchants, paymentAttempts, payments } from '../../db/schema';
import { appendEvent, eventStreams } from '../../events/event-log';
import { AppError } from '../app-error';
import { book, ledgerAccount, type TLedgerTransactionKind } from './ledger';
import { recordMerchantEvent } from '../merchants/webhooks';
import { grantMetByPayment } from '../consents/payment-grants';
import { attemptViewOf } from './attempt-view';

/*
 * The records every way of paying shares (docs/payments.md): who may pay a payment, an attempt's
 * state changes, and the one place a payment becomes executed — under a lock on the payment's
 * row, with its ledger entries, its audit row and its stream event, in one transaction.
 */

export type TAttemptRow = typeof paymentAttempts.$inferSelect;
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
  hasFuturePayments: boolean;
  /** After it the consent, and so its payment, can no longer be paid. */
  consentExpiresAt: Date;
};

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
  const [row] = await db
    .select({ payment: payments, consent: consents, merchantName: merchants.name })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .where(eq(payments.id, paymentId));
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
  const [future] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.consentId, row.consent.id), eq(payments.type, 'future')))
    .limit(1);
  return {
    payment: row.payment,
    consentId: row.consent.id,
    clientId: row.consent.clientId,
    merchantId: row.consent.merchantId,
    merchantName: row.merchantName,
    hasFuturePayments: Boolean(future),
    consentExpiresAt: row.consent.expiresAt,
  };
}

/**
 * Writes an event on the payment's stream inside `tx`, the transaction of the change, with the
 * attempt it is about as the payment read shows it (attempt-view.ts).
 */
export function emitPaymentEvent(
  tx: TDb,
  event: Omit<TPaymentStatusEvent, 'attempt'>,
  attempt: TAttemptRow,
): Promise<number> {
  return appendEvent(tx, {
    stream: eventStreams.payment(event.paymentId),
    type: 'payment_status',
    data: { ...event, attempt: attemptViewOf(attempt) } satisfies TPaymentStatusEvent,
  });
}

/** Creates an attempt; a second card charge of one payment at once is PAYMENT_IN_PROGRESS. */
/**
 * Locks the payment's row for the rest of `tx` and refuses one already executed (409
 * PAYMENT_ALREADY_MADE). Called first in the transaction that opens a charging attempt: an
 * attempt completing at the same moment takes the same lock (completeAttempt), so a new charge
 * or debit never starts on a payment another one has just paid.
 */
export async function lockPendingPayment(tx: TDb, paymentId: string): Promise<void> {
  const [row] = await tx
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.id, paymentId))
    .for('update');
  if (!row) throw new AppError('NOT_FOUND');
  if (row.status === 'executed') throw new AppError('PAYMENT_ALREADY_MADE');
}

/**
 * A card link's test charge this long without an answer is taken for lost with its process
 * (docs/accounts.md). A payment's attempt is never given up by age: the reconciler asks the
 * provider about it (lost-attempts.ts).
 */
export const STALE_CHARGE_MS = 5 * 60 * 1_000;

export async function insertAttempt(
  tx: TDb,
  values: Omit<typeof paymentAttempts.$inferInsert, 'id'>,
): Promise<TAttemptRow> {
  try {
    const [attempt] = await tx
      .insert(paymentAttempts)
      .values({ id: randomId('att'), ...values })
      .returning();
    if (!attempt) throw new Error('An attempt could not be recorded');
    return attempt;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('PAYMENT_IN_PROGRESS');
    throw error;
  }
}

export { isUniqueViolation };

/** What a move may set besides the state its edge reaches. */
export type TAttemptChange = Omit<
  Partial<typeof paymentAttempts.$inferInsert>,
  'id' | 'status' | 'stage' | 'updatedAt'
>;

/** The rows in one of `states`, as a condition on the status and stage pair. */
export function inAttemptStates(states: readonly TAttemptState[]): SQL {
  const pairs = states.map((state) => {
    const { status, stage } = ATTEMPT_STATES[state];
    return and(
      eq(paymentAttempts.status, status),
      stage === null ? isNull(paymentAttempts.stage) : eq(paymentAttempts.stage, stage),
    );
  });
  return or(...pairs) ?? sql`false`;
}

/**
 * The one way an attempt's state changes: along an edge of ATTEMPT_TRANSITIONS
 * (src/domain/payment-attempts.ts), in one statement that checks the attempt is in one of the
 * edge's `from` states (and `also`, when given) and moves it. Answers the attempts moved; none
 * when they were not there any more (another request moved them first).
 */
export async function moveAttempts(
  db: TDb,
  which: SQL,
  edge: TAttemptEdge,
  change: TAttemptChange,
  now: Date,
): Promise<TAttemptRow[]> {
  const { from, to } = ATTEMPT_TRANSITIONS[edge];
  const { status, stage } = ATTEMPT_STATES[to];
  const ended = to === 'completed' || to === 'failed';
  return db
    .update(paymentAttempts)
    .set({
      ...(ended ? { stepText: null } : {}),
      ...(to === 'completed' ? { completedAt: now } : {}),
      ...change,
      status,
      stage,
      updatedAt: now,
    })
    .where(and(which, inAttemptStates(from)))
    .returning();
}

/** Moves one attempt along `edge` (moveAttempts): null when it was not in a `from` state. */
export async function moveAttempt(
  db: TDb,
  attemptId: string,
  edge: TAttemptEdge,
  change: TAttemptChange,
  now: Date,
  also?: SQL,
): Promise<TAttemptRow | null> {
  const [moved] = await moveAttempts(
    db,
    and(eq(paymentAttempts.id, attemptId), also) ?? sql`false`,
    edge,
    change,
    now,
  );
  return moved ?? null;
}

/** Ends an attempt as failed, with the catalogue's code and message, and tells the stream. */
export async function failAttempt(
  db: TDb,
  attempt: TAttemptRow,
  failure: AppError,
  reason: string,
  now: Date,
  /** 'fail': the provider's answer ended it; 'abandon': it ended without the provider. */
  edge: 'fail' | 'abandon' = 'fail',
  change: TAttemptChange = {},
): Promise<TAttemptRow | null> {
  return db.transaction(async (tx) => {
    const ended = await moveAttempt(
      tx,
      attempt.id,
      edge,
      { failureCode: failure.code, failureReason: reason, ...change },
      now,
    );
    if (!ended) return null;
    await emitPaymentEvent(
      tx,
      { paymentId: attempt.paymentId, status: 'failed', message: failure.message },
      ended,
    );
    const [consent] = await tx
      .select({ clientId: consents.clientId })
      .from(consents)
      .where(eq(consents.id, attempt.consentId));
    if (consent) {
      await recordMerchantEvent(tx, {
        clientId: consent.clientId,
        consentId: attempt.consentId,
        type: 'payment.failed',
        data: {
          consentId: attempt.consentId,
          paymentId: attempt.paymentId,
          method: attempt.method,
          code: failure.code,
          message: failure.message,
        },
        now,
      });
    }
    return ended;
  });
}

/**
 * Calls the provider for an attempt under way. A call that threw (a network fault, no answer)
 * throws `failureCode`, and the attempt stays as it is, 'charging': whether the money moved is
 * not known, so nothing may charge the payment again until the reconciler has asked the provider
 * about the attempt's reference (lost-attempts.ts).
 */
export async function callProvider<T>(failureCode: TErrorCode, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    throw new AppError(failureCode);
  }
}

const LEDGER_KIND_OF: Record<TAttemptRow['method'], TLedgerTransactionKind> = {
  card: 'card_payment',
  bank_transfer: 'transfer_payment',
  account: 'account_debit',
  chip_card: 'chip_card_payment',
};

export type TCompletion =
  /** Executed by this attempt (now, or before: settled once, whoever asked first). */
  | { completed: true; payment: TPaymentRow }
  /** The payment was executed by another attempt first: this one's money is owed back. */
  | { completed: false };

/**
 * Completes an attempt and executes its payment, inside `tx`: the payment's row is locked, so of
 * two attempts completing at once exactly one executes it. With it: the ledger entries (payer
 * source → the merchant's collection wallet), the payment's origin (spec §3), an audit row and the
 * stream's 'completed' event.
 */
export async function completeAttempt(
  tx: TDb,
  attempt: TAttemptRow,
  origin: TPaymentOrigin,
  event: Omit<TPaymentStatusEvent, 'paymentId' | 'status' | 'eventType'>,
  now: Date,
): Promise<TCompletion> {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(eq(payments.id, attempt.paymentId))
    .for('update');
  if (!payment) throw new Error(`Payment ${attempt.paymentId} vanished`);
  // The attempt's row next: of two who settle one attempt at once (its own answer and the
  // reconciler's requery), the second finds it settled and books nothing again.
  const [current] = await tx
    .select({
      status: paymentAttempts.status,
      stage: paymentAttempts.stage,
      refund: paymentAttempts.refund,
    })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, attempt.id))
    .for('update');
  if (!current) throw new Error(`Attempt ${attempt.id} vanished`);
  if (current.status === 'completed') return { completed: true, payment };
  if (current.refund !== null) return { completed: false };
  // Money that reached an attempt already ended (e.g. a 3-D Secure challenge given up) is owed
  // back like money that reached a paid payment.
  const ended = !mayMove(namedStateOf(current), 'complete');
  const [consent] = await tx
    .select({ merchantId: consents.merchantId, clientId: consents.clientId })
    .from(consents)
    .where(eq(consents.id, payment.consentId));
  if (!consent) throw new Error(`Consent ${payment.consentId} vanished`);
  const kind = LEDGER_KIND_OF[attempt.method];
  const way = attempt.method;
  // Money came in either way; if the payment was paid meanwhile it goes straight back out.
  await book(tx, {
    kind,
    reference: attempt.id,
    paymentId: payment.id,
    attemptId: attempt.id,
    narration: payment.narration,
    entries: [
      { account: ledgerAccount.payerSource(way), amount: -attempt.amount },
      { account: ledgerAccount.collectionWallet(consent.merchantId), amount: attempt.amount },
    ],
  });
  if (payment.status === 'executed' || ended) {
    await book(tx, {
      kind: 'card_refund',
      reference: attempt.id,
      paymentId: payment.id,
      attemptId: attempt.id,
      narration: `Refund: ${payment.narration}`,
      entries: [
        { account: ledgerAccount.collectionWallet(consent.merchantId), amount: -attempt.amount },
        { account: ledgerAccount.payerSource(way), amount: attempt.amount },
      ],
    });
    // Owed back from now on (settlements.ts giveBack); a transfer's bank returns it itself.
    const refund = attempt.method === 'bank_transfer' ? null : ('owed' as const);
    if (ended) {
      // Not a move: the attempt stays as it ended, and owes the money back.
      await tx
        .update(paymentAttempts)
        .set({ refund, updatedAt: now })
        .where(eq(paymentAttempts.id, attempt.id));
    } else {
      await moveAttempt(
        tx,
        attempt.id,
        'paidOtherwise',
        { failureCode: 'PAYMENT_ALREADY_MADE', failureReason: 'paid_by_another_attempt', refund },
        now,
      );
    }
    return { completed: false };
  }
  const completed = await moveAttempt(tx, attempt.id, 'complete', {}, now);
  if (!completed) throw new Error(`Attempt ${attempt.id} cannot complete from where it is`);
  // Other ways the payer had started (an open transfer account, a charge waiting for its OTP)
  // end here; money that still reaches them is returned or refunded.
  await moveAttempts(
    tx,
    eq(paymentAttempts.paymentId, payment.id),
    'closedByPayment',
    { failureCode: 'PAYMENT_ALREADY_MADE', failureReason: 'paid_by_another_attempt' },
    now,
  );
  const [executed] = await tx
    .update(payments)
    .set({ status: 'executed', executedAt: now, origin })
    .where(eq(payments.id, payment.id))
    .returning();
  if (!executed) throw new Error(`Payment ${payment.id} could not be executed`);
  await tx.insert(consentEvents).values({
    consentId: payment.consentId,
    type: 'payment.executed',
    actor: attempt.payerId ? `payer:${attempt.payerId}` : 'payer:anonymous',
    data: { paymentId: payment.id, attemptId: attempt.id, method: attempt.method },
  });
  await emitPaymentEvent(
    tx,
    { paymentId: payment.id, status: 'completed', eventType: 'payment_success', ...event },
    completed,
  );
  await recordMerchantEvent(tx, {
    clientId: consent.clientId,
    consentId: payment.consentId,
    type: 'payment.completed',
    data: {
      consentId: payment.consentId,
      paymentId: payment.id,
      amount: payment.amount,
      method: attempt.method,
      executedAt: now.toISOString(),
    },
    now,
  });
  await grantMetByPayment(tx, executed, attempt.payerId, now);
  return { completed: true, payment: executed };
}

/** The latest attempt of a payment, if any. */
export async function latestAttempt(db: TDb, paymentId: string): Promise<TAttemptRow | null> {
  const [attempt] = await db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId))
    .orderBy(desc(paymentAttempts.createdAt), desc(paymentAttempts.id))
    .limit(1);
  return attempt ?? null;
}

import { eq, sql } from 'drizzle-orm';
import { isCalledOffPush, mayMove, namedStateOf } from '../../../../domain/payment-attempts';
import type { TConsent, TPaymentOrigin } from '../../../../domain/schemas/consent';
import type { TPaymentStatusEvent } from '../../../../domain/schemas/payment';
import type { TDb } from '../../../db/database';
import { preparedQuery } from '../../../db/prepared-queries';
import type { TJobQueue } from '../../../jobs/engine';
import { consents, paymentAttempts, payments } from '../../../db/schema';
import { mayMoveAlong } from '../../consents/consent-moves';
import { consentAsJson, consentOfJson } from '../../consents/consents';
import { paymentGrantRecords, paymentGrants } from '../../consents/payment-grants';
import { joinRecords, writeChangeRecords, type TChangeRecords } from '../../change-records';
import {
  moveAttempt,
  moveGiveBack,
  paymentEventRow,
  payAttempt,
  type TAttemptChange,
  type TAttemptRow,
} from './moves';
import { book, ledgerAccount, type TBooking, type TLedgerTransactionKind } from '../ledger';

/*
 * An attempt's completion (docs/payments.md "Completion"): the one place an attempt executes its
 * payment (a future payment's collection has no attempt and executes its own, recordSuccess in
 * future-collections.ts: the document says where the two differ). Every way of paying comes here
 * with what its provider took, inside the transaction that applies the answer (settlements.ts for a
 * charge, a debit or a chip purchase; a transfer's notice, transfer-payments.ts), and every row is
 * written once:
 *  1. the payment's row is locked, then the attempt's (the order every transaction of a payment
 *     takes, so two never wait on each other), and its consent read with them, whole while it may
 *     still be granted; an attempt settled before changes nothing;
 *  2. a payment paid otherwise, or an attempt that had ended, owes the money back: booked in and
 *     straight back out, the attempt keeping what it took and owing it (a transfer's bank
 *     returns it itself: nothing is booked);
 *  3. otherwise, in one statement (payAttempt), the attempt completes with what it took, the
 *     payment's other attempts close, the payment is executed, and a consent its payment grants
 *     (consents/payment-grants.ts, asked of the consent the lock read) is granted if it is still
 *     pending; and in one more, its audit rows, stream event and webhook events are written and
 *     the money is booked in (the accounts it moves are shared by every payment of a merchant:
 *     locked at that statement's end, held only until the commit).
 * The answer is the fact, for the caller to act on (give the money back, return the transfer).
 */

type TPaymentRow = typeof payments.$inferSelect;
/** The payment's consent, as the completion's lock read it: whose it is. */
type TConsentOwner = { merchantId: string; clientId: string };

/** What the provider said the attempt took: kept on the attempt by the move that settles it. */
export type TTaken = Pick<
  TAttemptChange,
  'providerReference' | 'chargeReference' | 'cardToken' | 'cardBrand' | 'cardFirst6' | 'cardLast4'
>;

export type TCompletion =
  /** This attempt executed its payment now. */
  | { fact: 'executed'; payment: TPaymentRow }
  /** It had executed it before: settled once, whoever asked first. */
  | { fact: 'executed_before'; payment: TPaymentRow }
  /** The payment was paid otherwise (or the attempt had ended): the money goes back. */
  | { fact: 'paid_otherwise' }
  /** Its money was owed back before. */
  | { fact: 'owed_before' };

/** Whether the attempt's money paid the payment (now or before). */
export const paidThePayment = (
  completion: TCompletion,
): completion is Extract<TCompletion, { payment: TPaymentRow }> =>
  completion.fact === 'executed' || completion.fact === 'executed_before';

/** The attempt to complete, what it took, and what the payment and its stream record of it. */
export type TCompletionRequest = {
  attempt: TAttemptRow;
  taken: TTaken;
  /** Where the money came from (spec §3 Payment.origin). */
  origin: TPaymentOrigin;
  /** The stream's 'completed' event, less what completion fills in. */
  event: Omit<TPaymentStatusEvent, 'paymentId' | 'status' | 'eventType' | 'attempt'>;
};

const LEDGER_KIND_OF: Record<TAttemptRow['method'], TLedgerTransactionKind> = {
  card: 'card_payment',
  bank_transfer: 'transfer_payment',
  account: 'account_debit',
  chip_card: 'chip_card_payment',
};

/**
 * Completes an attempt and executes its payment, inside `tx` (the steps above). `locked`: the
 * completion's lock, where the caller took it to read the attempt first (a transfer's notice).
 */
export async function completeAttempt(
  jobs: TJobQueue,
  tx: TDb,
  request: TCompletionRequest,
  now: Date,
  locked?: TCompletionLock,
): Promise<TCompletion> {
  const { attempt } = request;
  const lock = locked ?? (await lockCompletion(tx, attempt.id));
  if (!lock) throw new Error(`Attempt ${attempt.id} or its payment vanished`);
  const { payment, attempt: current, owner, consent } = lock;
  if (current.status === 'completed') return { fact: 'executed_before', payment };
  if (current.refund !== null) return { fact: 'owed_before' };
  // Money that reaches an attempt already ended (a 3-D Secure challenge given up) is owed back
  // like money that reaches a paid payment; a pushed terminal's request called off and paid
  // there after all pays a payment still unpaid.
  const calledOff = isCalledOffPush(current);
  const ended = !mayMove(namedStateOf(current), 'complete') && !calledOff;
  if (payment.status === 'executed' || ended) {
    await oweBack(tx, request, { payment, owner, ended: ended || calledOff }, now);
    return { fact: 'paid_otherwise' };
  }
  // The consent this payment grants (payment-grants.ts), as the lock read it.
  const grantee = consent && paymentGrants(consent, payment.id) ? consent : null;
  const paid = await payAttempt(
    tx,
    {
      attemptId: attempt.id,
      paymentId: payment.id,
      origin: request.origin,
      grant: grantee ? { consentId: payment.consentId, grantedBy: attempt.payerId } : null,
    },
    calledOff ? 'paidAfterCallOff' : 'complete',
    calledOff ? { ...request.taken, failureCode: null, failureReason: null } : request.taken,
    now,
  );
  if (!paid) throw new Error(`Attempt ${attempt.id} cannot complete from where it is`);
  const completed = paid.attempt;
  // The payment as payAttempt executed it (its row is locked: nothing else changed it).
  const executed: TPaymentRow = {
    ...payment,
    status: 'executed',
    executedAt: now,
    origin: request.origin,
  };
  const granted =
    grantee && paid.consentGranted
      ? paymentGrantRecords(
          grantee,
          owner.clientId,
          { paymentId: payment.id, payerId: attempt.payerId },
          now,
        )
      : {};
  // The money is booked in the records' statement, its balances locked at its end: the accounts
  // a booking moves (the merchant's wallet, the payer side of each way of paying) are rows every
  // payment of theirs updates, locked from there until the commit. Taken first, each payment's
  // lock waited on every statement of the payments before it.
  await writeChangeRecords(
    jobs,
    tx,
    joinRecords(executionRecords({ request, completed, executed, owner }, now), granted, {
      bookings: [moneyBooking('in', { attempt, payment, owner })],
    }),
    now,
  );
  return { fact: 'executed', payment: executed };
}

/**
 * In one statement: the payment's row and the attempt's state, locked for the rest of `tx` in
 * that order (the order every transaction of a payment takes), the merchant and client whose
 * consent it is, and, while the consent may still be granted (its lifecycle's 'grant' edge), the
 * consent with everything it asks for (consents.ts consentAsJson: what loadConsent reads), which
 * decides whether the payment grants it and makes the grant's record; a consent no payment can
 * grant any more is not read. Of two completions of one payment at once, one executes it; of two
 * who settle one attempt at once (its own answer and the reconciler's requery), the second finds
 * it settled and books nothing again. Prepared once.
 */
const prepareCompletionLock = (db: TDb) =>
  db
    .select({
      payment: payments,
      attempt: paymentAttempts,
      merchantId: consents.merchantId,
      clientId: consents.clientId,
      consentExpiresAt: consents.expiresAt,
      grantable: sql<unknown>`case when ${mayMoveAlong('grant')} then ${consentAsJson} end`,
    })
    .from(payments)
    .innerJoin(paymentAttempts, eq(paymentAttempts.paymentId, payments.id))
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(eq(paymentAttempts.id, sql.placeholder('attemptId')))
    .for('update', { of: [payments, paymentAttempts] })
    .prepare('completion_lock');

/** What the completion's lock read (prepareCompletionLock). */
export type TCompletionLock = {
  payment: TPaymentRow;
  /** The attempt as it is now, locked. */
  attempt: TAttemptRow;
  owner: TConsentOwner;
  consentExpiresAt: Date;
  /** The consent with everything it asks for while it may still be granted; null after. */
  consent: TConsent | null;
};

/**
 * Takes the completion's lock on the attempt `attemptId` and its payment, inside `tx`: null when
 * there is no such attempt.
 */
export async function lockCompletion(tx: TDb, attemptId: string): Promise<TCompletionLock | null> {
  const [row] = await preparedQuery(tx, 'completion_lock', prepareCompletionLock).execute({
    attemptId,
  });
  if (!row) return null;
  const { payment, attempt, merchantId, clientId, consentExpiresAt, grantable } = row;
  return {
    payment,
    attempt,
    owner: { merchantId, clientId },
    consentExpiresAt,
    consent: grantable === null ? null : consentOfJson(grantable),
  };
}

/**
 * The attempt's money booked 'in' (the payer's way in → the merchant's collection wallet), or
 * 'back' out again to the payer.
 */
function moneyBooking(
  direction: 'in' | 'back',
  { attempt, payment, owner }: { attempt: TAttemptRow; payment: TPaymentRow; owner: TConsentOwner },
): TBooking {
  const payer = { account: ledgerAccount.payerSource(attempt.method), amount: -attempt.amount };
  const wallet = {
    account: ledgerAccount.collectionWallet(owner.merchantId),
    amount: attempt.amount,
  };
  const takenIn = direction === 'in';
  return {
    kind: takenIn ? LEDGER_KIND_OF[attempt.method] : 'card_refund',
    reference: attempt.id,
    paymentId: payment.id,
    attemptId: attempt.id,
    narration: takenIn ? payment.narration : `Refund: ${payment.narration}`,
    entries: takenIn
      ? [payer, wallet]
      : [
          { ...wallet, amount: -wallet.amount },
          { ...payer, amount: -payer.amount },
        ],
  };
}

/**
 * Money that reached a payment paid otherwise, or an attempt that had ended: booked in and back
 * out, and owed back from now on (settlements.ts giveBack). A transfer is neither booked nor owed:
 * its bank returns it. An ended attempt stays as it ended; one still open ends as paid otherwise.
 */
async function oweBack(
  tx: TDb,
  { attempt, taken }: TCompletionRequest,
  { payment, owner, ended }: { payment: TPaymentRow; owner: TConsentOwner; ended: boolean },
  now: Date,
): Promise<void> {
  const returnedByBank = attempt.method === 'bank_transfer';
  if (!returnedByBank) {
    await book(tx, moneyBooking('in', { attempt, payment, owner }));
    await book(tx, moneyBooking('back', { attempt, payment, owner }));
  }
  if (!ended) {
    const closed = await moveAttempt(
      tx,
      attempt.id,
      'paidOtherwise',
      { ...taken, failureCode: 'PAYMENT_ALREADY_MADE', failureReason: 'paid_by_another_attempt' },
      now,
    );
    if (closed && !returnedByBank) await moveGiveBack(tx, attempt.id, 'owe', now);
    return;
  }
  if (!returnedByBank) {
    await moveGiveBack(tx, attempt.id, 'owe', now, taken);
    return;
  }
  await tx
    .update(paymentAttempts)
    .set({ ...taken, updatedAt: now })
    .where(eq(paymentAttempts.id, attempt.id));
}

/** The execution's records: the consent's audit row, the stream's event and the webhook event. */
function executionRecords(
  facts: {
    request: TCompletionRequest;
    completed: TAttemptRow;
    executed: TPaymentRow;
    owner: TConsentOwner;
  },
  now: Date,
): TChangeRecords {
  const { request, completed, executed, owner } = facts;
  const { attempt } = request;
  return {
    consentEvents: [
      {
        consentId: executed.consentId,
        type: 'payment.executed',
        actor: attempt.payerId ? `payer:${attempt.payerId}` : 'payer:anonymous',
        data: { paymentId: executed.id, attemptId: attempt.id, method: attempt.method },
      },
    ],
    streamEvents: [
      paymentEventRow(
        {
          paymentId: executed.id,
          status: 'completed',
          eventType: 'payment_success',
          ...request.event,
        },
        completed,
      ),
    ],
    merchantEvents: [
      {
        clientId: owner.clientId,
        consentId: executed.consentId,
        type: 'payment.completed',
        data: {
          consentId: executed.consentId,
          paymentId: executed.id,
          amount: executed.amount,
          method: attempt.method,
          executedAt: now.toISOString(),
        },
      },
    ],
  };
}

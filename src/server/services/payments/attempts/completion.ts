import { and, eq, sql } from 'drizzle-orm';
import { isCalledOffPush, mayMove, namedStateOf } from '../../../../domain/payment-attempts';
import type { TConsentStatus, TPaymentOrigin } from '../../../../domain/schemas/consent';
import type { TPaymentStatusEvent } from '../../../../domain/schemas/payment';
import type { TDb } from '../../../db/database';
import { preparedQuery } from '../../../db/prepared-queries';
import type { TJobQueue } from '../../../jobs/engine';
import { consents, paymentAttempts, payments } from '../../../db/schema';
import { grantMetByPayment } from '../../consents/payment-grants';
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
 *     takes, so two never wait on each other); an attempt settled before changes nothing;
 *  2. a payment paid otherwise, or an attempt that had ended, owes the money back: booked in and
 *     straight back out, the attempt keeping what it took and owing it (a transfer's bank
 *     returns it itself: nothing is booked);
 *  3. otherwise, in one statement (payAttempt), the attempt completes with what it took, the
 *     payment's other attempts close, and the payment is executed; a consent its payment grants
 *     is granted; and in one more, its audit row, stream event and webhook event are written and
 *     the money is booked in (the accounts it moves are shared by every payment of a merchant:
 *     locked at that statement's end, held only until the commit).
 * The answer is the fact, for the caller to act on (give the money back, return the transfer).
 */

type TPaymentRow = typeof payments.$inferSelect;
/** The payment's consent, as the completion's lock read it: whose it is, and its status. */
type TConsentOwner = { merchantId: string; clientId: string; consentStatus: TConsentStatus };

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

/** Completes an attempt and executes its payment, inside `tx` (the steps above). */
export async function completeAttempt(
  jobs: TJobQueue,
  tx: TDb,
  request: TCompletionRequest,
  now: Date,
): Promise<TCompletion> {
  const { attempt } = request;
  const { payment, current, owner } = await lockCompletion(tx, attempt);
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
  const completed = await payAttempt(
    tx,
    { attemptId: attempt.id, paymentId: payment.id, origin: request.origin },
    calledOff ? 'paidAfterCallOff' : 'complete',
    calledOff ? { ...request.taken, failureCode: null, failureReason: null } : request.taken,
    now,
  );
  if (!completed) throw new Error(`Attempt ${attempt.id} cannot complete from where it is`);
  // The payment as payAttempt executed it (its row is locked: nothing else changed it).
  const executed: TPaymentRow = {
    ...payment,
    status: 'executed',
    executedAt: now,
    origin: request.origin,
  };
  const granted = await grantMetByPayment(
    tx,
    executed,
    { id: attempt.payerId, consentStatus: owner.consentStatus },
    now,
  );
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
 * that order (the order every transaction of a payment takes), and the merchant and client whose
 * consent it is, with its status (a consent no payment can grant any more is not read again). Of
 * two completions of one payment at once, one executes it; of two who settle one attempt at once
 * (its own answer and the reconciler's requery), the second finds it settled and books nothing
 * again. Prepared once.
 */
const prepareCompletionLock = (db: TDb) =>
  db
    .select({
      payment: payments,
      status: paymentAttempts.status,
      stage: paymentAttempts.stage,
      refund: paymentAttempts.refund,
      merchantId: consents.merchantId,
      clientId: consents.clientId,
      consentStatus: consents.status,
    })
    .from(payments)
    .innerJoin(paymentAttempts, eq(paymentAttempts.paymentId, payments.id))
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(
      and(
        eq(payments.id, sql.placeholder('paymentId')),
        eq(paymentAttempts.id, sql.placeholder('attemptId')),
      ),
    )
    .for('update', { of: [payments, paymentAttempts] })
    .prepare('completion_lock');

async function lockCompletion(
  tx: TDb,
  attempt: Pick<TAttemptRow, 'id' | 'paymentId'>,
): Promise<{
  payment: TPaymentRow;
  current: Pick<TAttemptRow, 'status' | 'stage' | 'refund'>;
  owner: TConsentOwner;
}> {
  const [row] = await preparedQuery(tx, 'completion_lock', prepareCompletionLock).execute({
    paymentId: attempt.paymentId,
    attemptId: attempt.id,
  });
  if (!row) throw new Error(`Payment ${attempt.paymentId} or its attempt ${attempt.id} vanished`);
  const { payment, status, stage, refund, merchantId, clientId, consentStatus } = row;
  return {
    payment,
    current: { status, stage, refund },
    owner: { merchantId, clientId, consentStatus },
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

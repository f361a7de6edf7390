import { payerBankOf } from '../../../domain/after-payment';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TPaymentStateResponse, TTransferDetails } from '../../../domain/schemas/payment';
import type { TAppContext } from '../../context';
import { eventStreams, latestEventId } from '../../events/event-log';
import { attemptViewOf } from './attempt-view';
import { mayOwnCharge } from './charge-owners';
import {
  latestAttempt,
  loadPayable,
  type TAttemptRow,
  type TPaymentAccess,
} from './payment-records';
import { originSeenBy, readerOf } from './origin-views';

/*
 * Reading a payment as its payer's page does (GET /api/payments/{paymentId}): where it stands,
 * and its latest attempt in the shape every payment event carries (attempt-view.ts).
 */

/** The one-time account of an attempt, as spec §3 Transfer details. */
export const detailsOf = (attempt: TAttemptRow): TTransferDetails | null =>
  attempt.transferDetails ? { amount: attempt.amount, ...attempt.transferDetails } : null;

/** GET /api/payments/{paymentId}: where the payment stands, for a page that lost its stream. */
export async function paymentState(
  ctx: Pick<TAppContext, 'db' | 'clock'>,
  paymentId: string,
  access: TPaymentAccess,
): Promise<TPaymentStateResponse> {
  // Read before the payment: an event written meanwhile is after it, so the page's stream,
  // opened from it, still sends it.
  const lastEventId = await latestEventId(ctx.db, eventStreams.payment(paymentId));
  const { payment } = await loadPayable(ctx.db, paymentId, access, ctx.clock.now(), 'read');
  const attempt = await latestAttempt(ctx.db, payment.id);
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

import { and, eq, isNull } from 'drizzle-orm';
import { STEP_TEXT_AWAITING_TRANSFER } from '../../../domain/constants';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { payerBankOf } from '../../../domain/after-payment';
import { shouldPromptOriginLinking } from '../../../domain/origin-linking';
import { oneTimeAccountExpiry } from '../../../domain/transfer-details';
import type { TPayerBank } from '../../../domain/schemas/card';
import type {
  TPaymentAttemptState,
  TPaymentStateResponse,
  TTransferDetails,
} from '../../../domain/schemas/payment';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { consents, paymentAttempts, payments } from '../../db/schema';
import { eventStreams, latestEventId } from '../../events/event-log';
import type { TTransferNoticeAnswer, TTransferSender } from '../../providers/payments';
import { AppError } from '../app-error';
import { activelyLinkedAccounts, logoOf } from '../linking/payer-accounts';
import { isTokenOf, mayOwnCharge, newChargeToken } from './charge-owners';
import {
  completeAttempt,
  emitPaymentEvent,
  insertAttempt,
  latestAttempt,
  loadPayable,
  moveAttempt,
  type TAttemptRow,
  type TPaymentAccess,
} from './payment-records';
import { originSeenBy, readerOf } from './origin-views';

/*
 * Paying an immediate payment by bank transfer (spec §2 'Pay with Transfer'; docs/payments.md):
 * the payer gets a one-time account for the exact amount, says they sent the money, and the
 * bank's notice of the money completes the payment. The account lives until the earlier of its
 * 30 minutes and the consent's expiry; money after that goes back to its sender.
 */

type TTransferContext = Pick<TAppContext, 'db' | 'clock' | 'providers'>;

const OPEN_WAIT_MS = 5_000;
const OPEN_POLL_MS = 100;

const detailsOf = (attempt: TAttemptRow): TTransferDetails | null =>
  attempt.transferDetails ? { amount: attempt.amount, ...attempt.transferDetails } : null;

async function openTransferAttempt(db: TDb, paymentId: string): Promise<TAttemptRow | null> {
  const [open] = await db
    .select()
    .from(paymentAttempts)
    .where(
      and(eq(paymentAttempts.paymentId, paymentId), eq(paymentAttempts.stage, 'awaiting_transfer')),
    );
  return open ?? null;
}

/**
 * POST /api/payments/{paymentId}/transfer: the one-time account to pay into, the same one until
 * it expires. Two requests at once get the same account (one open transfer per payment). Opened
 * without sign-in, the account's opener gets a token (`chargeToken`, as a card charge's) that its
 * page sends when asking again. Handed to anyone else (another payer, a page without the token),
 * the account is marked shared: its payment then proves no one's account (linkOriginOfPayment).
 */
export async function transferDetailsFor(
  ctx: TTransferContext,
  paymentId: string,
  access: TPaymentAccess,
  chargeToken?: string,
): Promise<TTransferDetails & { chargeToken?: string }> {
  const { db, clock, providers } = ctx;
  const payable = await loadPayable(db, paymentId, access, clock.now());
  const deadline = Date.now() + OPEN_WAIT_MS;
  for (;;) {
    const now = clock.now();
    const open = await openTransferAttempt(db, paymentId);
    if (open) {
      const details = detailsOf(open);
      if (details && Date.parse(details.expiresAt) > now.getTime()) {
        await markSharedUnlessOpener(db, open, access, chargeToken, now);
        return details;
      }
      if (details) {
        // Expired: the account takes no more money; a new one is issued below.
        await moveAttempt(db, open.id, 'awaiting_transfer', expiredChange(), now);
        continue;
      }
      // Another request is opening it right now.
      if (Date.now() > deadline) throw new AppError('PAYMENT_IN_PROGRESS');
      await new Promise((resolve) => setTimeout(resolve, OPEN_POLL_MS));
      continue;
    }
    const owner = 'payerId' in access ? null : newChargeToken();
    let attempt: TAttemptRow;
    try {
      attempt = await insertAttempt(db, {
        paymentId,
        consentId: payable.consentId,
        method: 'bank_transfer',
        status: 'pending',
        stage: 'awaiting_transfer',
        amount: payable.payment.amount,
        payerId: 'payerId' in access ? access.payerId : null,
        ownerTokenHash: owner?.hash ?? null,
        provider: providers.payments.name,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'PAYMENT_IN_PROGRESS') continue;
      throw error;
    }
    // The account never outlives the consent: a payment cannot be paid after its consent expired.
    const notAfter = oneTimeAccountExpiry(now, payable.consentExpiresAt);
    let account;
    try {
      account = await providers.payments.openTransferAccount({
        reference: attempt.id,
        amount: attempt.amount,
        accountName: payable.merchantName,
        notAfter,
      });
    } catch {
      await moveAttempt(db, attempt.id, 'awaiting_transfer', expiredChange('provider_error'), now);
      throw new AppError('PAYMENT_FAILED');
    }
    // What the page counts down to; the credit refuses money after it, whatever the provider says.
    const expiresAt = Math.min(account.expiresAt.getTime(), notAfter.getTime());
    const transferDetails = {
      bankName: account.bankName,
      accountNumber: account.accountNumber,
      accountName: account.accountName,
      expiresAt: new Date(expiresAt).toISOString(),
    };
    await db
      .update(paymentAttempts)
      .set({ transferDetails, providerReference: attempt.id })
      .where(eq(paymentAttempts.id, attempt.id));
    return {
      amount: attempt.amount,
      ...transferDetails,
      ...(owner ? { chargeToken: owner.token } : {}),
    };
  }
}

/**
 * An open one-time account handed to someone other than its opener (another signed-in payer, or
 * a page without the opener's token) is shared from then on, in one statement.
 */
async function markSharedUnlessOpener(
  db: TDb,
  open: TAttemptRow,
  access: TPaymentAccess,
  chargeToken: string | undefined,
  now: Date,
): Promise<void> {
  const opener =
    'payerId' in access
      ? open.payerId === access.payerId
      : open.payerId === null && isTokenOf(open, chargeToken);
  if (opener || open.transferSharedAt) return;
  await db
    .update(paymentAttempts)
    .set({ transferSharedAt: now })
    .where(and(eq(paymentAttempts.id, open.id), isNull(paymentAttempts.transferSharedAt)));
}

const expiredChange = (reason = 'expired') => ({
  status: 'failed' as const,
  stage: null,
  failureCode: 'PAYMENT_FAILED' as const,
  failureReason: reason,
});

/**
 * POST /api/payments/{paymentId}/transfer/confirm ('I have made the transfer'): in progress,
 * 'Waiting for transfer confirmation...' until the bank's notice arrives. Asking again answers
 * the same; after the money arrived it answers completed.
 */
export async function confirmTransfer(
  ctx: TTransferContext,
  paymentId: string,
  access: TPaymentAccess,
): Promise<{ status: 'in_progress' | 'completed'; stepText: string }> {
  const { db, clock } = ctx;
  let payable;
  try {
    payable = await loadPayable(db, paymentId, access, clock.now());
  } catch (error) {
    // The transfer already completed it: the page that confirms late sees completed.
    if (error instanceof AppError && error.code === 'PAYMENT_ALREADY_MADE') {
      return { status: 'completed', stepText: 'Payment Processed' };
    }
    throw error;
  }
  const open = await openTransferAttempt(db, payable.payment.id);
  if (!open)
    throw new AppError('NO_IMMEDIATE_PAYMENT', 'No transfer account is open for this payment');
  if (open.status === 'pending') {
    await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(paymentAttempts)
        .set({
          status: 'in_progress',
          stepText: STEP_TEXT_AWAITING_TRANSFER,
          updatedAt: clock.now(),
        })
        .where(and(eq(paymentAttempts.id, open.id), eq(paymentAttempts.status, 'pending')))
        .returning({ id: paymentAttempts.id });
      if (moved) {
        await emitPaymentEvent(tx, {
          paymentId,
          status: 'in_progress',
          stepText: STEP_TEXT_AWAITING_TRANSFER,
        });
      }
    });
  }
  return { status: 'in_progress', stepText: STEP_TEXT_AWAITING_TRANSFER };
}

/**
 * The provider's notice that a one-time account received its exact amount, inside the bank's
 * transaction (`tx`), with the account it came from when the notice names it. Not taken when this
 * payment cannot take it any more: paid otherwise, the attempt ended, or the account's expiry
 * (the earlier of its 30 minutes and the consent's expiry) passed, which also ends the attempt.
 * The bank then returns the money to its sender with the reason.
 */
export async function creditTransfer(
  tx: TDb,
  reference: string,
  amount: number,
  sender: TTransferSender | null,
  now: Date,
): Promise<TTransferNoticeAnswer> {
  const [found] = await tx
    .select({ attempt: paymentAttempts, consentExpiresAt: consents.expiresAt })
    .from(paymentAttempts)
    .innerJoin(payments, eq(payments.id, paymentAttempts.paymentId))
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(and(eq(paymentAttempts.id, reference), eq(paymentAttempts.stage, 'awaiting_transfer')));
  if (!found) return { taken: false, reason: 'already_paid' };
  const { attempt } = found;
  if (attempt.amount !== amount) return { taken: false, reason: 'wrong_amount' };
  // The expiry the payer was shown, and in any case never past the consent's.
  const limits = [found.consentExpiresAt.getTime()];
  if (attempt.transferDetails) limits.push(Date.parse(attempt.transferDetails.expiresAt));
  const expiry = oneTimeAccountExpiry(attempt.createdAt, new Date(Math.min(...limits)));
  if (!(expiry.getTime() > now.getTime())) {
    await expireTransferAttempt(tx, attempt.id, now);
    return { taken: false, reason: 'expired' };
  }
  // The payer's active links are read in the credit's own transaction, with the payment they
  // describe.
  const payerLinks = attempt.payerId ? await activelyLinkedAccounts(tx, attempt.payerId) : null;
  const shouldPromptBankAccountLinking = shouldPromptOriginLinking(sender, payerLinks);
  // A notice without a sender leaves the payer's bank unknown: the one-time account is never
  // passed off as theirs.
  const payerBank: TPayerBank | null = sender
    ? {
        bankName: sender.bankName,
        accountName: sender.accountName,
        accountNumber: sender.accountNumber,
        institutionCode: sender.institutionCode,
      }
    : null;
  // A savepoint: when the payment was paid otherwise, what completeAttempt booked is undone and
  // the bank returns the money (we never hold a transfer we cannot use).
  return tx
    .transaction(async (savepoint) => {
      const completion = await completeAttempt(
        savepoint,
        attempt,
        {
          paymentMethod: 'bank_transfer',
          bankName: sender?.bankName ?? null,
          accountNumber: sender?.accountNumber ?? null,
          accountName: sender?.accountName ?? null,
          institutionCode: sender?.institutionCode ?? null,
          logo: sender ? logoOf(sender.institutionCode) : null,
          isNewAccount: false,
          shouldPromptBankAccountLinking,
        },
        {
          paymentType: 'bank_transfer',
          payerBank,
          shouldPromptCardLinking: false,
          shouldPromptBankAccountLinking,
          cardWasSaved: false,
        },
        now,
      );
      if (!completion.completed) throw new TransferNotTaken();
      return { taken: true } as const;
    })
    .catch((error: unknown): TTransferNoticeAnswer => {
      if (error instanceof TransferNotTaken) return { taken: false, reason: 'already_paid' };
      throw error;
    });
}

/** Thrown inside the savepoint to undo what completeAttempt booked. */
class TransferNotTaken extends Error {}

/** An expired one-time account ends its attempt (the sandbox's 'Expire this account now'). */
export async function expireTransferAttempt(db: TDb, reference: string, now: Date): Promise<void> {
  await moveAttempt(db, reference, 'awaiting_transfer', expiredChange(), now);
}

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
    attempt: attempt ? attemptStateOf(attempt) : null,
    payerBank: payerBankOf(origin),
    shouldPromptBankAccountLinking: origin?.shouldPromptBankAccountLinking ?? false,
    lastEventId,
  };
}

/**
 * The attempt as the page sees it. Not yet told: a 3-D Secure challenge's address and end, money
 * returned, whether a failed card was charged (the payment lifecycle work fills these).
 */
function attemptStateOf(attempt: TAttemptRow): TPaymentAttemptState {
  return {
    attemptId: attempt.id,
    method: attempt.method,
    state:
      attempt.status === 'completed' || attempt.status === 'failed'
        ? attempt.status
        : (attempt.stage ?? 'charging'),
    challengeUrl: null,
    expiresAt:
      attempt.stage === 'awaiting_transfer' ? (attempt.transferDetails?.expiresAt ?? null) : null,
    failureCode: attempt.status === 'failed' ? attempt.failureCode : null,
    message:
      attempt.status === 'failed' && attempt.failureCode
        ? ERROR_CATALOGUE[attempt.failureCode].message
        : null,
    returned: null,
    charged: null,
  };
}

import { and, eq, isNull, sql } from 'drizzle-orm';
import { STEP_TEXT_AWAITING_TRANSFER } from '../../../domain/constants';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { shouldPromptOriginLinking } from '../../../domain/origin-linking';
import { oneTimeAccountExpiry } from '../../../domain/transfer-details';
import { detailsOf } from './payment-reads';
import type { TPayerBank } from '../../../domain/schemas/card';
import type { TTransferDetails } from '../../../domain/schemas/payment';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import { paymentAttempts } from '../../db/schema';
import type {
  TTransferAccount,
  TTransferNoticeAnswer,
  TTransferSender,
} from '../../providers/payments';
import { ProviderNoAnswer } from '../../providers/provider-call';
import { routeNoteOf } from '../../../domain/provider-routing';
import { AppError } from '../../app-error';
import { activelyLinkedAccounts, logoOf } from '../linking/payer-accounts';
import { isTokenOf, newChargeToken } from './charge-owners';
import { completeAttempt, lockCompletion, paidThePayment } from './attempts/completion';
import {
  emitPaymentEvent,
  insertAttempt,
  moveAttempt,
  moveAttemptTelling,
  paymentEventRow,
  paymentIdOf,
  type TAttemptRow,
} from './attempts/moves';
import { loadTransferPayable, type TPaymentAccess, type TTransferPayable } from './payment-records';
import { usable } from '../../providers/off';

/*
 * Paying an immediate payment by bank transfer (spec §2 'Pay with Transfer'; docs/payments.md):
 * the payer gets a one-time account for the exact amount, says they sent the money, and the
 * bank's notice of the money completes the payment. The account lives until the earlier of its
 * 30 minutes and the consent's expiry; money after that goes back to its sender.
 */

type TTransferContext = Pick<TAppContext, 'db' | 'clock' | 'providers'>;

const OPEN_WAIT_MS = 5_000;
const OPEN_POLL_MS = 100;

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
  const { db, clock } = ctx;
  const payable = await loadTransferPayable(db, paymentId, access, clock.now());
  const deadline = Date.now() + OPEN_WAIT_MS;
  // The first turn takes the open account the payable's read saw; each later one reads it again.
  let seen: TAttemptRow | null | undefined = payable.openTransfer;
  for (;;) {
    const now = clock.now();
    const open = seen === undefined ? await openTransferAttempt(db, paymentId) : seen;
    seen = undefined;
    if (open) {
      const details = detailsOf(open);
      if (details && Date.parse(details.expiresAt) > now.getTime()) {
        await markSharedUnlessOpener(db, open, access, chargeToken, now);
        return details;
      }
      if (details) {
        // Expired: the account takes no more money; a new one is issued below.
        await endTransferAttempt(db, open.id, 'TRANSFER_ACCOUNT_EXPIRED', 'expired', now);
        continue;
      }
      // Another request is opening it right now.
      if (Date.now() > deadline) throw new AppError('PAYMENT_IN_PROGRESS');
      await new Promise((resolve) => setTimeout(resolve, OPEN_POLL_MS));
      continue;
    }
    const owner = 'payerId' in access ? null : newChargeToken();
    const opened = await openRoutedAccount(ctx, payable, access, owner?.hash ?? null, now);
    if (!opened) continue;
    const { attempt, account, notAfter } = opened;
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
 * Opens the one-time account of a new attempt at the provider health routes it to
 * (docs/routing.md): the first of the route, else, when it cannot open one (it refused, or gave
 * no answer), the next. Each provider's try is an attempt of its own, under its own reference, so
 * the row of the account shown names the provider that opened it, and money that later reaches
 * an account a provider opened without telling us is given back as late money (creditTransfer:
 * its attempt ended). Only the last failure is told to the payer. Null when another request
 * opened the payment's account meanwhile.
 */
async function openRoutedAccount(
  ctx: TTransferContext,
  payable: TTransferPayable,
  access: TPaymentAccess,
  ownerTokenHash: string | null,
  now: Date,
): Promise<{ attempt: TAttemptRow; account: TTransferAccount; notAfter: Date } | null> {
  const { db, providers } = ctx;
  const candidates = providers.registry.lists.transfersIn.filter((name) =>
    providers.registry.adapters.some((adapter) => adapter.name === name && adapter.transfersIn),
  );
  const route = await providers.health.route(
    { capability: 'transfersIn', merchantId: payable.merchantId, settings: payable.routeSettings },
    candidates,
  );
  // No provider: the capability is off, and says so.
  const order =
    route.order.length > 0 ? route.order : [usable(providers.payments.transfersIn).provider];
  // The account never outlives the consent: a payment cannot be paid after its consent expired.
  const notAfter = oneTimeAccountExpiry(now, payable.consentExpiresAt);
  const failedOver: { provider: string; reason: string }[] = [];
  for (const [index, provider] of order.entries()) {
    const passedOver = route.passedOver.filter((passed) => passed.provider !== provider);
    let attempt: TAttemptRow;
    try {
      attempt = await insertAttempt(db, {
        paymentId: payable.payment.id,
        consentId: payable.consentId,
        method: 'bank_transfer',
        status: 'pending',
        stage: 'awaiting_transfer',
        amount: payable.payment.amount,
        payerId: 'payerId' in access ? access.payerId : null,
        ownerTokenHash,
        provider,
        routeNote: routeNoteOf(provider, passedOver, failedOver),
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'PAYMENT_IN_PROGRESS') return null;
      throw error;
    }
    try {
      const account = await providers.registry.portOf(provider, 'transfersIn').openTransferAccount({
        reference: attempt.id,
        amount: attempt.amount,
        accountName: payable.merchantName,
        notAfter,
      });
      return { attempt, account, notAfter };
    } catch (error) {
      const last = index === order.length - 1;
      await endTransferAttempt(db, attempt.id, 'PAYMENT_FAILED', 'provider_error', now, {
        tell: last,
      });
      if (last) throw new AppError('PAYMENT_FAILED');
      failedOver.push({
        provider,
        reason: error instanceof ProviderNoAnswer ? 'gave no answer' : 'could not open an account',
      });
    }
  }
  throw new AppError('PAYMENT_FAILED');
}

/**
 * Ends a one-time account's attempt without a payment (expired, or never opened at the
 * provider), with the stream's 'failed' event: the read and the page no longer offer it.
 */
async function endTransferAttempt(
  db: TDb,
  attemptId: string,
  code: 'TRANSFER_ACCOUNT_EXPIRED' | 'PAYMENT_FAILED',
  reason: string,
  now: Date,
  {
    returned = null,
    tell = true,
    provider,
  }: {
    /** A transfer its bank sent back, recorded with the ending. */
    returned?: TAttemptRow['returned'];
    /** Whether the payer's page hears of it: not when the next provider opens the account. */
    tell?: boolean;
    /** Ended only when the attempt names this provider (the one whose notice says so). */
    provider?: string;
  } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const ended = await moveAttempt(
      tx,
      attemptId,
      'abandon',
      { failureCode: code, failureReason: reason, ...(returned ? { returned } : {}) },
      now,
      and(
        eq(paymentAttempts.stage, 'awaiting_transfer'),
        provider === undefined ? undefined : eq(paymentAttempts.provider, provider),
      ),
    );
    if (ended && tell) {
      await emitPaymentEvent(
        tx,
        { paymentId: paymentIdOf(ended), status: 'failed', message: ERROR_CATALOGUE[code].message },
        ended,
      );
    }
    return ended !== null;
  });
}

/** The stream's status for an event about `attempt`: where the attempt stands. */
const eventStatusOf = (attempt: TAttemptRow) =>
  attempt.status === 'completed' || attempt.status === 'failed' ? attempt.status : 'in_progress';

/**
 * A transfer the bank sends back, told to the payer: kept on its attempt (the read shows it) and
 * on the stream, with the attempt as it stands (still open after a wrong amount).
 */
async function recordReturned(
  tx: TDb,
  attempt: TAttemptRow,
  returned: NonNullable<TAttemptRow['returned']>,
  now: Date,
): Promise<void> {
  const [row] = await tx
    .update(paymentAttempts)
    .set({ returned, updatedAt: now })
    .where(eq(paymentAttempts.id, attempt.id))
    .returning();
  if (!row) return;
  await emitPaymentEvent(
    tx,
    {
      paymentId: paymentIdOf(row),
      status: eventStatusOf(row),
      ...(row.stepText ? { stepText: row.stepText } : {}),
      ...(row.status === 'failed' && row.failureCode
        ? { message: ERROR_CATALOGUE[row.failureCode].message }
        : {}),
    },
    row,
  );
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
    payable = await loadTransferPayable(db, paymentId, access, clock.now());
  } catch (error) {
    // The transfer already completed it: the page that confirms late sees completed.
    if (error instanceof AppError && error.code === 'PAYMENT_ALREADY_MADE') {
      return { status: 'completed', stepText: 'Payment Processed' };
    }
    throw error;
  }
  // The one-time account still open, read with the payable.
  const open = payable.openTransfer;
  if (!open)
    throw new AppError('NO_IMMEDIATE_PAYMENT', 'No transfer account is open for this payment');
  if (open.status === 'pending') {
    await moveAttemptTelling(
      db,
      open,
      'claimTransfer',
      { stepText: STEP_TEXT_AWAITING_TRANSFER },
      clock.now(),
      (moved) =>
        paymentEventRow(
          { paymentId, status: 'in_progress', stepText: STEP_TEXT_AWAITING_TRANSFER },
          moved,
        ),
    );
  }
  return { status: 'in_progress', stepText: STEP_TEXT_AWAITING_TRANSFER };
}

/**
 * The answer to a transfer's notice (TTransferNoticeAnswer), or that the one-time account it names
 * was opened by another provider than the one that told of it: that provider holds none of its
 * money, and its notice changes nothing (provider-notices.ts).
 */
export type TCreditAnswer = TTransferNoticeAnswer | typeof OPENED_ELSEWHERE;
export const OPENED_ELSEWHERE = { taken: false, reason: 'opened_elsewhere' } as const;
export const isOpenedElsewhere = (answer: TCreditAnswer): answer is typeof OPENED_ELSEWHERE =>
  !answer.taken && answer.reason === 'opened_elsewhere';

/**
 * The provider's notice that a one-time account received money, inside the transaction that
 * applies the notice (`tx`, services/payments/provider-notices.ts), with the account it came from
 * when the notice names it. Not taken when this
 * payment cannot take it any more: paid otherwise, the attempt ended, or the account's expiry
 * (the earlier of its 30 minutes and the consent's expiry) passed, which also ends the attempt.
 * The bank then returns the money to its sender with the reason.
 */
export async function creditTransfer(
  jobs: TJobQueue,
  tx: TDb,
  reference: string,
  amount: number,
  sender: TTransferSender | null,
  now: Date,
  /** The provider whose notice it is: only the one that opened the account holds its money. */
  from: string,
): Promise<TCreditAnswer> {
  // The payment's row and the attempt's, locked as they are read: the completion's own lock,
  // taken once here. Of two transfers at once, the second reads the attempt as the first left
  // it, and goes back.
  const locked = await lockCompletion(tx, reference);
  if (!locked) return { taken: false, reason: 'already_paid' };
  const { attempt } = locked;
  if (attempt.provider !== from) return OPENED_ELSEWHERE;
  if (attempt.stage !== 'awaiting_transfer' || attempt.amount !== amount) {
    const reason = returnReasonOf(attempt, amount);
    await noteReturnedTransfer(tx, attempt.id, amount, reason, now);
    return { taken: false, reason };
  }
  // The expiry the payer was shown, and in any case never past the consent's.
  const limits = [locked.consentExpiresAt.getTime()];
  if (attempt.transferDetails) limits.push(Date.parse(attempt.transferDetails.expiresAt));
  const expiry = oneTimeAccountExpiry(attempt.createdAt, new Date(Math.min(...limits)));
  if (!(expiry.getTime() > now.getTime())) {
    await endTransferAttempt(tx, attempt.id, 'TRANSFER_ACCOUNT_EXPIRED', 'expired', now, {
      returned: { amount, reason: 'expired' },
    });
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
  const completion = await completeAttempt(
    jobs,
    tx,
    {
      attempt,
      taken: {},
      origin: {
        paymentMethod: 'bank_transfer',
        bankName: sender?.bankName ?? null,
        accountNumber: sender?.accountNumber ?? null,
        accountName: sender?.accountName ?? null,
        institutionCode: sender?.institutionCode ?? null,
        logo: sender ? logoOf(sender.institutionCode) : null,
        isNewAccount: false,
        shouldPromptBankAccountLinking,
      },
      event: {
        paymentType: 'bank_transfer',
        payerBank,
        shouldPromptCardLinking: false,
        shouldPromptBankAccountLinking,
        cardWasSaved: false,
      },
    },
    now,
    locked,
  );
  if (paidThePayment(completion)) return { taken: true };
  // Paid another way meanwhile: the account closed with it (nothing booked), and the bank
  // returns the money (we never hold a transfer we cannot use).
  await recordReturned(tx, attempt, { amount, reason: 'already_paid' }, now);
  return { taken: false, reason: 'already_paid' };
}

/** Why a transfer into an attempt's account cannot be taken, when its account is not open. */
function returnReasonOf(
  attempt: TAttemptRow,
  amount: number,
): 'expired' | 'already_paid' | 'wrong_amount' {
  if (attempt.stage !== 'awaiting_transfer') {
    return attempt.failureCode === 'TRANSFER_ACCOUNT_EXPIRED' ? 'expired' : 'already_paid';
  }
  return attempt.amount === amount ? 'already_paid' : 'wrong_amount';
}

/**
 * A transfer into an attempt's one-time account that went back to its sender (we refused it, or
 * the provider's notice says it sent it back): the payer's page hears it, and the read shows it
 * (the attempt's `returned`). A return for expiry ends an attempt still open.
 */
export async function noteReturnedTransfer(
  tx: TDb,
  reference: string,
  amount: number,
  reason: 'expired' | 'already_paid' | 'wrong_amount',
  now: Date,
): Promise<void> {
  const [attempt] = await tx
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, reference));
  if (!attempt) return;
  if (reason === 'expired' && attempt.stage === 'awaiting_transfer') {
    await endTransferAttempt(tx, attempt.id, 'TRANSFER_ACCOUNT_EXPIRED', 'expired', now, {
      returned: { amount, reason },
    });
    return;
  }
  await recordReturned(tx, attempt, { amount, reason }, now);
}

/** An expired one-time account ends its attempt (the sandbox's 'Expire this account now'). */
export async function expireTransferAttempt(
  db: TDb,
  reference: string,
  now: Date,
  /** The provider whose notice said so: only the attempt's own ends it. None: our own sweep. */
  noticedBy?: string,
): Promise<boolean> {
  return endTransferAttempt(db, reference, 'TRANSFER_ACCOUNT_EXPIRED', 'expired', now, {
    provider: noticedBy,
  });
}

/**
 * The reconciler's sweep: every one-time account whose expiry passed ends its attempt, so a page
 * that waits on it hears it expired (and the read shows it so) without anyone touching it.
 */
export async function expireTransferAccounts(
  ctx: Pick<TAppContext, 'db' | 'clock'>,
): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.stage, 'awaiting_transfer'),
        sql`(${paymentAttempts.transferDetails} ->> 'expiresAt')::timestamptz <= ${now.toISOString()}::timestamptz`,
      ),
    );
  for (const { id } of due) await expireTransferAttempt(ctx.db, id, now);
  return due.length;
}

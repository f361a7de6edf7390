import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { formatErrorMessage } from '../../../domain/errors';
import { formatNaira } from '../../../domain/money';
import { refundExpectedBy } from '../../../domain/refund-clocks';
import { REFUND_TRANSITIONS, type TRefundEdge } from '../../../domain/refunds';
import type {
  TPayerRefund,
  TRefund,
  TRefundAccount,
  TRefundRequestBody,
} from '../../../domain/schemas/refunds';
import type { TAppContext } from '../../context';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import {
  accountLinks,
  consents,
  futurePaymentAccounts,
  futurePaymentCollections,
  paymentAttempts,
  paymentRefunds,
  payments,
} from '../../db/schema';
import type { TRefundOutcome, TRefundRequery, TTransferSender } from '../../providers/payments';
import { AppError } from '../../app-error';
import { findAccountAtBank } from '../linking/account-at-bank';
import { recordMerchantEvent } from '../change-records';
import { claimRows } from '../../jobs/claim-rows';
import { book, ledgerAccount } from './ledger';
import { drainClaims, RECONCILE_BATCH } from './attempts/reconcile';
import { usable } from '../../providers/off';
import { ProviderNotNamed } from './unrouted-rows';

/*
 * A merchant's refunds of its paid payments (docs/payments.md "Refunds"), whole or in part, by
 * the way the money came: to the card, to the debited account, or to the account a transfer came
 * from.
 *
 * 1. In one transaction: one statement reserves the amount on the payment (under the payment's
 *    row lock it adds it to what the payment's refunds hold, only while that stays within what
 *    was paid, the payment executed and the merchant's; a refund of "what remains" takes what
 *    remains there and then), and the refund is written 'pending' with an id of its own: the
 *    reference the provider is asked with. Refunds at once are judged by that one statement, one
 *    after another: together they never hold more than was paid, and one refused names what
 *    remained when it was judged.
 * 2. The provider is asked, outside any transaction, with that reference.
 * 3. Its answer is applied by completeRefund, the one place a refund's outcome is applied (the
 *    provider's immediate answer, the reconciler's requery and the provider's notice alike): the
 *    refund moves by the lifecycle's table in one conditional UPDATE, and in its transaction a
 *    processed refund is booked out of the merchant's wallet and a failed one releases its
 *    reservation, each with its webhook event. The same outcome applied again changes nothing.
 * A refund whose answer was lost (a network failure, a stopped process) stays 'pending': once it
 * is RECONCILE_AFTER_MS old the reconciler asks the provider about its reference (a requery) and
 * applies the answer; it is never asked for again with another reference.
 */

type TRefundContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'jobs'>;
type TMerchant = { clientId: string; merchantId: string };
export type TRefundRow = typeof paymentRefunds.$inferSelect;

/** What a payment took and by which way: where its refunds go back. */
type TPaidBy = {
  method: TRefundRow['method'];
  channel: TRefundRow['channel'];
  /** The provider's reference of the charge, debit or one-time account that took the money. */
  chargeReference: string;
  sender: TTransferSender | null;
  /** Kobo the payment took. */
  paid: number;
  /**
   * The provider that took it, whose refunds port gives it back; null: its row names none (a
   * debit on a link made before its debit provider was kept).
   */
  provider: string | null;
};

const CHANNEL_OF = {
  card: 'card',
  chip_card: 'card',
  account: 'debit',
  bank_transfer: 'transfer',
} as const satisfies Record<TRefundRow['method'], TRefundRow['channel']>;

/**
 * How a future payment was paid: its succeeded collection's debit, taken by the provider that
 * debits the link it ran on (the bound account's mandate at the succeeded try's position: its
 * debit_provider, as debitsFor sent it there and the ledger holds it).
 */
async function collectedBy(db: TDb, paymentId: string): Promise<TPaidBy | null> {
  const [collection] = await db
    .select()
    .from(futurePaymentCollections)
    .where(
      and(
        eq(futurePaymentCollections.paymentId, paymentId),
        eq(futurePaymentCollections.status, 'succeeded'),
      ),
    );
  const taken = collection?.tries.findLast((t) => t.outcome === 'succeeded');
  if (!collection?.providerReference || !taken) return null;
  const [link] = await db
    .select({ debitProvider: accountLinks.debitProvider })
    .from(futurePaymentAccounts)
    .innerJoin(accountLinks, eq(accountLinks.id, futurePaymentAccounts.mandateId))
    .where(
      and(
        eq(futurePaymentAccounts.paymentId, paymentId),
        eq(futurePaymentAccounts.position, taken.position),
      ),
    );
  return {
    method: 'account',
    channel: 'debit',
    chargeReference: collection.providerReference,
    sender: null,
    paid: collection.amount,
    provider: link?.debitProvider ?? null,
  };
}

/** How an executed payment was paid: its completed attempt, or its succeeded collection. */
async function paidBy(db: TDb, payment: typeof payments.$inferSelect): Promise<TPaidBy | null> {
  if (payment.type === 'future') return collectedBy(db, payment.id);
  const [attempt] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.paymentId, payment.id), eq(paymentAttempts.status, 'completed')));
  if (!attempt) return null;
  const origin = payment.origin;
  const sender =
    attempt.method === 'bank_transfer' &&
    origin?.paymentMethod === 'bank_transfer' &&
    origin.accountNumber &&
    origin.institutionCode &&
    origin.bankName &&
    origin.accountName
      ? {
          institutionCode: origin.institutionCode,
          bankName: origin.bankName,
          accountNumber: origin.accountNumber,
          accountName: origin.accountName,
        }
      : null;
  // A transfer is known to its bank by the one-time account's reference: the attempt's id. A
  // pushed terminal's payment request took the money by a transaction of its own: the refund
  // names that transaction, which the provider refunds, never the request.
  const chargeReference =
    attempt.method === 'bank_transfer'
      ? attempt.id
      : (attempt.chargeReference ?? attempt.providerReference);
  if (!chargeReference) return null;
  return {
    method: attempt.method,
    channel: CHANNEL_OF[attempt.method],
    chargeReference,
    sender,
    paid: attempt.amount,
    provider: attempt.provider,
  };
}

/**
 * The refunds port of the provider that took a payment, as its row names it; never new work's,
 * which never had the charge. A provider that gives no refunds (Remita) refuses
 * (REFUND_UNAVAILABLE_AT_PROVIDER, 409); one this server no longer runs, or none named, refuses
 * too (ProviderNotConfigured, ProviderNotNamed: 409).
 */
function refundsOf(ctx: Pick<TRefundContext, 'providers'>, provider: string | null) {
  if (provider === null) throw new ProviderNotNamed('refunds');
  const { refunds } = ctx.providers.registry.byName(provider, 'refunds');
  if (!refunds) throw new AppError('REFUND_UNAVAILABLE_AT_PROVIDER');
  return refunds;
}

/** The payment, if it belongs to the merchant; another merchant's reads as absent. */
async function merchantPayment(db: TDb, merchant: TMerchant, paymentId: string) {
  const [row] = await db
    .select({ payment: payments })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(and(eq(payments.id, paymentId), eq(consents.merchantId, merchant.merchantId)));
  if (!row) throw new AppError('PAYMENT_NOT_FOUND');
  return row.payment;
}

const exceeds = (remaining: number) =>
  new AppError(
    'REFUND_EXCEEDS_REMAINING',
    formatErrorMessage('REFUND_EXCEEDS_REMAINING', { remaining: formatNaira(remaining) }),
  );

/**
 * Reserves `amount` (what remains, when null) on the payment and writes the refund 'pending', in
 * one transaction. The reservation is one statement: it locks the payment's row (the merchant's,
 * executed), reads what remains there, and adds the amount to what its refunds hold only while
 * that stays within what was paid; "what remains" is what remains at that moment, so refunds at
 * once each reserve what the ones before them left. Answers the refund, or what remained when
 * the reservation was refused.
 */
async function reserve(
  ctx: TRefundContext,
  merchant: TMerchant,
  payment: typeof payments.$inferSelect,
  paid: TPaidBy & { provider: string },
  amount: number | null,
  reason: string | null,
  recordAlso?: TRecordWithRefund,
): Promise<{ refund: TRefundRow } | { remaining: number }> {
  const now = ctx.clock.now();
  const asked = amount === null ? sql`NULL` : sql`${amount}::bigint`;
  return ctx.db.transaction(async (tx) => {
    const result: unknown = await tx.execute(sql`
      WITH held AS (
        SELECT p.id, ${paid.paid}::bigint - p.refunded AS remaining
        FROM payments p JOIN consents c ON c.id = p.consent_id
        WHERE p.id = ${payment.id}::text AND c.merchant_id = ${merchant.merchantId}::text
          AND p.status = 'executed'
        FOR UPDATE OF p),
      asked AS (SELECT id, remaining, COALESCE(${asked}, remaining) AS amount FROM held),
      reserved AS (
        UPDATE payments p SET refunded = p.refunded + asked.amount
        FROM asked
        WHERE p.id = asked.id AND asked.amount > 0 AND asked.amount <= asked.remaining
          AND p.refunded + asked.amount <= ${paid.paid}::bigint
        RETURNING asked.amount)
      SELECT asked.remaining, reserved.amount FROM asked LEFT JOIN reserved ON true`);
    // A bigint reads as a string or a bigint, by the driver: kobo fit a number exactly.
    type TKobo = string | number | bigint;
    const [held] = (result as { rows: Array<{ remaining: TKobo; amount: TKobo | null }> }).rows;
    if (!held) throw new AppError('PAYMENT_NOT_REFUNDABLE');
    if (held.amount === null) return { remaining: Number(held.remaining) };
    const [refund] = await tx
      .insert(paymentRefunds)
      .values({
        id: randomId('rfd'),
        paymentId: payment.id,
        consentId: payment.consentId,
        merchantId: merchant.merchantId,
        clientId: merchant.clientId,
        method: paid.method,
        channel: paid.channel,
        chargeReference: paid.chargeReference,
        sender: paid.sender,
        amount: Number(held.amount),
        reason,
        provider: paid.provider,
        createdAt: now,
        askedAt: now,
      })
      .returning();
    if (!refund) throw new Error('A refund was not recorded');
    await recordAlso?.(tx, refund);
    return { refund };
  });
}

/** What a caller writes in the transaction that reserves its refund (the dashboard's audit). */
export type TRecordWithRefund = (tx: TDb, refund: TRefundRow) => Promise<void>;

/**
 * POST /api/v1/payments/{paymentId}/refunds: gives back `amount` (what remains, when none) of
 * one of the merchant's paid payments, by the way it was paid. Answers the refund as it stands
 * after the provider's answer: processed, failed, or pending (an answer still to come).
 */
export async function requestRefund(
  ctx: TRefundContext,
  merchant: TMerchant,
  paymentId: string,
  body: TRefundRequestBody,
  recordAlso?: TRecordWithRefund,
): Promise<TRefund> {
  const payment = await merchantPayment(ctx.db, merchant, paymentId);
  if (payment.status !== 'executed') throw new AppError('PAYMENT_NOT_REFUNDABLE');
  const paid = await paidBy(ctx.db, payment);
  if (!paid) throw new AppError('PAYMENT_NOT_REFUNDABLE');
  const { provider } = refundsOf(ctx, paid.provider);
  const sender = await refundAccount(ctx, paid, body.refundTo);
  const reserved = await reserve(
    ctx,
    merchant,
    payment,
    { ...paid, sender, provider },
    body.amount ?? null,
    body.reason ?? null,
    recordAlso,
  );
  if ('remaining' in reserved) throw exceeds(reserved.remaining);
  return refundView(await askProvider(ctx, reserved.refund));
}

/**
 * Where a refund goes back to. A transfer goes back to the account it came from, as its bank's
 * notice named it; where the notice named none, to the account the merchant gives with the
 * refund (the payer's, as they told the merchant), once its bank confirms it holds it: without
 * one there is nowhere to pay it, and the merchant is told to ask the payer. A card or a debit
 * goes back the way it came and takes no account.
 */
async function refundAccount(
  ctx: TRefundContext,
  paid: TPaidBy,
  refundTo: TRefundAccount | undefined,
): Promise<TTransferSender | null> {
  if (paid.channel !== 'transfer' || paid.sender) {
    if (refundTo) throw new AppError('REFUND_ACCOUNT_NOT_TAKEN');
    return paid.sender;
  }
  if (!refundTo) throw new AppError('REFUND_SENDER_UNKNOWN');
  const { bank, found } = await findAccountAtBank(ctx, refundTo, 'ACCOUNT_VERIFY_FAILED');
  return { ...refundTo, bankName: bank.name, accountName: found.accountName };
}

/** The banks a refund's account may be at (refundTo), by name, as the provider lists them. */
export async function refundBanks(ctx: Pick<TRefundContext, 'providers'>) {
  let banks;
  try {
    banks = await usable(ctx.providers.payments.banks).listBanks();
  } catch {
    throw new AppError('ACCOUNT_VERIFY_FAILED');
  }
  return banks
    .map(({ institutionCode, name }) => ({ institutionCode, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Asks the provider for the refund; a lost answer leaves it pending, for the reconciler. */
async function askProvider(ctx: TRefundContext, refund: TRefundRow): Promise<TRefundRow> {
  let outcome: TRefundOutcome;
  try {
    outcome = await ctx.providers.registry.portOf(refund.provider, 'refunds').refund({
      reference: refund.id,
      providerReference: refund.chargeReference,
      channel: refund.channel,
      amount: refund.amount,
      sender: refund.sender,
      reason: refund.reason,
      createdAt: refund.createdAt,
    });
  } catch {
    return refund;
  }
  return (await completeRefund(ctx, refund.id, outcome)) ?? refund;
}

/**
 * Moves a refund along `edge` of the lifecycle's table (domain/refunds.ts), in one statement:
 * null when it was not in a `from` state (another caller moved it first).
 */
async function moveRefund(
  tx: TDb,
  refundId: string,
  edge: TRefundEdge,
  change: Partial<Pick<TRefundRow, 'providerReference' | 'failureReason' | 'endedAt'>>,
): Promise<TRefundRow | null> {
  const { from, to } = REFUND_TRANSITIONS[edge];
  const [moved] = await tx
    .update(paymentRefunds)
    .set({ ...change, status: to })
    .where(and(eq(paymentRefunds.id, refundId), inArray(paymentRefunds.status, [...from])))
    .returning();
  return moved ?? null;
}

async function refundById(db: TDb, refundId: string): Promise<TRefundRow | null> {
  const [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId));
  return row ?? null;
}

/** The webhook data every refund event carries. */
const eventData = (refund: TRefundRow) => ({
  consentId: refund.consentId,
  paymentId: refund.paymentId,
  refundId: refund.id,
  amount: refund.amount,
  reason: refund.reason,
});

/**
 * THE one place a refund's outcome is applied: the provider's answer to the refund, the
 * reconciler's requery and the provider's notice all come here with our refund's reference.
 * processed: booked out of the merchant's wallet back to the payer's way in, refund.processed
 * written; failed: the reservation released, refund.failed written; each in the transaction that
 * moves the refund. pending: the provider's reference kept, nothing moved. A refund that ended
 * already changes no more (the same outcome twice changes nothing). Answers the refund as it
 * stands; null for a reference that is no refund of ours.
 */
export async function completeRefund(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'jobs'>,
  reference: string,
  outcome: TRefundOutcome,
): Promise<TRefundRow | null> {
  const now = ctx.clock.now();
  if (outcome.kind === 'pending') {
    if (outcome.providerReference) {
      await ctx.db
        .update(paymentRefunds)
        .set({ providerReference: outcome.providerReference })
        .where(and(eq(paymentRefunds.id, reference), eq(paymentRefunds.status, 'pending')));
    }
    return refundById(ctx.db, reference);
  }
  return ctx.db.transaction(async (tx) => {
    if (outcome.kind === 'processed') {
      const moved = await moveRefund(tx, reference, 'process', {
        providerReference: outcome.providerReference,
        endedAt: now,
      });
      if (!moved) return refundById(tx, reference);
      await book(tx, {
        kind: 'merchant_refund',
        reference: moved.id,
        paymentId: moved.paymentId,
        attemptId: null,
        narration: moved.reason ? `Refund: ${moved.reason}` : 'Refund',
        entries: [
          { account: ledgerAccount.collectionWallet(moved.merchantId), amount: -moved.amount },
          { account: ledgerAccount.payerSource(moved.method), amount: moved.amount },
        ],
      });
      await recordMerchantEvent(ctx.jobs, tx, {
        clientId: moved.clientId,
        consentId: moved.consentId,
        type: 'refund.processed',
        data: { ...eventData(moved), processedAt: now.toISOString() },
        now,
      });
      return moved;
    }
    const moved = await moveRefund(tx, reference, 'fail', {
      providerReference: outcome.providerReference,
      failureReason: outcome.reason,
      endedAt: now,
    });
    if (!moved) return refundById(tx, reference);
    await tx
      .update(payments)
      .set({ refunded: sql`${payments.refunded} - ${moved.amount}` })
      .where(eq(payments.id, moved.paymentId));
    await recordMerchantEvent(ctx.jobs, tx, {
      clientId: moved.clientId,
      consentId: moved.consentId,
      type: 'refund.failed',
      data: { ...eventData(moved), failureReason: outcome.reason, failedAt: now.toISOString() },
      now,
    });
    return moved;
  });
}

/**
 * An outcome the provider told of later (its notice, the reconciler's requery), applied by
 * completeRefund. A refund the provider holds until it is told the account to pay back is asked
 * for again with the account it was asked with (asking again is the same refund, which the
 * provider then pays there); one without an account waits as it is.
 */
export async function settleRefund(
  ctx: TRefundContext,
  reference: string,
  outcome: TRefundOutcome,
): Promise<TRefundRow | null> {
  const refund = await completeRefund(ctx, reference, outcome);
  const awaitsAccount = outcome.kind === 'pending' && outcome.awaiting === 'account';
  if (!awaitsAccount || refund?.status !== 'pending' || !refund.sender) return refund;
  return askProvider(ctx, refund);
}

/**
 * Claims up to a batch of refunds left pending for `reconcileAfterMs`, moving their asked time
 * to now in one statement: a reconciler in another process skips them.
 */
function claimLostRefunds(ctx: TRefundContext, reconcileAfterMs: number): Promise<TRefundRow[]> {
  const now = ctx.clock.now();
  const stale = and(
    eq(paymentRefunds.status, 'pending'),
    lt(paymentRefunds.askedAt, new Date(now.getTime() - reconcileAfterMs)),
  );
  return claimRows(ctx.db, paymentRefunds, {
    due: stale,
    still: eq(paymentRefunds.status, 'pending'),
    oldestBy: paymentRefunds.askedAt,
    limit: RECONCILE_BATCH,
    set: { askedAt: now },
  });
}

/**
 * A lost refund asked about as it was asked for: its charge and the time it was written (just
 * before the provider was asked; askedAt moves with each claim), so the provider looks there.
 */
const requeryOf = (refund: TRefundRow): TRefundRequery => ({
  reference: refund.id,
  providerReference: refund.chargeReference,
  channel: refund.channel,
  createdAt: refund.createdAt,
});

/**
 * The reconciler's part: every refund whose answer was lost is asked about by its reference
 * (never asked for again) and the answer applied; one still pending is asked again next run.
 */
export function reconcileLostRefunds(ctx: TRefundContext, reconcileAfterMs: number) {
  return drainClaims(
    () => claimLostRefunds(ctx, reconcileAfterMs),
    async (refund): Promise<TRefundRow['status']> => {
      const outcome = await ctx.providers.registry
        .portOf(refund.provider, 'refunds')
        .requeryRefund(requeryOf(refund));
      return (await settleRefund(ctx, refund.id, outcome))?.status ?? 'pending';
    },
  );
}

export function refundView(row: TRefundRow): TRefund {
  return {
    refundId: row.id,
    paymentId: row.paymentId,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

/** A payment's refunds, oldest first, as its merchant reads them. */
export const refundsOfPayment = (db: TDb, paymentId: string): Promise<TRefund[]> =>
  refundsOfPayments(db, [paymentId]);

/** The refunds of several payments, each payment's oldest first. */
export async function refundsOfPayments(db: TDb, paymentIds: string[]): Promise<TRefund[]> {
  const rows = await db
    .select()
    .from(paymentRefunds)
    .where(inArray(paymentRefunds.paymentId, paymentIds))
    .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id));
  return rows.map(refundView);
}

/** A consent's refunds, newest first, as its payer sees them on /consents. */
export async function refundsOfConsent(db: TDb, consentId: string): Promise<TPayerRefund[]> {
  const rows = await db
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.consentId, consentId))
    .orderBy(desc(paymentRefunds.createdAt), desc(paymentRefunds.id));
  return rows.map((row) => ({
    refundId: row.id,
    paymentId: row.paymentId,
    amount: row.amount,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    kind: 'refund' as const,
    channel: row.channel,
    expectedBy: refundExpectedBy(row),
  }));
}

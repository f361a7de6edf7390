import { and, asc, eq, lt, lte, not, or, sql } from 'drizzle-orm';
import { latestNoticeBefore } from '../../../domain/debit-notices';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import { claimRows } from '../../jobs/claim-rows';
import {
  accountLinks,
  consents,
  futurePaymentAccounts,
  futurePaymentCollections,
  payerAccounts,
  payments,
  type TCollectionTry,
  type TPendingDebit,
} from '../../db/schema';
import type { TAccountDebitOutcome, TRequeryOutcome } from '../../providers/payments';
import {
  openSmsOutbox,
  sendQueuedSms,
  SMS_ASKED_BY_NO_CALL,
  type TSmsOutbox,
} from '../../jobs/sms-job';
import { givenBackSms, queueDebitReceipt } from './collection-sms';
import { accountOrigin } from './attempts/settlements';
import { debitableUnderBvn } from '../linking/bvn-ownership';
import { mandateReferenceOf } from './account-debits';
import { debitsFor } from './mandate-debits';
import { book, ledgerAccount } from './ledger';
import { insertConsentEvent, recordConsentChange } from '../consents/consent-changes';

/*
 * Collecting granted future payments (docs/payments.md "Collecting future payments"). A
 * collection is claimed in one statement (FOR UPDATE SKIP LOCKED), so of several runners, in one
 * process or many on one PostgreSQL, one debits it. The bound accounts are asked first to last,
 * each with a reference of its own that never changes: a runner that died after the bank debited
 * leaves the collection 'collecting', and the runner that takes it over past the stale age asks
 * again with the same references, so the bank answers what it did instead of debiting twice.
 * No transaction stays open while the bank is asked.
 */

export type TCollectionRow = typeof futurePaymentCollections.$inferSelect;
type TCollectContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'jobs' | 'config'>;

/** A claim older than this belongs to a runner that died: longer than any bank call may take. */
export const STALE_COLLECTION_MS = 5 * 60 * 1_000;
/**
 * A collection whose bank has not answered after this many claims is cancelled at the bank, and
 * failed once the bank says nothing was taken.
 */
export const MAX_COLLECTION_CLAIMS = 10;

/**
 * When a scheduled collection that every account refused for insufficient funds is tried again,
 * after each round: a day, then three days (salaries land; a retry an hour later rarely finds
 * money that was not there). After the last it fails for good.
 */
export const COLLECTION_RETRY_DELAYS_MS = [24 * 60 * 60 * 1_000, 3 * 24 * 60 * 60 * 1_000];

/**
 * The reference of a collection's debit of its bound account at `position` in round `round`:
 * the first round's as it always was, later rounds' apart, so the bank debits a retry instead of
 * answering the refusal it gave before.
 */
export const debitReference = (collectionId: string, position: number, round = 0) =>
  round === 0 ? `${collectionId}.${position}` : `${collectionId}.r${round}.${position}`;

type TBoundAccount = {
  position: number;
  mandateId: string;
  /** What the provider debits it by (account-debits.ts mandateReferenceOf). */
  mandateReference: string;
  /** Who keeps the mandate and debits it, where not the debits capability (mandate-debits.ts). */
  mandateProvider: string | null;
  /** Who debits it, named on the link when it was made (mandate-debits.ts debitsFor). */
  debitProvider: string | null;
  mandateState: string;
  /** Whether the mandate was made under its payer's BVN as it is now: else it debits nothing. */
  underPayersBvn: boolean;
  account: typeof payerAccounts.$inferSelect;
};

/** The accounts a payment is collected from, first to last, with their mandates' states. */
export async function boundAccountsOf(db: TDb, paymentId: string): Promise<TBoundAccount[]> {
  return db
    .select({
      position: futurePaymentAccounts.position,
      mandateId: futurePaymentAccounts.mandateId,
      mandateReference: mandateReferenceOf,
      mandateProvider: accountLinks.mandateProvider,
      debitProvider: accountLinks.debitProvider,
      mandateState: accountLinks.state,
      underPayersBvn: sql<boolean>`coalesce(${debitableUnderBvn}, false)`,
      account: payerAccounts,
    })
    .from(futurePaymentAccounts)
    .innerJoin(payerAccounts, eq(payerAccounts.id, futurePaymentAccounts.accountId))
    .innerJoin(accountLinks, eq(accountLinks.id, futurePaymentAccounts.mandateId))
    .where(eq(futurePaymentAccounts.paymentId, paymentId))
    .orderBy(asc(futurePaymentAccounts.position));
}

/** Whether the collection's notice SMS was sent (the provider took it) by `by`. */
const noticeSentBy = (t: typeof futurePaymentCollections, by: Date) =>
  sql`EXISTS (SELECT 1 FROM sms_queue q WHERE q.id = ${t.noticeSmsId}
    AND q.sent_at <= ${by.toISOString()}::timestamptz)`;

/**
 * Claims up to `limit` collections to debit now: pending ones that are due, and 'collecting'
 * ones whose runner has not been heard of for the stale age. Rows another runner holds are
 * skipped, and a row it claimed meanwhile no longer matches, so each is claimed by one runner.
 * One (scheduled, or asked for by its merchant) is debited only once its payer's notice SMS was sent at least `noticeLeadMs`
 * before (domain/debit-notices.ts): one never noticed, noticed late, or whose SMS has not gone
 * (or never will: debit-notices.ts notices it again at the next window), waits. None of a consent its
 * payer paused is started (skipped-payments.ts skips what falls due meanwhile).
 */
export async function claimDueCollections(
  db: TDb,
  now: Date,
  noticeLeadMs: number,
  limit = 20,
): Promise<TCollectionRow[]> {
  const t = futurePaymentCollections;
  const stale = new Date(now.getTime() - STALE_COLLECTION_MS);
  const paused = sql`EXISTS (SELECT 1 FROM consents c WHERE c.id = ${t.consentId}
    AND c.paused_at IS NOT NULL)`;
  return claimRows(db, t, {
    due: or(
      and(
        eq(t.status, 'pending'),
        lte(t.dueAt, now),
        noticeSentBy(t, latestNoticeBefore(now, noticeLeadMs)),
        not(paused),
      ),
      and(eq(t.status, 'collecting'), lt(t.claimedAt, stale)),
    ),
    oldestBy: t.dueAt,
    limit,
    set: { status: 'collecting', claimedAt: now, claims: sql`${t.claims} + 1`, updatedAt: now },
  });
}

/**
 * What the collection's merchant is told, and the consent's audit row, for either ending, or for
 * its wait for a notice that could not be sent (debit-notices.ts).
 */
export async function recordEnding(
  jobs: TJobQueue,
  tx: TDb,
  ended: TCollectionRow,
  type:
    | 'future_payment.collected'
    | 'future_payment.failed'
    | 'future_payment.given_back'
    | 'future_payment.delayed',
  data: Record<string, unknown>,
  now: Date,
) {
  const [consent] = await tx
    .select({ clientId: consents.clientId })
    .from(consents)
    .where(eq(consents.id, ended.consentId));
  if (!consent) throw new Error(`Consent ${ended.consentId} vanished`);
  const common = {
    consentId: ended.consentId,
    paymentId: ended.paymentId,
    collectionId: ended.id,
    amount: ended.amount,
    trigger: ended.trigger,
  };
  await recordConsentChange(jobs, tx, {
    clientId: consent.clientId,
    consentId: ended.consentId,
    type,
    // A give-back is ours, whoever asked for the debit.
    actor:
      ended.requestedBy && type !== 'future_payment.given_back'
        ? `merchant:${ended.requestedBy}`
        : 'system:collections',
    data: { ...common, ...data },
    now,
  });
}

/**
 * Ends a collection that is still 'collecting', in one statement: undefined when another runner
 * that took it over ended it first. No debit waits at a bank for it any more.
 */
async function endCollection(
  tx: TDb,
  id: string,
  change: Partial<typeof futurePaymentCollections.$inferInsert> & { completedAt: Date },
): Promise<TCollectionRow | undefined> {
  const [ended] = await tx
    .update(futurePaymentCollections)
    .set({ ...change, pendingDebit: null, updatedAt: change.completedAt })
    .where(
      and(eq(futurePaymentCollections.id, id), eq(futurePaymentCollections.status, 'collecting')),
    )
    .returning();
  return ended;
}

/**
 * Ends a collection as failed (every bound account refused, or the bank never answered), with
 * the tries per account, the consent's audit row, the merchant's future_payment.failed and the
 * payer's receipt.
 */
async function failCollection(
  ctx: TCollectContext,
  row: TCollectionRow,
  tries: TCollectionTry[],
  reason: string,
  now: Date,
): Promise<TCollectionRow> {
  const { db, jobs } = ctx;
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  let receipt: string | null = null;
  const failed = await db.transaction(async (tx) => {
    const ended = await endCollection(tx, row.id, {
      status: 'failed',
      tries,
      failureCode: 'DIRECT_DEBIT_FAILED',
      failureReason: reason,
      completedAt: now,
    });
    if (!ended) return collectionById(tx, row.id);
    await recordEnding(
      jobs,
      tx,
      ended,
      'future_payment.failed',
      {
        code: 'DIRECT_DEBIT_FAILED',
        message: ERROR_CATALOGUE.DIRECT_DEBIT_FAILED.message,
        reason,
        /** Rounds of debits tried, the last one's tries below. */
        rounds: row.rounds + 1,
        tries: tries.map(({ position, accountId, reason: why }) => ({
          position,
          accountId,
          reason: why,
        })),
      },
      now,
    );
    receipt = await queueDebitReceipt(outbox, tx, ctx.config, ended, 'failed');
    return ended;
  });
  await sendQueuedSms(jobs, [receipt]);
  return failed;
}

/**
 * Records a succeeded debit: the collection succeeded, the future payment executed with its
 * origin, the ledger's future_payment_debit, the audit row and future_payment.collected, in one
 * transaction. Null when the payment had been executed already: the debit must go back. Not
 * completeAttempt: a collection is no attempt, and it books, tells and gives back otherwise
 * (docs/payments.md "Completion" says where).
 */
async function succeedCollection(
  ctx: TCollectContext,
  row: TCollectionRow,
  bound: TBoundAccount,
  providerReference: string,
  tries: TCollectionTry[],
  now: Date,
): Promise<TCollectionRow | null> {
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  try {
    const done = await recordSuccess(ctx, outbox, row, bound, providerReference, tries, now);
    await sendQueuedSms(ctx.jobs, [done.receipt]);
    return done.row;
  } catch (error) {
    if (error instanceof PaymentExecutedMeanwhile) return null;
    throw error;
  }
}

/** Undoes the success's transaction: its payment had been executed by then. */
class PaymentExecutedMeanwhile extends Error {}

async function recordSuccess(
  { db, jobs, config }: TCollectContext,
  outbox: TSmsOutbox,
  row: TCollectionRow,
  bound: TBoundAccount,
  providerReference: string,
  tries: TCollectionTry[],
  now: Date,
): Promise<{ row: TCollectionRow; receipt: string | null }> {
  return db.transaction(async (tx) => {
    // The payment's row first, as a collect call's claim takes it: neither waits on the other.
    await tx
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.id, row.paymentId))
      .for('update');
    const ended = await endCollection(tx, row.id, {
      status: 'succeeded',
      accountId: bound.account.id,
      providerReference,
      tries,
      completedAt: now,
    });
    // Another runner that took this collection over recorded the same debit first.
    if (!ended) return { row: await collectionById(tx, row.id), receipt: null };
    const [executed] = await tx
      .update(payments)
      .set({ status: 'executed', executedAt: now, origin: accountOrigin(bound.account) })
      .where(and(eq(payments.id, row.paymentId), eq(payments.status, 'pending')))
      .returning({ consentId: payments.consentId, narration: payments.narration });
    if (!executed) throw new PaymentExecutedMeanwhile();
    const [consent] = await tx
      .select({ merchantId: consents.merchantId })
      .from(consents)
      .where(eq(consents.id, executed.consentId));
    if (!consent) throw new Error(`Consent ${executed.consentId} vanished`);
    await book(tx, {
      kind: 'future_payment_debit',
      reference: row.id,
      paymentId: row.paymentId,
      attemptId: null,
      narration: executed.narration,
      entries: [
        { account: ledgerAccount.payerSource('account'), amount: -row.amount },
        { account: ledgerAccount.collectionWallet(consent.merchantId), amount: row.amount },
      ],
    });
    await recordEnding(
      jobs,
      tx,
      ended,
      'future_payment.collected',
      { accountId: bound.account.id, bankName: bound.account.bankName, executedAt: now },
      now,
    );
    const receipt = await queueDebitReceipt(outbox, tx, config, ended, 'collected');
    return { row: ended, receipt };
  });
}

/** A collection as it stands now. */
export async function collectionById(db: TDb, id: string): Promise<TCollectionRow> {
  const [row] = await db
    .select()
    .from(futurePaymentCollections)
    .where(eq(futurePaymentCollections.id, id));
  if (!row) throw new Error(`Collection ${id} vanished`);
  return row;
}

/** The debit of `bound` this round that waits at a bank, if one does. */
function waitingAt(row: TCollectionRow, bound: TBoundAccount): TPendingDebit | null {
  const reference = debitReference(row.id, bound.position, row.rounds);
  return row.pendingDebit?.reference === reference ? row.pendingDebit : null;
}

/**
 * Who debits `bound` for the collection: the provider its debit was asked of before, where one
 * was (asked again, cancelled, given back there), else the one its link names (debitsFor). A link
 * naming none, or a provider not run now, throws for the runner to skip the collection
 * (unrouted-rows.ts): it is never asked of the debits capability's provider today.
 */
const collectionDebits = (ctx: TCollectContext, row: TCollectionRow, bound: TBoundAccount) =>
  debitsFor(ctx.providers, bound, waitingAt(row, bound)?.provider ?? null);

async function askBank(
  ctx: TCollectContext,
  row: TCollectionRow,
  bound: TBoundAccount,
  narration: string,
): Promise<TAccountDebitOutcome | null> {
  // Resolved outside the try: a collection no provider may debit is skipped, not left unanswered.
  const debits = collectionDebits(ctx, row, bound);
  try {
    return await debits.debitAccount({
      reference: debitReference(row.id, bound.position, row.rounds),
      mandateReference: bound.mandateReference,
      payerId: bound.account.payerId,
      institutionCode: bound.account.institutionCode,
      accountNumber: bound.account.accountNumber,
      amount: row.amount,
      narration,
    });
  } catch {
    return null;
  }
}

/** One bound account's answer, as the collection's tries keep it. */
const tryOf = (
  row: TCollectionRow,
  bound: TBoundAccount,
  outcome: TCollectionTry['outcome'],
  reason: string | null,
  at: Date,
): TCollectionTry => ({
  position: bound.position,
  accountId: bound.account.id,
  reference: debitReference(row.id, bound.position, row.rounds),
  outcome,
  reason,
  at: at.toISOString(),
});

/**
 * Leaves the collection 'collecting' with what the banks answered so far and the debit that waits
 * at one: the claim goes stale and the next runner asks again with the same references.
 */
async function keepCollecting(
  db: TDb,
  row: TCollectionRow,
  tries: TCollectionTry[],
  pendingDebit: TPendingDebit | null,
): Promise<TCollectionRow> {
  await db
    .update(futurePaymentCollections)
    .set({ tries, pendingDebit })
    .where(
      and(
        eq(futurePaymentCollections.id, row.id),
        eq(futurePaymentCollections.status, 'collecting'),
      ),
    );
  return collectionById(db, row.id);
}

/**
 * The debit asked of the bound account's bank whose fate is not known: as first recorded, with
 * what this answer adds. The first pending answer came from the instruction's send, with what a
 * cancellation names, and starts the time the provider says a debit may take.
 */
function pendingDebitOf(
  ctx: TCollectContext,
  row: TCollectionRow,
  bound: TBoundAccount,
  answer: { providerReference: string | null; pendingAtMostMs?: number } | null,
  now: Date,
): TPendingDebit {
  const reference = debitReference(row.id, bound.position, row.rounds);
  const before = waitingAt(row, bound);
  const since = before?.since ?? now.toISOString();
  return {
    position: bound.position,
    accountId: bound.account.id,
    reference,
    providerReference: before?.providerReference ?? answer?.providerReference ?? null,
    provider: collectionDebits(ctx, row, bound).provider,
    since,
    until:
      before?.until ??
      (answer?.pendingAtMostMs === undefined
        ? null
        : new Date(now.getTime() + answer.pendingAtMostMs).toISOString()),
  };
}

/** Cancels the collection's debit of the bound account where it waits: null, no answer. */
async function cancelAtBank(
  ctx: TCollectContext,
  row: TCollectionRow,
  bound: TBoundAccount,
): Promise<TRequeryOutcome | null> {
  const reference = debitReference(row.id, bound.position, row.rounds);
  const waiting = waitingAt(row, bound);
  const debits = collectionDebits(ctx, row, bound);
  try {
    return await debits.cancelDebit({
      reference,
      mandateReference: bound.mandateReference,
      providerReference: waiting?.providerReference ?? null,
    });
  } catch {
    return null;
  }
}

/**
 * A debit whose fate the bank has not given: no answer, or waiting at the bank. It is never
 * followed by another instruction for the payment: the collection stays 'collecting' and the next
 * claim asks again with the same reference. Past its bound (what the provider says a debit may
 * take, or MAX_COLLECTION_CLAIMS claims unanswered) it is cancelled at the bank, and the
 * collection fails only once the bank says nothing was taken; one the bank took meanwhile is
 * recorded as debited.
 */
async function awaitBank(
  ctx: TCollectContext,
  row: TCollectionRow,
  bound: TBoundAccount,
  outcome: Extract<TAccountDebitOutcome, { kind: 'pending' }> | null,
  tries: TCollectionTry[],
): Promise<TCollectionRow> {
  const now = ctx.clock.now();
  // Recorded unanswered too: a later claim asks this account about it whatever else changed.
  const waiting = pendingDebitOf(ctx, row, bound, outcome, now);
  // Past what the provider said a debit may take; never answered, past the claims' bound.
  const overdue = waiting.until
    ? now.getTime() >= Date.parse(waiting.until)
    : row.claims >= MAX_COLLECTION_CLAIMS;
  if (!overdue) return keepCollecting(ctx.db, row, tries, waiting);
  const answer = await cancelAtBank(ctx, { ...row, pendingDebit: waiting }, bound);
  if (!answer || answer.kind === 'pending') return keepCollecting(ctx.db, row, tries, waiting);
  if (answer.kind === 'taken') {
    return recordDebited(ctx, row, bound, answer.providerReference, tries);
  }
  const reason = outcome ? 'bank_did_not_debit' : 'bank_did_not_answer';
  return failCollection(
    ctx,
    row,
    [...tries, tryOf(row, bound, 'failed', reason, now)],
    reason,
    now,
  );
}

/**
 * Records the bound account's debit: the collection succeeded. A payment executed meanwhile
 * gives it back and fails the collection; one cancelled meanwhile gives it back (giveBack).
 */
async function recordDebited(
  ctx: TCollectContext,
  row: TCollectionRow,
  bound: TBoundAccount,
  providerReference: string,
  earlier: TCollectionTry[],
): Promise<TCollectionRow> {
  const { db, clock } = ctx;
  const tries = [...earlier, tryOf(row, bound, 'succeeded', null, clock.now())];
  const done = await succeedCollection(ctx, row, bound, providerReference, tries, clock.now());
  if (done) return done;
  const [current] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.id, row.paymentId));
  if (current?.status === 'cancelled') {
    return giveBack(ctx, row, bound, providerReference, tries);
  }
  await collectionDebits(ctx, row, bound).reverseDebit({
    providerReference,
    reference: debitReference(row.id, bound.position, row.rounds),
    account: bound.account,
  });
  return failCollection(ctx, row, tries, 'already_collected', clock.now());
}

/**
 * Debits a claimed collection from its bound accounts, first to last, and records the outcome.
 * A debit whose fate is unknown (no answer, or waiting at the bank) leaves the collection
 * 'collecting' (awaitBank): no later account is asked.
 */
export async function collectClaimed(
  ctx: TCollectContext,
  row: TCollectionRow,
): Promise<TCollectionRow> {
  const { db, clock } = ctx;
  const [payment] = await db
    .select({ narration: payments.narration, status: payments.status })
    .from(payments)
    .where(eq(payments.id, row.paymentId));
  if (payment?.status === 'cancelled') return settleCancelled(ctx, row);
  const narration = payment?.narration ?? 'Future payment';
  const tries: TCollectionTry[] = [];
  for (const bound of await boundAccountsOf(db, row.paymentId)) {
    // A debit an earlier claim asked of this account is asked about, whatever its mandate is now:
    // never left behind for the next account.
    const askedBefore =
      row.pendingDebit?.reference === debitReference(row.id, bound.position, row.rounds);
    if (askedBefore) {
      const outcome = await askBank(ctx, row, bound, narration);
      if (!outcome || outcome.kind === 'pending') {
        return awaitBank(ctx, row, bound, outcome, tries);
      }
      if (outcome.kind === 'succeeded') {
        return recordDebited(ctx, row, bound, outcome.providerReference, tries);
      }
      tries.push(tryOf(row, bound, 'failed', outcome.reason, clock.now()));
      continue;
    }
    if (bound.mandateState !== 'active') {
      tries.push(tryOf(row, bound, 'failed', 'mandate_inactive', clock.now()));
      continue;
    }
    if (!bound.underPayersBvn) {
      tries.push(tryOf(row, bound, 'failed', 'account_not_under_bvn', clock.now()));
      continue;
    }
    const outcome = await askBank(ctx, row, bound, narration);
    if (!outcome || outcome.kind === 'pending') {
      return awaitBank(ctx, row, bound, outcome, tries);
    }
    if (outcome.kind === 'failed') {
      tries.push(tryOf(row, bound, 'failed', outcome.reason, clock.now()));
      continue;
    }
    return recordDebited(ctx, row, bound, outcome.providerReference, tries);
  }
  const last = tries.at(-1);
  const delay = COLLECTION_RETRY_DELAYS_MS[row.rounds];
  const shortOfFunds = tries.length > 0 && tries.every((t) => t.reason === 'insufficient_funds');
  if (row.trigger === 'schedule' && shortOfFunds && delay !== undefined) {
    return retryLater(db, row, tries, delay, clock.now());
  }
  return failCollection(ctx, row, tries, last?.reason ?? 'no_linked_account', clock.now());
}

/** Who cancelled a collection's payment, as its failure reason says. */
async function cancellationOf(
  db: TDb,
  row: TCollectionRow,
): Promise<'consent_revoked' | 'future_payments_cancelled'> {
  const [consent] = await db
    .select({ status: consents.status })
    .from(consents)
    .where(eq(consents.id, row.consentId));
  return consent?.status === 'revoked' ? 'consent_revoked' : 'future_payments_cancelled';
}

/**
 * A collection whose payment was cancelled while it was open (the payer revoked the consent, or
 * the merchant cancelled its future payments: consents/payer-consents.ts cancelFuturePayments).
 * On its first claim no bank was asked yet: it ends 'cancelled'. Later, a debit may be at a
 * bank: each bound account's is cancelled there where it waits (asked again at the next claim
 * while the bank will not), and given back where the bank took it (giveBack); the collection
 * ends 'cancelled' once every bank said nothing is taken.
 */
async function settleCancelled(ctx: TCollectContext, row: TCollectionRow) {
  const { db, clock } = ctx;
  if (row.claims > 1 || row.pendingDebit) {
    for (const bound of await boundAccountsOf(db, row.paymentId)) {
      const answer = await cancelAtBank(ctx, row, bound);
      if (!answer) return keepCollecting(db, row, row.tries, row.pendingDebit);
      if (answer.kind === 'pending') {
        const waiting = pendingDebitOf(ctx, row, bound, answer, clock.now());
        return keepCollecting(db, row, row.tries, waiting);
      }
      if (answer.kind === 'taken') {
        const tries = [...row.tries, tryOf(row, bound, 'succeeded', null, clock.now())];
        return giveBack(ctx, row, bound, answer.providerReference, tries);
      }
    }
  }
  const ended = await endCollection(db, row.id, {
    status: 'cancelled',
    failureReason: await cancellationOf(db, row),
    completedAt: clock.now(),
  });
  return ended ?? collectionById(db, row.id);
}

/**
 * Gives back a debit the bank made after its payment was cancelled. It is booked in as held to
 * give back (cancelled_debit), paid back through the provider that made it (reverseDebit: a
 * reversal, or Remita's payout to the account), then, in one transaction, booked out
 * (cancelled_debit_return) as the collection ends 'cancelled', with the consent's audit row, the
 * merchant's future_payment.given_back and the payer's SMS. A give-back that does not go through
 * leaves the collection 'collecting': the next claim asks again, by the same references.
 */
async function giveBack(
  ctx: TCollectContext,
  row: TCollectionRow,
  bound: TBoundAccount,
  providerReference: string,
  tries: TCollectionTry[],
): Promise<TCollectionRow> {
  const reference = debitReference(row.id, bound.position, row.rounds);
  const booking = {
    reference,
    paymentId: row.paymentId,
    attemptId: null,
    narration: 'Future payment debited after it was cancelled',
  };
  await ctx.db.transaction((tx) =>
    book(tx, {
      ...booking,
      kind: 'cancelled_debit',
      entries: [
        { account: ledgerAccount.payerSource('account'), amount: -row.amount },
        { account: ledgerAccount.debitsToGiveBack(), amount: row.amount },
      ],
    }),
  );
  let reversed: { payoutReference?: string };
  try {
    reversed = await collectionDebits(ctx, row, bound).reverseDebit({
      providerReference,
      reference,
      account: bound.account,
    });
  } catch {
    // Not recorded as a try that succeeded meanwhile: the books' check asks a provider about
    // those, and a requery of a give-back never paid would close its reference.
    return keepCollecting(ctx.db, row, row.tries, row.pendingDebit);
  }
  // Told to the payer for money a merchant's collection took: no call of theirs asks it.
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const reason = await cancellationOf(tx, row);
    const ended = await endCollection(tx, row.id, {
      status: 'cancelled',
      failureReason: reason,
      accountId: bound.account.id,
      providerReference,
      tries,
      completedAt: now,
    });
    if (!ended) return collectionById(tx, row.id);
    // Reversed at the provider, it nets out where it came from; paid back, it left by a payout
    // (booked under the payout's reference, as the payouts capability's record names it).
    await book(tx, {
      ...booking,
      kind: 'cancelled_debit_return',
      reference: reversed.payoutReference ?? reference,
      entries: [
        { account: ledgerAccount.debitsToGiveBack(), amount: -row.amount },
        {
          account: reversed.payoutReference
            ? ledgerAccount.payoutDestination()
            : ledgerAccount.payerSource('account'),
          amount: row.amount,
        },
      ],
    });
    const data = { accountId: bound.account.id, bankName: bound.account.bankName, reason };
    await recordEnding(
      ctx.jobs,
      tx,
      ended,
      'future_payment.given_back',
      {
        ...data,
        givenBackAt: now.toISOString(),
      },
      now,
    );
    const sms = await givenBackSms(tx, ctx.config, ended, bound.account);
    await outbox.queue(tx, `debit-given-back:${row.id}`, sms);
    return ended;
  });
}

/**
 * Puts a scheduled collection that every account refused for insufficient funds back to
 * pending, due `delay` later, for its next round: the payer's notice goes again before it (the
 * flag is cleared), and the consent's audit row says when. The merchant hears of the collection
 * when it ends (collected, or failed after the last round); GET /api/v1/payments/{id} shows it
 * pending with its new due time meanwhile.
 */
async function retryLater(
  db: TDb,
  row: TCollectionRow,
  tries: TCollectionTry[],
  delay: number,
  now: Date,
): Promise<TCollectionRow> {
  return db.transaction(async (tx) => {
    const dueAt = new Date(now.getTime() + delay);
    const [again] = await tx
      .update(futurePaymentCollections)
      .set({
        status: 'pending',
        dueAt,
        rounds: row.rounds + 1,
        claims: 0,
        claimedAt: null,
        notifiedAt: null,
        noticeSmsId: null,
        tries,
        pendingDebit: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(futurePaymentCollections.id, row.id),
          eq(futurePaymentCollections.status, 'collecting'),
        ),
      )
      .returning();
    if (!again) return collectionById(tx, row.id);
    await insertConsentEvent(tx, {
      consentId: row.consentId,
      type: 'future_payment.retry_scheduled',
      actor: 'system:collections',
      data: {
        paymentId: row.paymentId,
        collectionId: row.id,
        round: again.rounds,
        dueAt: dueAt.toISOString(),
        reason: 'insufficient_funds',
      },
      createdAt: now,
    });
    return again;
  });
}

import { and, asc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
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
} from '../../db/schema';
import type { TAccountDebitOutcome } from '../../providers/payments';
import { accountOrigin } from './settlements';
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
type TCollectContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'jobs'>;

/** A claim older than this belongs to a runner that died: longer than any bank call may take. */
export const STALE_COLLECTION_MS = 5 * 60 * 1_000;
/** A collection whose bank has not answered after this many claims is given up as failed. */
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

/**
 * Claims up to `limit` collections to debit now: pending ones that are due, and 'collecting'
 * ones whose runner has not been heard of for the stale age. Rows another runner holds are
 * skipped, and a row it claimed meanwhile no longer matches, so each is claimed by one runner.
 */
export async function claimDueCollections(
  db: TDb,
  now: Date,
  limit = 20,
): Promise<TCollectionRow[]> {
  const t = futurePaymentCollections;
  const stale = new Date(now.getTime() - STALE_COLLECTION_MS);
  return claimRows(db, t, {
    due: or(
      and(eq(t.status, 'pending'), lte(t.dueAt, now)),
      and(eq(t.status, 'collecting'), lt(t.claimedAt, stale)),
    ),
    oldestBy: t.dueAt,
    limit,
    set: { status: 'collecting', claimedAt: now, claims: sql`${t.claims} + 1`, updatedAt: now },
  });
}

/** What the collection's merchant is told, and the consent's audit row, for either ending. */
async function recordEnding(
  jobs: TJobQueue,
  tx: TDb,
  ended: TCollectionRow,
  type: 'future_payment.collected' | 'future_payment.failed',
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
    actor: ended.requestedBy ? `merchant:${ended.requestedBy}` : 'system:collections',
    data: { ...common, ...data },
    now,
  });
}

/**
 * Changes a collection that is still 'collecting', in one statement: undefined when another
 * runner that took it over ended it first.
 */
async function endCollection(
  tx: TDb,
  id: string,
  change: Partial<typeof futurePaymentCollections.$inferInsert> & { completedAt: Date },
): Promise<TCollectionRow | undefined> {
  const [ended] = await tx
    .update(futurePaymentCollections)
    .set({ ...change, updatedAt: change.completedAt })
    .where(
      and(eq(futurePaymentCollections.id, id), eq(futurePaymentCollections.status, 'collecting')),
    )
    .returning();
  return ended;
}

/**
 * Ends a collection as failed (every bound account refused, or the bank never answered), with
 * the tries per account, the consent's audit row and the merchant's future_payment.failed.
 */
async function failCollection(
  { db, jobs }: { db: TDb; jobs: TJobQueue },
  row: TCollectionRow,
  tries: TCollectionTry[],
  reason: string,
  now: Date,
): Promise<TCollectionRow> {
  return db.transaction(async (tx) => {
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
    return ended;
  });
}

/**
 * Records a succeeded debit: the collection succeeded, the future payment executed with its
 * origin, the ledger's future_payment_debit, the audit row and future_payment.collected, in one
 * transaction. Null when the payment had been executed already: the debit must go back.
 */
async function succeedCollection(
  { db, jobs }: { db: TDb; jobs: TJobQueue },
  row: TCollectionRow,
  bound: TBoundAccount,
  providerReference: string,
  tries: TCollectionTry[],
  now: Date,
): Promise<TCollectionRow | null> {
  try {
    return await recordSuccess({ db, jobs }, row, bound, providerReference, tries, now);
  } catch (error) {
    if (error instanceof PaymentExecutedMeanwhile) return null;
    throw error;
  }
}

/** Undoes the success's transaction: its payment had been executed by then. */
class PaymentExecutedMeanwhile extends Error {}

async function recordSuccess(
  { db, jobs }: { db: TDb; jobs: TJobQueue },
  row: TCollectionRow,
  bound: TBoundAccount,
  providerReference: string,
  tries: TCollectionTry[],
  now: Date,
): Promise<TCollectionRow> {
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
    if (!ended) return collectionById(tx, row.id);
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
    return ended;
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

async function askBank(
  ctx: TCollectContext,
  row: TCollectionRow,
  bound: TBoundAccount,
  narration: string,
): Promise<TAccountDebitOutcome | null> {
  try {
    return await debitsFor(ctx.providers.payments, bound.mandateProvider).debitAccount({
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

/**
 * Debits a claimed collection from its bound accounts, first to last, and records the outcome.
 * A bank that does not answer leaves the collection 'collecting': it is not known whether the
 * money moved, so no later account is asked; the claim goes stale and the next runner asks
 * again with the same references.
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
  // Revoked after this collection was claimed, before any bank was asked: nothing is debited.
  if (payment?.status === 'cancelled') {
    const ended = await endCollection(db, row.id, {
      status: 'cancelled',
      failureReason: 'consent_revoked',
      completedAt: clock.now(),
    });
    return ended ?? collectionById(db, row.id);
  }
  const narration = payment?.narration ?? 'Future payment';
  const tries: TCollectionTry[] = [];
  const attempt = (
    bound: TBoundAccount,
    outcome: TCollectionTry['outcome'],
    reason: string | null,
  ) =>
    tries.push({
      position: bound.position,
      accountId: bound.account.id,
      reference: debitReference(row.id, bound.position, row.rounds),
      outcome,
      reason,
      at: clock.now().toISOString(),
    });
  for (const bound of await boundAccountsOf(db, row.paymentId)) {
    if (bound.mandateState !== 'active') {
      attempt(bound, 'failed', 'mandate_inactive');
      continue;
    }
    if (!bound.underPayersBvn) {
      attempt(bound, 'failed', 'account_not_under_bvn');
      continue;
    }
    const outcome = await askBank(ctx, row, bound, narration);
    if (!outcome) {
      if (row.claims >= MAX_COLLECTION_CLAIMS) {
        return failCollection(ctx, row, tries, 'bank_did_not_answer', clock.now());
      }
      await db
        .update(futurePaymentCollections)
        .set({ tries })
        .where(
          and(
            eq(futurePaymentCollections.id, row.id),
            eq(futurePaymentCollections.status, 'collecting'),
          ),
        );
      return collectionById(db, row.id);
    }
    if (outcome.kind === 'failed') {
      attempt(bound, 'failed', outcome.reason);
      continue;
    }
    attempt(bound, 'succeeded', null);
    const done = await succeedCollection(
      ctx,
      row,
      bound,
      outcome.providerReference,
      tries,
      clock.now(),
    );
    if (done) return done;
    // The payment was executed meanwhile, or its consent revoked while the bank was asked: this
    // debit goes back to the account.
    await debitsFor(ctx.providers.payments, bound.mandateProvider).reverseDebit({
      providerReference: outcome.providerReference,
      reference: debitReference(row.id, bound.position, row.rounds),
      account: bound.account,
    });
    const [current] = await db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.id, row.paymentId));
    const reason = current?.status === 'cancelled' ? 'consent_revoked' : 'already_collected';
    return failCollection(ctx, row, tries, reason, clock.now());
  }
  const last = tries.at(-1);
  const delay = COLLECTION_RETRY_DELAYS_MS[row.rounds];
  const shortOfFunds = tries.length > 0 && tries.every((t) => t.reason === 'insufficient_funds');
  if (row.trigger === 'schedule' && shortOfFunds && delay !== undefined) {
    return retryLater(db, row, tries, delay, clock.now());
  }
  return failCollection(ctx, row, tries, last?.reason ?? 'no_linked_account', clock.now());
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
        tries,
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

/**
 * Makes the collections of fixed future payments that fall due within `aheadMs` (a day, so the
 * payer's notice has a row to be flagged on): granted, bound to accounts, not executed, and not
 * scheduled before. Several runners at once make each one once (a unique index).
 */
export async function scheduleDueCollections(db: TDb, now: Date, aheadMs: number): Promise<void> {
  const horizon = new Date(now.getTime() + aheadMs).toISOString();
  await db.execute(sql`
    INSERT INTO future_payment_collections
      (id, payment_id, consent_id, "trigger", amount, status, due_at, created_at, updated_at)
    SELECT 'col_' || p.id, p.id, p.consent_id, 'schedule', p.amount, 'pending', p.due_date,
           ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    FROM payments p JOIN consents c ON c.id = p.consent_id
    WHERE p.type = 'future' AND p.amount_type = 'fixed' AND p.status = 'pending'
      AND p.due_date IS NOT NULL AND p.due_date <= ${horizon}::timestamptz
      AND c.status = 'granted'
      AND EXISTS (SELECT 1 FROM future_payment_accounts f WHERE f.payment_id = p.id)
      AND NOT EXISTS (SELECT 1 FROM future_payment_collections s
                      WHERE s.payment_id = p.id AND s."trigger" = 'schedule')
    ON CONFLICT DO NOTHING`);
}

/** Scheduled collections whose notice is due: claimed for one sender by setting the flag. */
export async function claimNotices(
  db: TDb,
  now: Date,
  aheadMs: number,
  limit = 50,
): Promise<TCollectionRow[]> {
  const t = futurePaymentCollections;
  return claimRows(db, t, {
    due: and(
      eq(t.trigger, 'schedule'),
      eq(t.status, 'pending'),
      isNull(t.notifiedAt),
      lte(t.dueAt, new Date(now.getTime() + aheadMs)),
    ),
    still: isNull(t.notifiedAt),
    oldestBy: t.dueAt,
    limit,
    set: { notifiedAt: now },
  });
}

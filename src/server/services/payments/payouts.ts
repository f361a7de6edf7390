import { and, eq, lt } from 'drizzle-orm';
import type { TPayout, TReleasePendingResponse } from '../../../domain/schemas/payment';
import type { TAppContext } from '../../context';
import { randomId } from '../../crypto/secret-hash';
import { ledgerAccounts, payouts } from '../../db/schema';
import { claimRows } from '../../jobs/claim-rows';
import type { TPayoutOutcome, TPayoutsPort } from '../../providers/payments';
import { whyNotDebitable } from '../linking/bvn-ownership';
import { linkedAccountsOf } from './account-debits';
import { AppError } from '../../app-error';
import { book, ledgerAccount } from './ledger';
import { requesterMerchantId } from '../consents/payment-requests';
import { usable } from '../../providers/off';
import { UNROUTED, unlessUnrouted } from './unrouted-rows';

/*
 * Releasing what a payer's payment requests collected (spec §7 POST /api/payments/release-pending;
 * docs/payments.md "Releasing"). What the payers asked paid lands in the requester's collection
 * wallet in our books and is held there, pending, until the requester releases it to one of their
 * linked accounts: the whole wallet at that moment becomes one payout.
 *
 * 1. In one transaction, under the wallet's row lock: the wallet's balance is read, a payout of it
 *    made ('paying'), and the amount booked out of the wallet into payouts in flight. Releases at
 *    once wait on that lock, so the second finds the wallet empty: nothing is paid twice.
 * 2. The bank is asked, outside any transaction, with the payout's id as the reference.
 * 3. Its answer ends the payout in one conditional UPDATE with the booking it implies: credited
 *    (in flight → out of our books) or refused (in flight → back in the wallet).
 * A payout whose answer was lost (a network failure, a stopped process) stays 'paying': once it is
 * RECONCILE_AFTER_MS old the reconciler asks the bank about its reference (a requery) and ends
 * it as the bank's record says: credited, or never arrived (back in the wallet, to be released
 * again), or left to ask again when the bank has not decided.
 */

type TPayoutContext = Pick<TAppContext, 'db' | 'clock' | 'providers'>;
type TPayoutRow = typeof payouts.$inferSelect;

/** Payouts the reconciler asks about in one batch. */
const STALE_BATCH = 50;

const PAYOUT_NARRATION = 'Payment request collections released';

export function payoutView(row: TPayoutRow): TPayout {
  return {
    payoutId: row.id,
    status: row.status,
    amount: row.amount,
    accountId: row.accountId,
    bankName: row.bankName,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    endedAt: row.endedAt ? row.endedAt.toISOString() : null,
  };
}

/**
 * Takes the whole of the payer's wallet into a new payout to `account`, or answers null when it
 * holds nothing. One transaction under the wallet's row lock. The payout names `provider`, the
 * one it is sent to: every later question about it goes there.
 */
async function claimWallet(
  ctx: TPayoutContext,
  provider: string,
  payerId: string,
  account: {
    id: string;
    institutionCode: string;
    accountNumber: string;
    accountName: string;
    bankName: string;
  },
): Promise<TPayoutRow | null> {
  const merchantId = requesterMerchantId(payerId);
  const wallet = ledgerAccount.collectionWallet(merchantId);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // FOR UPDATE: a release waiting here reads the balance the one before it left.
    const [held] = await tx
      .select({ balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.id, wallet.id))
      .for('update');
    if (!held || held.balance <= 0) return null;
    const [payout] = await tx
      .insert(payouts)
      .values({
        id: randomId('pout'),
        payerId,
        merchantId,
        accountId: account.id,
        institutionCode: account.institutionCode,
        accountNumber: account.accountNumber,
        accountName: account.accountName,
        bankName: account.bankName,
        amount: held.balance,
        provider,
        createdAt: now,
        askedAt: now,
      })
      .returning();
    if (!payout) throw new Error('A payout was not recorded');
    await book(tx, {
      kind: 'payout',
      reference: payout.id,
      paymentId: null,
      attemptId: null,
      narration: PAYOUT_NARRATION,
      entries: [
        { account: wallet, amount: -payout.amount },
        { account: ledgerAccount.payoutsInFlight(), amount: payout.amount },
      ],
    });
    return payout;
  });
}

/**
 * Ends a paying payout with the bank's answer, once: a payout another call ended meanwhile is
 * answered as it stands, with nothing booked again.
 */
async function settle(
  ctx: TPayoutContext,
  payout: TPayoutRow,
  outcome: TPayoutOutcome,
): Promise<TPayoutRow> {
  const credited = outcome.kind === 'succeeded';
  return ctx.db.transaction(async (tx) => {
    const [ended] = await tx
      .update(payouts)
      .set({
        status: credited ? 'completed' : 'failed',
        providerReference: outcome.providerReference,
        failureReason: credited ? null : outcome.reason,
        endedAt: ctx.clock.now(),
      })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'paying')))
      .returning();
    if (!ended) {
      const [current] = await tx.select().from(payouts).where(eq(payouts.id, payout.id));
      if (!current) throw new Error(`Payout ${payout.id} is gone`);
      return current;
    }
    await book(tx, {
      kind: credited ? 'payout_settled' : 'payout_return',
      reference: payout.id,
      paymentId: null,
      attemptId: null,
      narration: credited ? PAYOUT_NARRATION : `${PAYOUT_NARRATION}, refused by the bank`,
      entries: [
        { account: ledgerAccount.payoutsInFlight(), amount: -payout.amount },
        {
          account: credited
            ? ledgerAccount.payoutDestination()
            : ledgerAccount.collectionWallet(payout.merchantId),
          amount: payout.amount,
        },
      ],
    });
    return ended;
  });
}

/**
 * Asks the bank to pay `payout` by `port`, the provider it names; a lost answer leaves it paying,
 * for the runner to ask again.
 */
async function send(
  ctx: TPayoutContext,
  port: TPayoutsPort,
  payout: TPayoutRow,
): Promise<TPayoutRow> {
  let outcome: TPayoutOutcome;
  try {
    outcome = await port.payOut({
      reference: payout.id,
      institutionCode: payout.institutionCode,
      accountNumber: payout.accountNumber,
      accountName: payout.accountName,
      amount: payout.amount,
      narration: PAYOUT_NARRATION,
    });
  } catch {
    return payout;
  }
  return settle(ctx, payout, outcome);
}

const answerOf = (payout: TPayoutRow | null): TReleasePendingResponse => ({
  success: true,
  released: payout && payout.status !== 'failed' ? payout.amount : 0,
  payout: payout ? payoutView(payout) : null,
});

/**
 * The payouts port a new payout goes to (docs/routing.md): the first of PAYOUT_PROVIDERS that
 * is healthy for payouts to the destination bank. The payout names it, so its requery asks it
 * whatever the routing or the lists say later; a payout is never sent again elsewhere (no answer
 * is asked about by reference). No provider: the capability is off, and says so.
 */
async function routedPayouts(
  ctx: TPayoutContext,
  payerId: string,
  institutionCode: string,
): Promise<TPayoutsPort> {
  const { registry, health } = ctx.providers;
  const candidates = registry.lists.payouts.filter((name) =>
    registry.adapters.some((adapter) => adapter.name === name && adapter.payouts),
  );
  const route = await health.route(
    { capability: 'payouts', bank: institutionCode, merchantId: requesterMerchantId(payerId) },
    candidates,
  );
  const [first] = route.order;
  // The list's first is new work's port (the one the context measures and records).
  const newWork = ctx.providers.payments.payouts;
  if (first === undefined || first === newWork.provider) return usable(newWork);
  return registry.portOf(first, 'payouts');
}

/**
 * POST /api/payments/release-pending: pays everything the payer's wallet holds to
 * `destinationAccountId`, one of their linked accounts (an active mandate proves it is theirs).
 */
export async function releasePending(
  ctx: TPayoutContext,
  payerId: string,
  destinationAccountId: string,
): Promise<TReleasePendingResponse> {
  const linked = (await linkedAccountsOf(ctx.db, payerId, [destinationAccountId])).get(
    destinationAccountId,
  );
  if (!linked) {
    throw (
      (await whyNotDebitable(ctx.db, payerId, destinationAccountId)) ??
      new AppError('PAYOUT_ACCOUNT_NOT_LINKED')
    );
  }
  const port = await routedPayouts(ctx, payerId, linked.account.institutionCode);
  const payout = await claimWallet(ctx, port.provider, payerId, linked.account);
  return answerOf(payout && (await send(ctx, port, payout)));
}

/** Ends a paying payout from the bank's record of its reference; a pending one stays paying. */
async function requeryPayout(ctx: TPayoutContext, payout: TPayoutRow): Promise<TPayoutRow> {
  const port = ctx.providers.registry.portOf(payout.provider, 'payouts');
  const answer = await port.requeryPayout(payout.id);
  switch (answer.kind) {
    case 'taken':
      return settle(ctx, payout, {
        kind: 'succeeded',
        providerReference: answer.providerReference,
      });
    case 'not_taken':
      return settle(ctx, payout, {
        kind: 'failed',
        providerReference: answer.providerReference,
        reason: answer.reason === 'account_not_found' ? 'account_not_found' : 'expired',
      });
    case 'pending':
      return payout;
  }
}

/**
 * A provider's notice that the payout sent with `reference` ended: the payout still paying is
 * ended from the bank's record of it (the requery above: the record, not the notice, says why a
 * payout failed), in the one conditional statement `settle` makes. A payout ended before (by its
 * answer, a requery, the same notice) changes nothing: answers null.
 */
export async function settleNoticedPayout(
  ctx: TPayoutContext,
  reference: string,
): Promise<TPayoutRow | null> {
  const [paying] = await ctx.db
    .select()
    .from(payouts)
    .where(and(eq(payouts.id, reference), eq(payouts.status, 'paying')));
  return paying ? requeryPayout(ctx, paying) : null;
}

/**
 * The reconciler's part: asks the bank about payouts left paying for `reconcileAfterMs`. Each
 * batch is claimed in one statement (its asked time moved on), so reconcilers in several
 * processes never ask about one payout at once. Answers how many ended, and how many were
 * skipped for naming a provider this server does not run now (unrouted-rows.ts): the others go on.
 */
export async function reconcilePayouts(
  ctx: TPayoutContext,
  reconcileAfterMs: number,
): Promise<{ ended: number; unrouted: number }> {
  let ended = 0;
  let unrouted = 0;
  for (;;) {
    const now = ctx.clock.now();
    const stale = new Date(now.getTime() - reconcileAfterMs);
    const claimed = await claimRows(ctx.db, payouts, {
      due: and(eq(payouts.status, 'paying'), lt(payouts.askedAt, stale)),
      still: eq(payouts.status, 'paying'),
      oldestBy: payouts.askedAt,
      limit: STALE_BATCH,
      set: { askedAt: now },
    });
    if (claimed.length === 0) return { ended, unrouted };
    for (const payout of claimed) {
      const answer = await unlessUnrouted(payout.id, () => requeryPayout(ctx, payout));
      if (answer === UNROUTED) unrouted += 1;
      else if (answer.status !== 'paying') ended += 1;
    }
    // Still unanswered: asked again at the next run, not in this one.
    if (claimed.length < STALE_BATCH) return { ended, unrouted };
  }
}

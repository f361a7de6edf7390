import { and, eq, isNull, lt, ne } from 'drizzle-orm';
import type { TAppContext } from '../../context';
import { paymentAttempts, transferNotices } from '../../db/schema';
import type { TProviderNotice, TRawNotice } from '../../providers/payments';
import { AppError } from '../app-error';
import {
  answerAccountHolder,
  applyBankMandate,
  creditLinkTestTransfer,
  isAccountLinkReference,
} from '../linking/account-links';
import { settleNoticedCharge } from './lost-attempts';
import { settleNoticedPayout } from './payouts';
import { completeRefund } from './refunds';
import { creditTransfer } from './transfer-payments';

/*
 * What a provider tells us on its own (docs/payments.md "Provider notices"): POST
 * /api/providers/{name}/notices hands the raw body and headers to the configured provider's
 * adapter, which verifies and reads them (TNoticesPort); a verified notice meets the requery in
 * one completion path, here:
 *
 * - transfer_received: credited by creditTransfer (a payment's one-time account) or
 *   creditLinkTestTransfer (a link's test transfer), in one transaction with the notice's record
 *   (transfer_notices, by the provider's reference of the transfer); what is not taken goes back
 *   to its sender through returnTransfer, after that transaction and before we answer.
 * - charge: booked by the reconciler's own path (lost-attempts.ts settleNoticedCharge).
 * - payout: ended from the bank's record, as the reconciler ends it (payouts.ts).
 * - refund: ended by completeRefund, as the refund's own answer and its requery end it.
 * - debit_mandate: the bank confirmed a mandate approved at its page: applyBankMandate, as a
 *   read of the link that asks the provider (settleLink).
 * - account_holder: the provider's answer whether an account is held under the payer's BVN
 *   (answerAccountHolder).
 *
 * Delivered again (a provider retries what was not answered 2xx), a notice changes nothing: a
 * transfer's is answered from its record (given back again if that was the answer: returnTransfer
 * is safe to repeat), and every other kind moves only a row still waiting, in one statement.
 */

type TNoticeContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;

/**
 * What a notice did: applied (handed to its completion: a refund's answers the same when told
 * twice), found what it tells done already, or was about nothing we track.
 */
export type TNoticeEffect = 'applied' | 'unchanged' | 'ignored';

/**
 * POST /api/providers/{name}/notices: 404 for a name other than the configured provider's, 401
 * (nothing changed) for a notice its adapter does not verify, else applies it.
 */
export async function receiveProviderNotice(
  ctx: TNoticeContext,
  name: string,
  raw: TRawNotice,
): Promise<TNoticeEffect> {
  const { payments } = ctx.providers;
  if (name !== payments.name) {
    throw new AppError('NOT_FOUND', 'No provider of this name sends notices here');
  }
  const notice = await payments.readNotice(raw);
  if (!notice) throw new AppError('AUTHENTICATION_FAILED');
  return applyProviderNotice(ctx, notice);
}

/** Applies a verified notice in the one completion path its kind shares with a requery. */
export async function applyProviderNotice(
  ctx: TNoticeContext,
  notice: TProviderNotice,
): Promise<TNoticeEffect> {
  switch (notice.kind) {
    case 'transfer_received':
      return applyTransferNotice(ctx, notice);
    case 'charge': {
      const [attempt] = await ctx.db
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.id, notice.reference));
      const method = notice.channel === 'card' ? 'card' : 'account';
      if (attempt?.method !== method) return 'ignored';
      return (await settleNoticedCharge(ctx, attempt, notice.outcome)) === null
        ? 'unchanged'
        : 'applied';
    }
    case 'payout':
      return (await settleNoticedPayout(ctx, notice.reference)) === null ? 'unchanged' : 'applied';
    case 'refund':
      return (await completeRefund(ctx, notice.reference, notice.outcome)) === null
        ? 'ignored'
        : 'applied';
    case 'debit_mandate':
      return applyBankMandate(ctx, notice);
    case 'account_holder':
      return answerAccountHolder(ctx, notice);
    case 'ignored':
      return 'ignored';
  }
}

async function applyTransferNotice(
  ctx: TNoticeContext,
  notice: Extract<TProviderNotice, { kind: 'transfer_received' }>,
): Promise<TNoticeEffect> {
  const { db, providers } = ctx;
  const provider = providers.payments.name;
  const key = and(
    eq(transferNotices.provider, provider),
    eq(transferNotices.providerReference, notice.providerReference),
  );
  const decided = await db.transaction(async (tx) => {
    // The record first: the same notice at once waits here for the first, then reads its answer.
    const [fresh] = await tx
      .insert(transferNotices)
      .values({
        provider,
        providerReference: notice.providerReference,
        reference: notice.reference,
        amount: notice.amount,
        answer: 'taken',
      })
      .onConflictDoNothing()
      .returning();
    if (!fresh) {
      const [seen] = await tx.select().from(transferNotices).where(key);
      if (!seen) throw new Error(`Transfer notice ${notice.providerReference} vanished`);
      return { ...seen, first: false };
    }
    const now = ctx.clock.now();
    const { reference, amount, sender } = notice;
    const answer = isAccountLinkReference(reference)
      ? await creditLinkTestTransfer(tx, reference, amount, sender, now)
      : await creditTransfer(tx, reference, amount, sender, now);
    if (answer.taken) return { ...fresh, first: true };
    await tx.update(transferNotices).set({ answer: answer.reason }).where(key);
    return { ...fresh, answer: answer.reason, first: true };
  });
  if (decided.answer !== 'taken' && decided.returnedAt === null) {
    // Outside the transaction: a provider that does not answer leaves the notice unanswered
    // (5xx), and the money owed back is given back when the notice comes again or, if it never
    // does, by the reconciler (returnRefusedTransfers).
    await giveTransferBack(ctx, decided);
  }
  return decided.first ? 'applied' : 'unchanged';
}

type TTransferNoticeRow = typeof transferNotices.$inferSelect;

/** Returns a transfer we did not take to its sender, and records that it went. */
async function giveTransferBack(
  ctx: Pick<TNoticeContext, 'db' | 'clock' | 'providers'>,
  row: TTransferNoticeRow,
): Promise<void> {
  if (row.answer === 'taken') return;
  await ctx.providers.payments.returnTransfer({
    reference: row.reference,
    providerReference: row.providerReference,
    amount: row.amount,
    reason: row.answer,
  });
  await ctx.db
    .update(transferNotices)
    .set({ returnedAt: ctx.clock.now() })
    .where(
      and(
        eq(transferNotices.provider, row.provider),
        eq(transferNotices.providerReference, row.providerReference),
      ),
    );
}

/**
 * The reconciler's step for transfers we did not take whose return was not confirmed (the
 * provider did not answer returnTransfer, and never sent the notice again): given back now, past
 * RECONCILE_AFTER_MS. returnTransfer is safe to repeat, so two processes asking at once give the
 * money back once. Answers how many went back; one the provider still does not answer waits for
 * the next run.
 */
export async function returnRefusedTransfers(ctx: TNoticeContext): Promise<number> {
  const owed = await ctx.db
    .select()
    .from(transferNotices)
    .where(
      and(
        eq(transferNotices.provider, ctx.providers.payments.name),
        ne(transferNotices.answer, 'taken'),
        isNull(transferNotices.returnedAt),
        lt(
          transferNotices.createdAt,
          new Date(ctx.clock.now().getTime() - ctx.config.reconcileAfterMs),
        ),
      ),
    )
    .limit(50);
  let returned = 0;
  for (const row of owed) {
    try {
      await giveTransferBack(ctx, row);
      returned += 1;
    } catch {
      // Not answered now: asked again at the next run.
    }
  }
  return returned;
}

import { and, eq, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import { CURRENCY_CODE } from '../../../domain/constants';
import type { TAppContext } from '../../context';
import { paymentAttempts, transferNotices } from '../../db/schema';
import type { TDb } from '../../db/database';
import type { TProviderNotice, TRawNotice } from '../../providers/payments';
import { AppError } from '../../app-error';
import { isAccountLinkReference } from '../linking/link-lifecycle';
import { answerAccountHolder, applyBankMandate } from '../linking/link-mandates';
import { creditLinkTestTransfer, expireLinkTestTransfer } from '../linking/link-test-transfers';
import { settleNoticedLinkCharge } from '../linking/card-link-notices';
import { settleNoticedThreeDs } from './card-payments';
import { settleNoticedCharge } from './attempts/answers';
import { settleNoticedPayout } from './payouts';
import { settleRefund } from './refunds';
import {
  creditTransfer,
  expireTransferAttempt,
  isOpenedElsewhere,
  type TCreditAnswer,
} from './transfer-payments';
import { usable } from '../../providers/off';

/*
 * What a provider tells us on its own (docs/payments.md "Provider notices"): POST
 * /api/providers/{name}/notices hands the raw body and headers to the configured provider's
 * adapter, which verifies and reads them (TNoticesPort); a verified notice meets the requery in
 * one completion path, here:
 *
 * - transfer_received: credited by creditTransfer (a payment's one-time account) or
 *   creditLinkTestTransfer (a link's test transfer), in one transaction with the notice's record
 *   (transfer_notices, by what the notice says: the provider's reference of the transfer, the
 *   amount and the currency); what is not taken goes back to its sender through returnTransfer,
 *   after that transaction and before we answer. Money in another currency than the naira is
 *   never credited: it goes back.
 * - charge: booked by the reconciler's own path (attempts/answers.ts settleNoticedCharge); a
 *   charge waiting for its 3-D Secure check ended by the path of the reconciler's 3-D Secure sweep
 *   (card-payments.ts settleNoticedThreeDs); a card link's test charge waiting for its check by the
 *   link's own completion (card-link-notices.ts settleNoticedLinkCharge). A charge taken in another
 *   currency than the naira pays nothing: it is recorded as a transfer's notice is, and given back
 *   whole through returnTransfer.
 * - payout: ended from the bank's record, as the reconciler ends it (payouts.ts).
 * - refunds: each settled as its requery is (settleRefund: completeRefund, as the refund's own
 *   answer ends it; one the provider holds until told the account to pay is told it).
 * - debit_mandate: the bank confirmed a mandate approved at its page: applyBankMandate, as a
 *   read of the link that asks the provider (settleLink).
 * - account_holder: the provider's answer whether an account is held under the payer's BVN
 *   (answerAccountHolder).
 * - terminal_request: a payment request pushed to a terminal was paid, or refused: its attempt
 *   (found by the provider reference the push answered, or by ours in the request where that
 *   answer was lost) is booked by the reconciler's path.
 *
 * Delivered again (a provider retries what was not answered 2xx), a notice changes nothing: a
 * notice of money is answered from its record (given back again if that was the answer:
 * returnTransfer is safe to repeat), and every other kind moves only a row still waiting, in one
 * statement. A notice of the same transfer that says another amount or currency is not the same
 * notice: it is judged for itself, so one that was refused never makes another refused.
 */

type TNoticeContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/**
 * What a notice did: applied (handed to its completion: a refund's answers the same when told
 * twice), found what it tells done already, or was about nothing we track.
 */
export type TNoticeEffect = 'applied' | 'unchanged' | 'ignored';

/**
 * POST /api/providers/{name}/notices: dispatched to that provider's adapter, whichever capability
 * it serves first or stands by for: 404 for a name no configured adapter sends notices by, 401
 * (nothing changed) for a notice its adapter does not verify, else applies it.
 */
export async function receiveProviderNotice(
  ctx: TNoticeContext,
  name: string,
  raw: TRawNotice,
): Promise<TNoticeEffect> {
  const notices = ctx.providers.registry.adapters.find((adapter) => adapter.name === name)?.notices;
  if (!notices) throw new AppError('NOT_FOUND', 'No provider of this name sends notices here');
  const notice = await notices.readNotice(raw);
  if (!notice) throw new AppError('AUTHENTICATION_FAILED');
  return applyProviderNotice(ctx, notice, notices.provider);
}

/** Applies a verified notice in the one completion path its kind shares with a requery. */
export async function applyProviderNotice(
  ctx: TNoticeContext,
  notice: TProviderNotice,
  /** The provider that sent it: whose record of money it is, and who gives back what we refuse. */
  from: string = usable(ctx.providers.payments.transfersIn).provider,
): Promise<TNoticeEffect> {
  switch (notice.kind) {
    case 'transfer_received':
      return applyTransferNotice(ctx, notice, from);
    case 'charge':
      return applyChargeNotice(ctx, notice, from);
    case 'payout':
      return (await settleNoticedPayout(ctx, notice.reference)) === null ? 'unchanged' : 'applied';
    case 'refunds':
      return applyRefundsNotice(ctx, notice.refunds);
    case 'transfer_account_expired':
      return applyAccountExpiredNotice(ctx, notice.reference, from);
    case 'debit_mandate':
      return applyBankMandate(ctx, notice);
    case 'account_holder':
      return answerAccountHolder(ctx, notice);
    case 'terminal_request':
      return applyTerminalRequestNotice(ctx, notice);
    case 'ignored':
      return 'ignored';
  }
}

/**
 * A charge's notice, found by its attempt: a card link's test charge by its link's completion, a
 * payment's charge by its attempt's. An attempt waiting for its 3-D Secure check ends as the
 * reconciler's sweep ends it (settleNoticedThreeDs), every other as a requery's answer is booked
 * (settleNoticedCharge). Only the provider the attempt names, which made the charge, speaks for
 * its money: another provider's word on it changes nothing.
 */
async function applyChargeNotice(
  ctx: TNoticeContext,
  notice: Extract<TProviderNotice, { kind: 'charge' }>,
  from: string,
): Promise<TNoticeEffect> {
  const { reference, outcome } = notice;
  const [attempt] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, reference));
  const method = notice.channel === 'card' ? 'card' : 'account';
  if (attempt?.method !== method || attempt.provider !== from) return 'ignored';
  if (!isNaira(notice.currency)) return refuseForeignCharge(ctx, notice, from);
  if (attempt.purpose === 'link_test') return settleNoticedLinkCharge(ctx, attempt.id, outcome);
  const settled =
    attempt.stage === 'awaiting_3ds'
      ? await settleNoticedThreeDs(ctx, attempt, outcome)
      : await settleNoticedCharge(ctx, attempt, outcome);
  return settled === null ? 'unchanged' : 'applied';
}

/**
 * A payment request pushed to a terminal ended: its attempt is the one whose provider reference
 * the push answered (payment_attempts is unique on provider and reference), or, where that
 * answer was lost, the one of our reference the request carries, among the attempts of every
 * pushed terminal's provider this server runs (the one that took the push, whichever takes new
 * work now); booked as a requery's answer is (settleNoticedCharge, which asks the attempt's own
 * provider before booking).
 */
async function applyTerminalRequestNotice(
  ctx: TNoticeContext,
  notice: Extract<TProviderNotice, { kind: 'terminal_request' }>,
): Promise<TNoticeEffect> {
  const pushed = ctx.providers.registry.adapters.flatMap((adapter) =>
    adapter.acquirer?.kind === 'push' ? [adapter.name] : [],
  );
  if (pushed.length === 0) return 'ignored';
  const [attempt] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        inArray(paymentAttempts.provider, pushed),
        or(
          eq(paymentAttempts.providerReference, notice.providerReference),
          // The push's answer was lost: the attempt knows only its own reference.
          notice.reference === null
            ? undefined
            : and(
                eq(paymentAttempts.id, notice.reference),
                isNull(paymentAttempts.providerReference),
              ),
        ),
      ),
    );
  if (attempt?.method !== 'chip_card') return 'ignored';
  // Found by our reference: the request's code the push's answer never brought is the notice's,
  // so that asking Paystack again reads that request, not a search for it.
  const known = {
    ...attempt,
    providerReference: attempt.providerReference ?? notice.providerReference,
  };
  const settled = await settleNoticedCharge(ctx, known, notice.outcome);
  return settled === null ? 'unchanged' : 'applied';
}

/**
 * Each refund a notice tells of is settled as its requery would be (settleRefund: completeRefund,
 * and one the provider holds for its account told it), one after another, each in its own
 * transaction: applied when any is a refund of ours.
 */
async function applyRefundsNotice(
  ctx: TNoticeContext,
  refunds: Extract<TProviderNotice, { kind: 'refunds' }>['refunds'],
): Promise<TNoticeEffect> {
  let effect: TNoticeEffect = 'ignored';
  for (const { reference, outcome } of refunds) {
    if ((await settleRefund(ctx, reference, outcome)) !== null) effect = 'applied';
  }
  return effect;
}

/** Our answer to money in another currency than the naira: not the amount asked for. */
const NOT_NAIRA = { taken: false, reason: 'wrong_amount' } as const;

/** Amounts are naira, in kobo (spec §9 Currency): money in any other currency is not ours. */
const isNaira = (currency: string) => currency === CURRENCY_CODE;

/**
 * A transfer's notice: credited to the payment's attempt or the link whose one-time account
 * received it, or given back. Only the provider that opened that account holds money sent to it:
 * another provider's notice naming it is acknowledged and changes nothing (its own record shows
 * money we never booked, for the settlement check to find: ledger.ts).
 */
function applyTransferNotice(
  ctx: TNoticeContext,
  notice: Extract<TProviderNotice, { kind: 'transfer_received' }>,
  from: string,
): Promise<TNoticeEffect> {
  const { reference, amount, sender } = notice;
  return answerNoticedMoney(ctx, from, notice, async (tx) => {
    if (!isNaira(notice.currency)) return NOT_NAIRA;
    const now = ctx.clock.now();
    return isAccountLinkReference(reference)
      ? creditLinkTestTransfer(tx, reference, amount, sender, now, from)
      : creditTransfer(ctx.jobs, tx, reference, amount, sender, now, from);
  });
}

/**
 * A one-time account closed before its time: the link's test transfer or the payment's attempt
 * that waited on it ends expired, each in its one move (the same notice twice changes nothing).
 * An account is ended only by the provider its attempt or link names, which opened it: another
 * provider's word on it changes nothing. (A link made before its row named that provider takes
 * the word of any.)
 */
async function applyAccountExpiredNotice(
  ctx: TNoticeContext,
  reference: string,
  from: string,
): Promise<TNoticeEffect> {
  const now = ctx.clock.now();
  if (isAccountLinkReference(reference)) {
    return (await expireLinkTestTransfer(ctx.db, reference, now, from)) ? 'applied' : 'unchanged';
  }
  return (await expireTransferAttempt(ctx.db, reference, now, from)) ? 'applied' : 'unchanged';
}

/**
 * A charge or a debit of ours the provider took in another currency than the naira: it pays no
 * payment, whatever its amount. What it took is recorded and given back whole to whoever paid it;
 * a refusal in that currency, or money given back already, leaves nothing to do.
 */
async function refuseForeignCharge(
  ctx: TNoticeContext,
  notice: Extract<TProviderNotice, { kind: 'charge' }>,
  from: string,
): Promise<TNoticeEffect> {
  const { outcome } = notice;
  if (outcome.kind !== 'taken' || outcome.givenBack) return 'ignored';
  const money = {
    reference: notice.reference,
    providerReference: outcome.providerReference,
    amount: outcome.amount,
    currency: notice.currency,
  };
  return answerNoticedMoney(ctx, from, money, async () => NOT_NAIRA);
}

type TTransferNoticeRow = typeof transferNotices.$inferSelect;

/** What a notice of money says decides it: whose it is, the provider's reference, how much of what. */
type TNoticedMoney = Pick<
  TTransferNoticeRow,
  'reference' | 'providerReference' | 'amount' | 'currency'
>;

/** The record of a notice of money: what it says decides money, so it keys the record. */
const recordOf = (provider: string, money: Omit<TNoticedMoney, 'reference'>) =>
  and(
    eq(transferNotices.provider, provider),
    eq(transferNotices.providerReference, money.providerReference),
    eq(transferNotices.amount, money.amount),
    eq(transferNotices.currency, money.currency),
  );

/** A notice naming a one-time account another provider opened (isOpenedElsewhere). */
class OpenedElsewhere extends Error {}

/**
 * Answers a notice of money once, by `decide` in the transaction that records it (crediting it,
 * or saying why not); told again, the same notice reads its record and changes nothing. What is
 * not taken goes back after that transaction, and again when told again until it went.
 */
async function answerNoticedMoney(
  ctx: TNoticeContext,
  provider: string,
  money: TNoticedMoney,
  decide: (tx: TDb) => Promise<TCreditAnswer>,
): Promise<TNoticeEffect> {
  const key = recordOf(provider, money);
  const decided = await ctx.db
    .transaction(async (tx) => {
      // The record first: the same notice at once waits here for the first, then reads its answer.
      const [fresh] = await tx
        .insert(transferNotices)
        .values({
          provider,
          providerReference: money.providerReference,
          reference: money.reference,
          amount: money.amount,
          currency: money.currency,
          answer: 'taken',
        })
        .onConflictDoNothing()
        .returning();
      if (!fresh) {
        const [seen] = await tx.select().from(transferNotices).where(key);
        if (!seen) throw new Error(`Notice of ${money.providerReference} vanished`);
        return { ...seen, first: false };
      }
      const answer = await decide(tx);
      // Not this provider's account: its record of the notice is undone with the transaction.
      if (isOpenedElsewhere(answer)) throw new OpenedElsewhere();
      if (answer.taken) return { ...fresh, first: true };
      await tx.update(transferNotices).set({ answer: answer.reason }).where(key);
      return { ...fresh, answer: answer.reason, first: true };
    })
    .catch((error: unknown) => {
      if (error instanceof OpenedElsewhere) return null;
      throw error;
    });
  if (decided === null) return 'ignored';
  if (decided.answer !== 'taken' && decided.returnedAt === null) {
    // Outside the transaction: a provider that does not answer leaves the notice unanswered
    // (5xx), and the money owed back is given back when the notice comes again or, if it never
    // does, by the reconciler (returnRefusedTransfers).
    await giveTransferBack(ctx, decided);
  }
  return decided.first ? 'applied' : 'unchanged';
}

/** Gives money we did not take back to whoever sent it, and records that it went. */
async function giveTransferBack(
  ctx: Pick<TNoticeContext, 'db' | 'clock' | 'providers'>,
  row: TTransferNoticeRow,
): Promise<void> {
  if (row.answer === 'taken') return;
  await ctx.providers.registry.portOf(row.provider, 'transfersIn').returnTransfer({
    reference: row.reference,
    providerReference: row.providerReference,
    amount: row.amount,
    currency: row.currency,
    reason: row.answer,
  });
  await ctx.db
    .update(transferNotices)
    .set({ returnedAt: ctx.clock.now() })
    .where(recordOf(row.provider, row));
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
        // Each to the provider that told of it: one this server no longer runs waits for it.
        inArray(transferNotices.provider, returningProviders(ctx)),
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

/** The configured providers that give back money we did not take. */
const returningProviders = (ctx: Pick<TNoticeContext, 'providers'>) =>
  ctx.providers.registry.adapters.flatMap((adapter) => (adapter.transfersIn ? [adapter.name] : []));

import type { TAppContext } from '../../context';
import { jobRunner, type TJobRunner } from '../job-runner';
import { reconcileLostLinkCharges } from '../linking/lost-link-charges';
import { reconcileLostAttempts, reconcileOwedRefunds, type TLostAnswer } from './lost-attempts';
import { expireThreeDsChallenges } from './card-payments';
import { returnRefusedTransfers } from './provider-notices';
import { reconcilePayouts } from './payouts';
import { reconcileLostRefunds } from './refunds';
import { expireTransferAccounts } from './transfer-payments';

/*
 * The reconciler (docs/payments.md "Reconciliation"): every call that moves money whose answer
 * was lost is settled from the provider's record of its reference. It runs when the server
 * starts and every RECONCILE_INTERVAL_MS; each run takes what has been unanswered for
 * RECONCILE_AFTER_MS: merchants' refunds (refunds.ts), card charges, saved-account debits and chip
 * purchases (lost-attempts.ts), money owed back to a payer, card links' test charges
 * (linking/lost-link-charges.ts) and payouts (payouts.ts); and it ends what waits past its time:
 * 3-D Secure challenges (card-payments.ts) and one-time accounts (transfer-payments.ts); and it
 * gives back transfers we did not take whose return went unconfirmed (provider-notices.ts). Every
 * step claims its rows in one statement, so reconcilers in several processes on one PostgreSQL
 * never settle a row twice.
 */

type TReconcileContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;

export type TReconciliation = {
  /** Lost attempts by what their provider said: booked, paid otherwise, failed, still pending. */
  attempts: Partial<Record<TLostAnswer, number>>;
  /** Money owed back: given back (or found never taken), or still pending. */
  refunds: Partial<Record<'given_back' | 'pending', number>>;
  /** Card links' test charges: given back, never taken (the link failed), or still pending. */
  linkCharges: Partial<Record<'given_back' | 'failed' | 'pending', number>>;
  /** Merchants' refunds left pending, by what their provider said now. */
  merchantRefunds: Partial<Record<'processed' | 'failed' | 'pending', number>>;
  /** Payouts left paying, ended now (credited, or back in the wallet). */
  payoutsEnded: number;
  /** 3-D Secure challenges ended now: unanswered past their 10 minutes, or ended at the provider. */
  challengesEnded: number;
  /** One-time accounts whose expiry passed, their attempts ended now. */
  transferAccountsExpired: number;
  /** Transfers we did not take whose return went unconfirmed, given back now. */
  transfersReturned: number;
};

/** One run; what could not be settled is thrown together at its end, the rest settled. */
export async function reconcile(ctx: TReconcileContext): Promise<TReconciliation> {
  // A refund's lost answer first: what it reserved is held until the provider says.
  const merchantRefunds = await reconcileLostRefunds(ctx, ctx.config.reconcileAfterMs);
  const attempts = await reconcileLostAttempts(ctx);
  const refunds = await reconcileOwedRefunds(ctx);
  const linkCharges = await reconcileLostLinkCharges(ctx);
  const payoutsEnded = await reconcilePayouts(ctx, ctx.config.reconcileAfterMs);
  const challengesEnded = await expireThreeDsChallenges(ctx);
  const transferAccountsExpired = await expireTransferAccounts(ctx);
  const transfersReturned = await returnRefusedTransfers(ctx);
  const errors = [
    ...merchantRefunds.errors,
    ...attempts.errors,
    ...refunds.errors,
    ...linkCharges.errors,
  ];
  if (errors.length > 0) {
    throw new AggregateError(errors, `${errors.length} lost answer(s) could not be settled`);
  }
  return {
    attempts: attempts.counts,
    refunds: refunds.counts,
    linkCharges: linkCharges.counts,
    merchantRefunds: merchantRefunds.counts,
    payoutsEnded,
    challengesEnded,
    transferAccountsExpired,
    transfersReturned,
  };
}

export type TReconciler = TJobRunner<TReconciliation>;

export function reconciler(ctx: TReconcileContext, onError: (error: unknown) => void): TReconciler {
  return jobRunner(() => reconcile(ctx), onError);
}

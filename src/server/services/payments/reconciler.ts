import type { TAppContext } from '../../context';
import { expireThreeDsLinks } from '../linking/link-challenges';
import { reconcileLostLinkCharges } from '../linking/lost-link-charges';
import type { TLostAnswer } from './attempts/answers';
import { reconcileLostAttempts, reconcileOwedRefunds } from './attempts/reconcile';
import { expireThreeDsChallenges } from './card-payments';
import { returnRefusedTransfers } from './provider-notices';
import { reconcilePayouts } from './payouts';
import { reconcileLostRefunds } from './refunds';
import type { TGiveBack } from './attempts/settlements';
import { expireTransferAccounts } from './transfer-payments';
import { endExpiredDataSharing } from '../consents/data-sharing-expiry';

/*
 * The reconciler (docs/payments.md "Reconciliation"): every call that moves money whose answer
 * was lost is settled from the provider's record of its reference. Its steps are periodic kinds
 * of the job engine (docs/jobs.md): each runs when the server starts and every
 * RECONCILE_INTERVAL_MS, on its own; each run takes what has been unanswered for
 * RECONCILE_AFTER_MS: merchants' refunds (refunds.ts), card charges, saved-account debits and chip
 * purchases (attempts/reconcile.ts), money owed back to a payer, card links' test charges
 * (linking/lost-link-charges.ts) and payouts (payouts.ts); and it ends what waits past its time:
 * 3-D Secure challenges of payments (card-payments.ts) and of card links' test charges
 * (linking/link-challenges.ts), one-time accounts (transfer-payments.ts) and data
 * sharing past its 12 months (consents/data-sharing-expiry.ts); and it
 * gives back transfers we did not take whose return went unconfirmed (provider-notices.ts). Every
 * step claims its rows in one statement, so reconcilers in several processes on one PostgreSQL
 * never settle a row twice.
 */

type TReconcileContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

export type TReconciliation = {
  /** Lost attempts by what their provider said: booked, paid otherwise, failed, still pending. */
  attempts: Partial<Record<TLostAnswer, number>>;
  /**
   * Money owed back: given back (or found never taken), still pending, or left to an operator
   * (no call of ours can give it back).
   */
  refunds: Partial<Record<TGiveBack, number>>;
  /** Card links' test charges: given back, never taken (the link failed), or still pending. */
  linkCharges: Partial<Record<'given_back' | 'failed' | 'pending', number>>;
  /** Merchants' refunds left pending, by what their provider said now. */
  merchantRefunds: Partial<Record<'processed' | 'failed' | 'pending', number>>;
  /** Payouts left paying, ended now (credited, or back in the wallet). */
  payoutsEnded: number;
  /**
   * 3-D Secure challenges ended now, payments' and card links': unanswered past their 10 minutes,
   * or ended at the provider.
   */
  challengesEnded: number;
  /** One-time accounts whose expiry passed, their attempts ended now. */
  transferAccountsExpired: number;
  /** Transfers we did not take whose return went unconfirmed, given back now. */
  transfersReturned: number;
  /** Granted consents whose 12 months of data sharing passed, ended now. */
  dataSharingEnded: number;
  /**
   * Rows skipped because they name a provider this server does not run now (unrouted-rows.ts):
   * logged, asked about again at a later run; the rest of each batch went on.
   */
  unrouted: number;
};

/**
 * What a step answers: its part of the run (with the rows it skipped as unrouted), and the lost
 * answers it could not settle.
 */
type TStepRun = { part: Partial<TReconciliation>; errors: unknown[] };

/** A drain's part of the run: its counts under `key`, and the rows it skipped. */
const drained = <TKey extends keyof TReconciliation>(
  key: TKey,
  found: { counts: TReconciliation[TKey]; errors: unknown[]; unrouted: number },
): TStepRun => ({
  part: { [key]: found.counts, unrouted: found.unrouted },
  errors: found.errors,
});

/**
 * The run's steps, each a periodic kind of the job engine of its own (jobs/kinds.ts), so that a
 * step that throws (a provider down for payouts) never stops the others (the 3-D Secure and
 * one-time-account expiries after it). A refund's lost answer first: what it reserved is held
 * until the provider says.
 */
export const RECONCILE_STEPS: { name: string; run(ctx: TReconcileContext): Promise<TStepRun> }[] = [
  {
    name: 'reconcile.merchant-refunds',
    run: async (ctx) =>
      drained('merchantRefunds', await reconcileLostRefunds(ctx, ctx.config.reconcileAfterMs)),
  },
  {
    name: 'reconcile.attempts',
    run: async (ctx) => drained('attempts', await reconcileLostAttempts(ctx)),
  },
  {
    name: 'reconcile.owed-refunds',
    run: async (ctx) => drained('refunds', await reconcileOwedRefunds(ctx)),
  },
  {
    name: 'reconcile.link-charges',
    run: async (ctx) => drained('linkCharges', await reconcileLostLinkCharges(ctx)),
  },
  {
    name: 'reconcile.payouts',
    run: async (ctx) => {
      const { ended, unrouted } = await reconcilePayouts(ctx, ctx.config.reconcileAfterMs);
      return { part: { payoutsEnded: ended, unrouted }, errors: [] };
    },
  },
  {
    name: 'expire.three-ds-challenges',
    run: async (ctx) => {
      const links = await expireThreeDsLinks(ctx);
      const attempts = await expireThreeDsChallenges(ctx);
      return { part: { challengesEnded: attempts + links.ended }, errors: links.errors };
    },
  },
  {
    name: 'expire.transfer-accounts',
    run: async (ctx) => ({
      part: { transferAccountsExpired: await expireTransferAccounts(ctx) },
      errors: [],
    }),
  },
  {
    name: 'reconcile.returned-transfers',
    run: async (ctx) => ({
      part: { transfersReturned: await returnRefusedTransfers(ctx) },
      errors: [],
    }),
  },
  {
    name: 'expire.data-sharing',
    run: async (ctx) => ({
      part: { dataSharingEnded: await endExpiredDataSharing(ctx) },
      errors: [],
    }),
  },
];

/** One step run as a job: what it could not settle fails the job, to be retried with backoff. */
export async function runReconcileStep(
  ctx: TReconcileContext,
  step: (typeof RECONCILE_STEPS)[number],
): Promise<Partial<TReconciliation>> {
  const { part, errors } = await step.run(ctx);
  if (errors.length > 0) {
    throw new AggregateError(errors, `${errors.length} lost answer(s) could not be settled`);
  }
  return part;
}

/** A run that settled nothing: what each step's part is added to. */
export const noReconciliation = (): TReconciliation => ({
  attempts: {},
  refunds: {},
  linkCharges: {},
  merchantRefunds: {},
  payoutsEnded: 0,
  challengesEnded: 0,
  transferAccountsExpired: 0,
  transfersReturned: 0,
  dataSharingEnded: 0,
  unrouted: 0,
});

/**
 * Every step once, in order, each whatever the others did (tests, and the operator asking for one
 * run); what could not be settled is thrown together at the end, the rest settled.
 */
export async function reconcile(ctx: TReconcileContext): Promise<TReconciliation> {
  const run = noReconciliation();
  const errors: unknown[] = [];
  for (const step of RECONCILE_STEPS) {
    try {
      const found = await step.run(ctx);
      Object.assign(run, found.part, { unrouted: run.unrouted + (found.part.unrouted ?? 0) });
      errors.push(...found.errors);
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) {
    throw new AggregateError(errors, `${errors.length} lost answer(s) could not be settled`);
  }
  return run;
}

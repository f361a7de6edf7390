import type { TAppContext } from '../context';
import { recoveryCodeJob } from '../services/dashboard/staff-sign-in';
import { EVENT_PRUNE_MS, pruneMerchantEvents } from '../services/merchants/merchant-events';
import {
  webhookDeliverer,
  WEBHOOK_DELIVER_JOB,
  type TDeliveryTry,
} from '../services/merchants/webhooks';
import {
  collectDue,
  expireConsents,
  scheduleAndNotify,
} from '../services/payments/collection-runner';
import { RECONCILE_STEPS, runReconcileStep } from '../services/payments/reconciler';
import { HEALTH_PRUNE_MS, pruneHealthMinutes } from '../providers/routing/recorded-health';
import { skipPausedDue } from '../services/payments/skipped-payments';
import type { TJobKind, TJobRetry } from './engine';
import { smsJob } from './sms-job';
import { stopMandateJob } from '../services/linking/own-mandates';
import { payerRightsJobs } from '../services/payer-rights/jobs';

/*
 * Every kind of background work (docs/jobs.md "Kinds"), each with its retry policy. The periodic
 * ones are separate kinds so that one failing never stops the others.
 */

/**
 * Kinds of earlier versions: 'webhooks.sweep' sent what was due again every 10 s, a second retry
 * policy beside each delivery's own (its retries are its jobs now, services/merchants/webhooks.ts);
 * 'sms.bvn-code' sent a BVN code of ours, before the BVN registry sent its own (NIBSS's iGree;
 * the sandbox registry's SMS goes through the outbox's 'sms.send').
 */
export const RETIRED_KINDS = ['webhooks.sweep', 'sms.bvn-code'] as const;

/** A periodic kind that throws is tried again soon, then waits for its next run. */
const PERIODIC_RETRY: TJobRetry = { limit: 3, delaySeconds: 5, maxDelaySeconds: 60 };

/** The sandbox's owed notices (app.ts builds the sender). */
export type TNoticeResender = { resendOwed(): Promise<number>; everyMs: number };

export type TKindGroup =
  'webhooks' | 'sms' | 'payer-rights' | 'collections' | 'reconciliation' | 'sandbox';

/** Which group a kind belongs to: what a process is told to work on (app.ts). */
export const groupOf = (kind: string): TKindGroup => {
  if (kind.startsWith('webhooks.')) return 'webhooks';
  if (kind.startsWith('sms.')) return 'sms';
  if (kind.startsWith('payer-rights.')) return 'payer-rights';
  if (kind.startsWith('collections.')) return 'collections';
  if (kind.startsWith('sandbox.')) return 'sandbox';
  return 'reconciliation';
};

export function jobKinds(
  ctx: TAppContext,
  notices: TNoticeResender | null,
  onDeliveryTried?: (tried: TDeliveryTry) => void,
): TJobKind[] {
  const deliverer = webhookDeliverer(ctx, { onTried: onDeliveryTried });
  const collectionEvery = ctx.config.collectionIntervalMs;
  const reconcileEvery = ctx.config.reconcileIntervalMs;
  const kinds: TJobKind[] = [
    smsJob({ db: ctx.db, sms: ctx.providers.sms, health: ctx.providers.health, clock: ctx.clock }),
    recoveryCodeJob(ctx),
    stopMandateJob(ctx),
    ...payerRightsJobs(ctx),
    {
      name: WEBHOOK_DELIVER_JOB,
      // The engine's retries are for a try that threw or whose process died (a failed delivery
      // is queued again at its own next time): soon, so a dead worker's delivery goes within 30 s.
      retry: { limit: 10, delaySeconds: 5, maxDelaySeconds: 6 * 3_600 },
      expireSeconds: 120,
      run: async (data) => ({
        tried: await deliverer.deliverOne((data as { deliveryId: number }).deliveryId),
      }),
    },
    {
      name: 'webhooks.prune-events',
      retry: PERIODIC_RETRY,
      everyMs: EVENT_PRUNE_MS,
      run: async () => ({ deleted: await pruneMerchantEvents(ctx.db, ctx.clock.now()) }),
    },
    {
      name: 'routing.prune-health',
      retry: PERIODIC_RETRY,
      everyMs: HEALTH_PRUNE_MS,
      run: async () => ({
        deleted: await pruneHealthMinutes(ctx.db, ctx.clock.now(), ctx.config.routing),
      }),
    },
    {
      name: 'collections.expire-consents',
      retry: PERIODIC_RETRY,
      everyMs: collectionEvery,
      run: async () => ({ expired: await expireConsents(ctx) }),
    },
    {
      name: 'collections.notices',
      retry: PERIODIC_RETRY,
      everyMs: collectionEvery,
      run: async () => ({ notified: await scheduleAndNotify(ctx) }),
    },
    {
      name: 'collections.collect',
      retry: PERIODIC_RETRY,
      everyMs: collectionEvery,
      expireSeconds: 900,
      // What fell due while its consent was paused is skipped first, never collected.
      run: async () => ({ skipped: await skipPausedDue(ctx), ...(await collectDue(ctx)) }),
    },
    ...RECONCILE_STEPS.map((step): TJobKind => ({
      name: step.name,
      retry: PERIODIC_RETRY,
      everyMs: reconcileEvery,
      run: () => runReconcileStep(ctx, step),
    })),
  ];
  if (notices) {
    kinds.push({
      name: 'sandbox.notices',
      retry: PERIODIC_RETRY,
      everyMs: notices.everyMs,
      run: async () => ({ sent: await notices.resendOwed() }),
    });
  }
  return kinds;
}

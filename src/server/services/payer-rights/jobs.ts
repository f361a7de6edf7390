import type { TAppContext } from '../../context';
import type { TJobKind } from '../../jobs/engine';
import { ERASURE_JOB, eraseFor } from './erasure';
import { EXPORT_EXPIRY_JOB, EXPORT_JOB, eraseExpiredExports, prepareExport } from './requests';

/** How often copies whose links expired are looked for and erased. */
const EXPIRY_SWEEP_MS = 60 * 60 * 1_000;

/**
 * The payer's requests' background work (docs/jobs.md "Kinds"): a copy prepared, an erasure
 * carried out, each queued with its request; and the hourly sweep of expired copies. A run again
 * after one that committed finds its request done and does nothing.
 */
export function payerRightsJobs(ctx: TAppContext): TJobKind[] {
  const retry = { limit: 10, delaySeconds: 30, maxDelaySeconds: 6 * 3_600 };
  return [
    {
      name: EXPORT_JOB,
      retry,
      expireSeconds: 300,
      run: (data) => prepareExport(ctx, (data as { requestId: string }).requestId),
    },
    {
      name: ERASURE_JOB,
      retry,
      expireSeconds: 300,
      run: (data) => eraseFor(ctx, (data as { requestId: string }).requestId),
    },
    {
      name: EXPORT_EXPIRY_JOB,
      retry: { limit: 3, delaySeconds: 5, maxDelaySeconds: 60 },
      everyMs: EXPIRY_SWEEP_MS,
      run: async () => ({ erased: await eraseExpiredExports(ctx) }),
    },
  ];
}

import { ProviderNotConfigured } from '../../providers/registry';

/*
 * A sweep's row (a payout, a lost attempt, a refund, a card link, a collection) names the provider
 * every later call about it goes to. One naming a provider this server does not run now (its
 * settings were taken away) is an operator's fault that no retry mends, and never a reason to ask
 * another provider: that row is skipped, logged with its provider and counted in the run's
 * answer, and the sweep goes on with the others. It is asked about again at a later run, once the
 * provider runs again. A row that names no provider at all (a saved account's link made before
 * its debit provider was kept, whose rows did not say who) is skipped and counted so too, never
 * sent to the capability's provider today: it waits for an operator to name its provider
 * (docs/operations.md "Links with no debit provider").
 */

/** A row that names no provider for `capability`: none is asked about it. */
export class ProviderNotNamed extends ProviderNotConfigured {
  constructor(capability: ProviderNotConfigured['capability']) {
    super('no provider', capability);
    this.message = `This row names no provider for ${capability}: an operator names it first`;
  }
}

/** What a sweep's step answers for a row it skipped so. */
export const UNROUTED = 'provider_not_run';

/**
 * Runs `work` on the row `rowId`; a row naming a provider this server does not run answers
 * UNROUTED, logged. Any other failure is the caller's to handle.
 */
export async function unlessUnrouted<T>(
  rowId: string,
  work: () => Promise<T>,
): Promise<T | typeof UNROUTED> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ProviderNotConfigured)) throw error;
    console.warn(
      error instanceof ProviderNotNamed
        ? `Skipped ${rowId}: it names no provider for ${error.capability}`
        : `Skipped ${rowId}: it names ${error.provider} for ${error.capability}, which this server does not run now`,
    );
    return UNROUTED;
  }
}

import type { TCapability } from '../../domain/capabilities';
import type { THealthLine, TProviderHealth } from '../providers/routing/provider-health';

/*
 * A provider health for tests (providers/routing/provider-health.ts): one provider of one
 * capability eliminated since a given time, routed after the others as the recorded health
 * routes it, and a snapshot of the lines given. Nothing is recorded.
 */
export function eliminatingHealth(input: {
  capability: TCapability;
  provider: string;
  since: Date;
  reason: string;
  lines: THealthLine[];
}): TProviderHealth & { recorded: number } {
  const health = {
    recorded: 0,
    async record() {
      health.recorded += 1;
    },
    async route(scope: { capability: TCapability }, candidates: readonly string[]) {
      const eliminated =
        scope.capability === input.capability && candidates.includes(input.provider);
      if (!eliminated) return { order: [...candidates], passedOver: [] };
      return {
        order: [...candidates.filter((p) => p !== input.provider), input.provider],
        passedOver: [
          {
            provider: input.provider,
            why: 'eliminated' as const,
            since: input.since,
            reason: input.reason,
          },
        ],
      };
    },
    async snapshot() {
      return input.lines;
    },
  };
  return health;
}

import type { TProviderHealth } from '../providers/routing/provider-health';
import type { TMetrics } from './metrics';

/*
 * The routing of new work, counted (docs/routing.md, docs/operations.md): every decision of the
 * context's provider health is a count of oya_routing_decisions_total by the capability, the
 * provider tried first, and whether an eliminated provider was passed over for it; every
 * elimination is a count of oya_provider_eliminations_total, in the process whose statement moved
 * the provider's state (of processes deciding it at once, one).
 */
export function countedHealth(
  health: TProviderHealth,
  metrics: Pick<TMetrics, 'routingDecisions'>,
): TProviderHealth {
  return {
    ...(health.watchMoves ? { watchMoves: health.watchMoves.bind(health) } : {}),
    record: (outcome) => health.record(outcome),
    async route(scope, candidates) {
      const route = await health.route(scope, candidates);
      const [first] = route.order;
      if (first !== undefined) {
        metrics.routingDecisions.inc({
          capability: scope.capability,
          provider: first,
          passed_over: route.passedOver.length > 0 ? 'yes' : 'no',
        });
      }
      return route;
    },
    snapshot: () => health.snapshot(),
  };
}

/**
 * Counts each elimination `health` wins in oya_provider_eliminations_total, by capability,
 * provider and bank ('all': the provider as a whole). Answers how to stop counting.
 */
export function countEliminations(
  health: TProviderHealth,
  metrics: Pick<TMetrics, 'providerEliminations'>,
): () => void {
  const stop = health.watchMoves?.(({ capability, provider, bank }, move) => {
    if (move !== 'eliminate') return;
    metrics.providerEliminations.inc({ capability, provider, bank: bank === '' ? 'all' : bank });
  });
  return stop ?? (() => {});
}

import type { TProviderHealth } from '../providers/routing/provider-health';
import type { TMetrics } from './metrics';

/*
 * The routing of new work, counted (docs/routing.md, docs/operations.md): every decision of the
 * context's provider health is a count of oya_routing_decisions_total by the capability, the
 * provider tried first, and whether an eliminated provider was passed over for it.
 */
export function countedHealth(
  health: TProviderHealth,
  metrics: Pick<TMetrics, 'routingDecisions'>,
): TProviderHealth {
  return {
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

// A provider health for tests (providers/routing/provider-health.ts): it keeps every outcome
// recorded, and routes a capability in the order a test sets for it, else in its list's order.
import type { TCapability } from '../../domain/capabilities';
import type { TCallOutcome, TProviderHealth } from '../providers/routing/provider-health';

export type TRecordingHealth = TProviderHealth & {
  /** Every outcome recorded, oldest first. */
  readonly recorded: TCallOutcome[];
  /** Routes `capability`'s new work in `order` from now on. */
  routeAs(capability: TCapability, order: readonly string[]): void;
  /** Forgets what was recorded and every order set. */
  reset(): void;
};

export function recordingHealth(): TRecordingHealth {
  const recorded: TCallOutcome[] = [];
  const orders = new Map<TCapability, readonly string[]>();
  return {
    recorded,
    routeAs(capability, order) {
      orders.set(capability, order);
    },
    reset() {
      recorded.length = 0;
      orders.clear();
    },
    record(outcome) {
      recorded.push(outcome);
      return Promise.resolve();
    },
    route(scope, candidates) {
      return Promise.resolve({
        order: [...(orders.get(scope.capability) ?? candidates)],
        passedOver: [],
      });
    },
    snapshot: () => Promise.resolve([]),
  };
}

/** The outcomes recorded for `capability`, as provider and health, oldest first. */
export const outcomesOf = (health: TRecordingHealth, capability: TCapability) =>
  health.recorded
    .filter((outcome) => outcome.capability === capability)
    .map(({ provider, health: said }) => ({ provider, health: said }));

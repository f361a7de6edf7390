import type { TCapability } from '../../../domain/capabilities';
import { ProviderKeyRefused, ProviderNoAnswer } from '../provider-call';
import { registryOf, type TAdapter, type TProviderRegistry } from '../registry';
import type { TCallHealth, TProviderHealth } from './provider-health';

/*
 * Every call to a provider of a routed capability, recorded in its health (docs/routing.md): the
 * ports of each adapter are wrapped here once, where the context is built, so a start, a requery
 * and a later call alike are recorded, whichever service makes them and whichever adapter
 * (the sandbox too) answers. A capability with one provider has nobody to route to: its calls
 * are not recorded.
 *
 * What counts against a provider: no answer (ProviderNoAnswer: a timeout, a broken connection, a
 * 5xx) and a refused key. Anything else the port answers or throws is the provider's answer: a
 * decline, insufficient funds, a refusal of the payer's request.
 */

/** The capabilities whose new work is routed by health. */
export const ROUTED_CAPABILITIES = [
  'cards',
  'transfersIn',
  'payouts',
  'mandates',
  'bvn',
] as const satisfies readonly TCapability[];

type TRouted = (typeof ROUTED_CAPABILITIES)[number];

/** What a failed call says of the provider's health. */
export const healthOfError = (error: unknown): TCallHealth =>
  error instanceof ProviderNoAnswer || error instanceof ProviderKeyRefused ? 'failed' : 'answered';

/**
 * The registry whose routed ports record every call's outcome in `health`; the record of new
 * work is made again from them, its settlement kept as `registry` decorated it.
 */
export function recordedRegistry(
  registry: TProviderRegistry,
  health: Pick<TProviderHealth, 'record'>,
): TProviderRegistry {
  const routed = ROUTED_CAPABILITIES.filter((capability) => registry.lists[capability].length > 1);
  if (routed.length === 0) return registry;
  const adapters = registry.adapters.map((adapter) => {
    const recorded: Record<string, unknown> = { ...adapter };
    for (const capability of routed) {
      const port = adapter[capability];
      if (port) recorded[capability] = recordedPort(port, capability, adapter.name, health);
    }
    return recorded as TAdapter;
  });
  const rebuilt = registryOf(registry.lists, adapters);
  return {
    ...rebuilt,
    payments: { ...rebuilt.payments, settlement: registry.payments.settlement },
  };
}

/**
 * A port whose calls that return a promise (those that ask the provider) record their outcome;
 * what the adapter answers itself, at once (`mandatesBank`), and nested records (a mandate's
 * debits) pass through as they are.
 */
function recordedPort<TPort extends object>(
  port: TPort,
  capability: TRouted,
  provider: string,
  health: Pick<TProviderHealth, 'record'>,
): TPort {
  const wrapped = new WeakMap<object, unknown>();
  // Not waited for: the payer's call never waits on its own record (record never throws).
  const record = (started: number, argument: unknown, error?: unknown) =>
    void health.record({
      capability,
      provider,
      bank: bankOf(argument),
      health: error === undefined ? 'answered' : healthOfError(error),
      latencyMs: Math.round(performance.now() - started),
      noAnswer: error instanceof ProviderNoAnswer,
    });
  const recorded = (call: (...args: unknown[]) => unknown) =>
    function recordedCall(...args: unknown[]): unknown {
      const started = performance.now();
      const answer = call.apply(port, args);
      if (!(answer instanceof Promise)) return answer;
      return answer.then(
        (value: unknown) => {
          record(started, args[0]);
          return value;
        },
        (error: unknown) => {
          record(started, args[0], error ?? new Error('rejected'));
          throw error;
        },
      );
    };
  return new Proxy(port, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      let call = wrapped.get(value);
      if (!call) {
        call = recorded(value as (...args: unknown[]) => unknown);
        wrapped.set(value, call);
      }
      return call;
    },
  });
}

/** The destination bank a call names (a payout's, a mandate's), where the bank matters. */
function bankOf(argument: unknown): string | null {
  if (typeof argument !== 'object' || argument === null) return null;
  const { institutionCode } = argument as { institutionCode?: unknown };
  return typeof institutionCode === 'string' ? institutionCode : null;
}

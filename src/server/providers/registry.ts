import { CAPABILITIES, type TCapability } from '../../domain/capabilities';
import type { TConfig } from '../config';
import type { TProviderLists } from '../provider-lists';
import { AppError } from '../app-error';
import { capabilityName, offPort, usable } from './off';
import { PROVIDERS, settingsOf } from './adapters';
import type { TAdapter, TAdapterDeps, TProviderDescriptor } from './descriptor';
import type {
  TPaymentPorts,
  TPaymentProviders,
  TPayoutsByProvider,
  TSettlementPort,
} from './payments';
import { PROVIDER_CAPABILITIES, type TProviderCapability } from './payments';

/*
 * The adapters by provider name (ARCHITECTURE.md "Two providers per capability"): every provider
 * of the composition table (providers/adapters.ts) whose settings are there is built at
 * start-up, whether or not a capability's list puts it first, so a row a provider took still
 * reaches it after the lists change. New work takes the first of each capability's list
 * (provider-lists.ts); every later call about money (a requery, a refund, a give-back, a notice,
 * a settlement line) asks `portOf(row.provider, capability)`.
 */

export type { TAdapter, TAdapterDeps } from './descriptor';

/** A live key moves real money: no sandbox stands in for what its providers lack. */
export const isLive = (config: Pick<TConfig, 'paystack'>): boolean =>
  config.paystack?.mode === 'live';

/** Every payment adapter of the table whose settings are there, in the table's order. */
function builtAdapters(config: TConfig, deps: TAdapterDeps): TAdapter[] {
  return PROVIDERS.flatMap((listed) => {
    const provider = listed as TProviderDescriptor;
    const settings = settingsOf(config, provider);
    if (!provider.adapter || settings === null) return [];
    const adapter = provider.adapter(settings, deps);
    return adapter?.name === provider.name ? [adapter] : [];
  });
}

/**
 * A row names a provider this server does not run now (its settings were taken away), or one
 * that does not serve what the row needs: an operator's fault, never sent to another provider.
 * A request is answered 409 CAPABILITY_OFF; a job throws and is tried again later.
 */
export class ProviderNotConfigured extends AppError {
  constructor(
    readonly provider: string,
    readonly capability: TCapability,
  ) {
    super(
      'CAPABILITY_OFF',
      `This needs ${capabilityName(capability)} at ${provider}, which this server does not run now`,
    );
  }
}

/** The adapters by name, each capability's ordered list, and the port of new work. */
export type TProviderRegistry = {
  readonly lists: TProviderLists;
  /** Every adapter built, in the order of the factories. */
  readonly adapters: readonly TAdapter[];
  /** The adapter named so; throws ProviderNotConfigured when none runs. */
  byName(name: string, capability: TProviderCapability): TAdapter;
  /** The `capability` port of the adapter a row names; throws ProviderNotConfigured. */
  portOf<TName extends TProviderCapability>(name: string, capability: TName): TPaymentPorts[TName];
  /** New work: the first of each capability's list, or off. */
  readonly payments: TPaymentProviders;
};

/** Builds every configured adapter, then the record of new work from the lists. */
export function buildRegistry(
  config: TConfig,
  deps: Omit<TAdapterDeps, 'payouts' | 'live' | 'sandboxAnswerDelayMs'>,
  decorate: (settlement: TSettlementPort, adapters: readonly TAdapter[]) => TSettlementPort = (
    settlement,
  ) => settlement,
): TProviderRegistry {
  const built: { registry?: TProviderRegistry } = {};
  const builtRegistry = () => {
    if (!built.registry) throw new Error('The registry is not built yet');
    return built.registry;
  };
  const payouts: TPayoutsByProvider = {
    newWork: () => usable(builtRegistry().payments.payouts),
    named: (name) => builtRegistry().portOf(name, 'payouts'),
  };
  const adapters = builtAdapters(config, {
    ...deps,
    payouts,
    live: isLive(config),
    sandboxAnswerDelayMs: config.sandboxAnswerDelayMs,
  });
  const registry = registryOf(config.providerLists, adapters);
  const payments = {
    ...registry.payments,
    settlement: decorate(registry.payments.settlement, registry.adapters),
  };
  built.registry = { ...registry, payments };
  return built.registry;
}

/** The registry over built adapters (a measured copy of them is made the same way). */
export function registryOf(
  lists: TProviderLists,
  adapters: readonly TAdapter[],
): TProviderRegistry {
  const byName = new Map(adapters.map((adapter) => [adapter.name, adapter]));
  const portOf = <TName extends TProviderCapability>(
    name: string,
    capability: TName,
  ): TPaymentPorts[TName] => {
    const port = byName.get(name)?.[capability];
    if (!port) throw new ProviderNotConfigured(name, capability);
    return port as TPaymentPorts[TName];
  };
  const first = <TName extends TProviderCapability>(capability: TName) => {
    const name = lists[capability].find((listed) => byName.get(listed)?.[capability]);
    return name === undefined ? offPort(capability) : portOf(name, capability);
  };
  const newWork = Object.fromEntries(
    PROVIDER_CAPABILITIES.map((capability) => [capability, first(capability)]),
  ) as unknown as TPaymentProviders;
  return {
    lists,
    adapters,
    byName(name, capability) {
      const adapter = byName.get(name);
      if (!adapter) throw new ProviderNotConfigured(name, capability);
      return adapter;
    },
    portOf,
    payments: { ...newWork, settlement: everySettlement(lists, byName) },
  };
}

/**
 * Every settlement report of the settlement list, one after another, each line naming the
 * provider whose record it is: what took money where, balanced provider by provider.
 */
function everySettlement(
  lists: TProviderLists,
  byName: ReadonlyMap<string, TAdapter>,
): TSettlementPort {
  const reports = lists.settlement.flatMap((name) => byName.get(name)?.settlement ?? []);
  return {
    provider: reports[0]?.provider ?? 'off',
    async settlementReport(period) {
      const lines = await Promise.all(
        reports.map(async (report) =>
          (await report.settlementReport(period)).map((line) => ({
            ...line,
            provider: line.provider ?? report.provider,
          })),
        ),
      );
      return lines.flat();
    },
  };
}

/** Each capability's providers as the start, readiness and the dashboard list them. */
export const capabilityProviders = (registry: Pick<TProviderRegistry, 'lists' | 'adapters'>) =>
  CAPABILITIES.map((capability) => ({
    capability,
    providers: registry.lists[capability].filter(
      (name) =>
        capability === 'sms' ||
        registry.adapters.some((adapter) => adapter.name === name && adapter[capability]),
    ),
  }));

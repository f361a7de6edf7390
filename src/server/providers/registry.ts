import { CAPABILITIES, type TCapability } from '../../domain/capabilities';
import type { TClock } from '../clock';
import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import type { TProviderLists } from '../provider-lists';
import type { TSandboxCardNetwork } from '../sandbox/sandbox-card-network';
import type { TSandboxCodeDelivery } from '../sandbox/sandbox-bvn-registry';
import { sandboxPaymentProvider } from '../sandbox/sandbox-provider';
import { AppError } from '../services/app-error';
import { capabilityName, offPort, usable } from './off';
import type { TPaymentPorts, TPaymentProviders, TPayoutsPort, TSettlementPort } from './payments';
import { PROVIDER_CAPABILITIES, type TProviderCapability } from './payments';
import { monoBvnRegistry } from './mono/mono-registry';
import { paystackProvider, paystackTerminalProvider } from './paystack/paystack-provider';
import { remitaProvider } from './remita/remita-provider';
import { monnifyProvider } from './monnify/monnify-provider';

/*
 * The adapters by provider name (ARCHITECTURE.md "Two providers per capability"): every provider
 * whose settings are there is built at start-up, whether or not a capability's list puts it
 * first, so a row a provider took still reaches it after the lists change. New work takes the
 * first of each capability's list (provider-lists.ts); every later call about money (a requery,
 * a refund, a give-back, a notice, a settlement line) asks `portOf(row.provider, capability)`.
 *
 * A new adapter is a folder exporting a factory and one line of ADAPTER_FACTORIES below, plus its
 * name, what it serves and its settings in provider-lists.ts (docs/providers/README.md).
 */

/** One provider's adapter: its name and the ports it serves, each naming it (`provider`). */
export type TAdapter = { readonly name: string } & Partial<TPaymentPorts>;

/** What an adapter may be built from besides the configuration. */
export type TAdapterDeps = {
  db: TDb;
  clock: TClock;
  /** The sandbox card network (its 3-D Secure page and fixtures), shared with its controls. */
  sandboxCards: TSandboxCardNetwork;
  /** Where the sandbox registry's BVN codes go: the server's SMS outbox. */
  deliverBvnCode?: TSandboxCodeDelivery | undefined;
  /** The payouts port of new work, once the registry is built (Remita gives back by payout). */
  payouts: () => TPayoutsPort;
};

/** Builds a provider's adapter; null when its settings are not there. */
export type TAdapterFactory = (config: TConfig, deps: TAdapterDeps) => TAdapter | null;

/** A live key moves real money: no sandbox stands in for what its providers lack. */
export const isLive = (config: Pick<TConfig, 'paystack'>): boolean =>
  config.paystack?.mode === 'live';

/** Every adapter this server can run, by the name the settings and the rows call it. */
export const ADAPTER_FACTORIES: Readonly<Record<string, TAdapterFactory>> = {
  sandbox: (config, deps) =>
    isLive(config)
      ? null
      : {
          name: 'sandbox',
          ...sandboxPaymentProvider({
            cards: deps.sandboxCards,
            db: deps.db,
            clock: deps.clock,
            answerDelayMs: config.sandboxAnswerDelayMs,
            deliverBvnCode: deps.deliverBvnCode,
          }),
        },
  paystack: (config, { db, clock }) =>
    config.paystack && {
      name: 'paystack',
      ...paystackProvider({ ...paystackKey(config.paystack), db, clock }),
    },
  // A terminal's payment is refunded by a refund of the transaction it produced: Paystack's.
  'paystack-terminal': (config, { db, clock }) =>
    config.paystack && {
      name: 'paystack-terminal',
      acquirer: paystackTerminalProvider({ ...paystackKey(config.paystack), db, clock }),
      refunds: paystackProvider({ ...paystackKey(config.paystack), db, clock }).refunds,
    },
  monnify: (config, { db, clock }) => {
    if (!config.monnify) return null;
    const { cards, banks, transfersIn, refunds, payouts, notices, settlement } = monnifyProvider({
      ...config.monnify,
      db,
      clock,
    });
    return {
      name: 'monnify',
      cards,
      banks,
      transfersIn,
      refunds,
      notices,
      settlement,
      ...(payouts ? { payouts } : {}),
    };
  },
  mono: (config) => config.mono && { name: 'mono', bvn: monoBvnRegistry(config.mono) },
  remita: (config, { db, clock, payouts }) =>
    config.remita && {
      name: 'remita',
      mandates: remitaProvider({
        credentials: config.remita,
        db,
        clock,
        payouts: later(payouts),
      }),
    },
};

const paystackKey = (paystack: NonNullable<TConfig['paystack']>) => ({
  secretKey: paystack.secretKey,
  baseUrl: paystack.baseUrl,
});

/** The payouts of new work, asked for at each call (the registry is built after Remita). */
function later(payouts: () => TPayoutsPort): TPayoutsPort {
  return {
    get provider() {
      return payouts().provider;
    },
    payOut: (request) => payouts().payOut(request),
    requeryPayout: (reference) => payouts().requeryPayout(reference),
  };
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
  deps: Omit<TAdapterDeps, 'payouts'>,
  decorate: (settlement: TSettlementPort, payments: TPaymentProviders) => TSettlementPort = (
    settlement,
  ) => settlement,
): TProviderRegistry {
  const built: { payments?: TPaymentProviders } = {};
  const payouts = () => {
    if (!built.payments) throw new Error('The registry is not built yet');
    return usable(built.payments.payouts);
  };
  const adapters = Object.entries(ADAPTER_FACTORIES).flatMap(([name, factory]) => {
    const adapter = factory(config, { ...deps, payouts });
    return adapter?.name === name ? [adapter] : [];
  });
  const registry = registryOf(config.providerLists, adapters);
  const payments = {
    ...registry.payments,
    settlement: decorate(registry.payments.settlement, registry.payments),
  };
  built.payments = payments;
  return { ...registry, payments };
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

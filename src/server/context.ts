import type { TCapability } from '../domain/capabilities';
import { systemClock, type TClock } from './clock';
import type { TConfig } from './config';
import type { TDatabase, TDb } from './db/database';
import type { TEventBus, TEventErrorHandler } from './events/event-bus';
import { databaseEventBus } from './events/database-event-bus';
import type { TPaymentProviders } from './providers/payments';
import { buildRegistry, capabilityProviders, type TProviderRegistry } from './providers/registry';
import type { TCapabilityLine } from './providers/capability-lines';
import { sandboxCardNetwork, type TSandboxCardNetwork } from './sandbox/sandbox-card-network';
import { bvnCodesThroughOutbox } from './sandbox/sandbox-bvn-outbox';
import type { TSandboxCodeDelivery } from './sandbox/sandbox-bvn-registry';
import {
  smsProvidersFor,
  smsProvidersOf,
  type TSmsProviders,
  type TSmsSender,
} from './providers/sms';
import { capabilityName } from './providers/off';
import type { TProviderHealth } from './providers/routing/provider-health';
import { recordedHealth } from './providers/routing/recorded-health';
import { recordedRegistry } from './providers/routing/recorded-ports';
import { withRouteSettings } from './providers/routing/route-settings';
import { systemHostResolver, type THostResolver } from './providers/host-resolver';
import type { TRateLimiters } from './rate-limits';
import type { TJobs } from './jobs/engine';
import { SANDBOX_CARDS } from './sandbox/fixtures';
import { withOwnMandateSettlement } from './services/payments/mandate-debits';

/*
 * The composition root's product (ARCHITECTURE.md "The composition root"): what every route and
 * service works with, built once per app by buildApp. Adapters are chosen here, from the
 * configuration, and a test replaces any of them through buildApp's options.
 */

/** The ports to the outside world. */
export type TProviders = {
  /**
   * One-time codes and notices by SMS: every provider of SMS_PROVIDERS (the sandbox outbox by
   * default), tried for each message in the order `health` gives (jobs/sms-job.ts).
   */
  sms: TSmsProviders;
  /**
   * Money movement for new work, by capability: the first provider of each capability's list
   * (the sandbox network unless PAYMENT_PROVIDER or a list names another).
   */
  payments: TPaymentProviders;
  /**
   * Every configured provider's adapter by name: what every later call about money resolves
   * from the provider its row names (`registry.portOf(row.provider, capability)`).
   */
  registry: TProviderRegistry;
  /**
   * Which provider of a capability's list starts new work, by each provider's recorded health
   * (providers/routing/provider-health.ts); later calls about money never ask it.
   */
  health: TProviderHealth;
  /** Names to addresses, for the webhooks' checks: the operating system's resolver. */
  dns: THostResolver;
};

/**
 * The sandbox network's own controls (answering a 3-D Secure page, reading its fixtures), there
 * only while it is the payment provider: with a real one, none of the sandbox's routes exist.
 */
export type TSandboxControls = { cards: TSandboxCardNetwork };

export type TAppContext = {
  db: TDb;
  config: TConfig;
  clock: TClock;
  providers: TProviders;
  sandbox: TSandboxControls | null;
  events: TEventBus;
  /** What this server can do, capability by capability (CAPABILITIES' order). */
  capabilities: TCapabilityLine[];
  /**
   * The job engine (jobs/engine.ts): the one way to queue background work, on the transaction of
   * the change that calls for it (the outbox).
   */
  jobs: TJobs;
};

/** What route plugins receive: the context and the rate limits their hooks count against. */
export type TRouteContext = TAppContext & { limits: TRateLimiters };

/** Adapters a test (or a deployment) hands in instead of those the configuration chooses. */
export type TAdapterOverrides = {
  clock?: TClock | undefined;
  providers?:
    | {
        /** The one SMS provider, named 'test'. */
        sms?: TSmsSender | undefined;
        dns?: THostResolver | undefined;
        health?: TProviderHealth | undefined;
      }
    | undefined;
  events?: TEventBus | undefined;
};

/**
 * Builds the context. The event bus is the database's (events/database-event-bus.ts): NOTIFY and
 * LISTEN, so every process on one PostgreSQL hears every event; on PGlite, the one process.
 */
export function createAppContext(
  base: {
    database: Pick<TDatabase, 'db' | 'listen'>;
    config: TConfig;
    onEventError: TEventErrorHandler;
    /** The app's job engine, whose kinds may close over the context made here. */
    jobs: TJobs;
  },
  overrides: TAdapterOverrides = {},
): TAppContext {
  const { database, config } = base;
  const { db } = database;
  const clock = overrides.clock ?? systemClock;
  const money = paymentProviderFor(config, db, clock, bvnCodesThroughOutbox(db, base.jobs));
  const sms = smsOf(config, db, overrides.providers?.sms);
  const health =
    overrides.providers?.health ?? recordedHealth({ db, clock, settings: config.routing });
  // Every call of a routed capability records its outcome, whichever service makes it.
  const registry = recordedRegistry(money.registry, health);
  return {
    db,
    config,
    clock,
    providers: {
      sms: sms.providers,
      payments: registry.payments,
      registry,
      // Each merchant's pin and pauses (the dashboard's Routes screen) over the recorded health.
      health: withRouteSettings(health, db),
      dns: overrides.providers?.dns ?? systemHostResolver(),
    },
    sandbox: money.sandbox,
    capabilities: [...money.capabilities, sms.line],
    events: overrides.events ?? databaseEventBus({ database, onError: base.onEventError }),
    jobs: base.jobs,
  };
}

/** The payment capabilities and what serves each: its adapter, or why it is off. */
type TMoney = {
  payments: TPaymentProviders;
  registry: TProviderRegistry;
  sandbox: TSandboxControls | null;
  capabilities: TCapabilityLine[];
};

/**
 * Every configured provider's adapter (providers/registry.ts) and, for new work, the first of
 * each capability's list (provider-lists.ts): what the app and `npm run ledger:check` use. The
 * sandbox's own routes (its 3-D Secure page, /api/sandbox/*) are there while the sandbox takes new
 * money work (cards, transfers, debits, payouts); where it only stands in beside a test key (a
 * BVN registry, mandates, a reader's acquirer) nothing it does needs one. Beside a live key no
 * sandbox is built, and what only it would serve is off (docs/going-live.md).
 */
export function paymentProviderFor(
  config: TConfig,
  db: TDb,
  clock: TClock,
  deliverBvnCode?: TSandboxCodeDelivery,
): TMoney {
  const cards = sandboxCardNetwork({
    db,
    clock,
    cards: SANDBOX_CARDS,
    publicUrl: config.publicUrl,
    timeoutMs: config.sandboxCardTimeoutMs,
  });
  const registry = buildRegistry(
    config,
    { db, clock, sandboxCards: cards, deliverBvnCode },
    (settlement, adapters) => withOwnMandateSettlement(db, settlement, adapters),
  );
  const { payments } = registry;
  const sandboxTakesMoney = SANDBOX_CONTROLLED.some(
    (capability) => payments[capability].provider === 'sandbox',
  );
  return {
    payments,
    registry,
    sandbox: sandboxTakesMoney ? { cards } : null,
    capabilities: capabilityLines(config, registry),
  };
}

/** The capabilities whose sandbox answers need its own pages and controls. */
const SANDBOX_CONTROLLED = ['cards', 'transfersIn', 'debits', 'payouts'] as const;

/** Each payment capability's providers in order, or why it is off. */
function capabilityLines(config: TConfig, registry: TProviderRegistry): TCapabilityLine[] {
  const standsIn = config.paymentProvider !== 'sandbox';
  return capabilityProviders(registry)
    .filter((line) => line.capability !== 'sms')
    .map(({ capability, providers }) => {
      const [first] = providers;
      if (first === undefined) {
        return off(
          capability,
          config.paymentProvider === 'paystack'
            ? `Paystack does not offer ${capabilityName(capability)}`
            : `No provider is configured for ${capabilityName(capability)}`,
        );
      }
      const note =
        standsIn && first === 'sandbox' ? 'stands in beside the test key; no money moves' : null;
      return on(capability, providers, note);
    });
}

const on = (
  capability: TCapability,
  providers: readonly string[],
  note: string | null = null,
): TCapabilityLine => ({
  capability,
  state: 'on',
  adapter: providers[0] ?? '',
  providers: [...providers],
  note,
});

const off = (capability: TCapability, note: string): TCapabilityLine => ({
  capability,
  state: 'off',
  adapter: null,
  providers: [],
  note,
});

/** Why SMS is off beside a live key. */
const SMS_OFF = 'SMS_PROVIDER=sandbox reaches no phone';

/**
 * SMS_PROVIDERS' adapters, or the test's one. The sandbox's outbox reaches no phone: beside a
 * live key SMS is off, and every consent that needs a payer to sign in is refused (a message
 * queued all the same finds no provider: the job dead-letters it at once, where readiness shows
 * it).
 */
function smsOf(
  config: TConfig,
  db: TDb,
  given: TSmsSender | undefined,
): { providers: TSmsProviders; line: TCapabilityLine } {
  if (given) return { providers: smsProvidersOf([['test', given]]), line: on('sms', ['test']) };
  const providers = smsProvidersFor(config, db);
  if (providers.list.length === 0) return { providers, line: off('sms', SMS_OFF) };
  return { providers, line: on('sms', providers.list) };
}

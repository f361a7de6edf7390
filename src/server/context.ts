import { systemClock, type TClock } from './clock';
import type { TConfig } from './config';
import type { TDatabase, TDb } from './db/database';
import type { TEventBus, TEventErrorHandler } from './events/event-bus';
import { databaseEventBus } from './events/database-event-bus';
import {
  PROVIDER_CAPABILITIES,
  type TPaymentProviders,
  type TProviderCapability,
} from './providers/payments';
import {
  PAYSTACK_CAPABILITIES,
  paystackProvider,
  type TPaystackProvider,
} from './providers/paystack/paystack-provider';
import { sandboxCardNetwork, type TSandboxCardNetwork } from './sandbox/sandbox-card-network';
import { sandboxPaymentProvider } from './sandbox/sandbox-provider';
import { smsSenderFor, type TSmsSender } from './providers/sms';
import { systemHostResolver, type THostResolver } from './providers/host-resolver';
import type { TRateLimiters } from './rate-limits';
import type { TJobs } from './jobs/engine';
import { SANDBOX_CARDS } from './sandbox/fixtures';

/*
 * The composition root's product (ARCHITECTURE.md "The composition root"): what every route and
 * service works with, built once per app by buildApp. Adapters are chosen here, from the
 * configuration, and a test replaces any of them through buildApp's options.
 */

/** The ports to the outside world. */
export type TProviders = {
  /** One-time codes by SMS: the sandbox outbox unless SMS_PROVIDER names another. */
  sms: TSmsSender;
  /** Money movement, by capability: the sandbox network unless PAYMENT_PROVIDER names another. */
  payments: TPaymentProviders;
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
  providers?: Partial<Pick<TProviders, 'sms' | 'dns'>> | undefined;
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
  const money = paymentProviderFor(config, db, clock);
  return {
    db,
    config,
    clock,
    providers: {
      sms: overrides.providers?.sms ?? smsSenderFor(config, db),
      payments: money.payments,
      dns: overrides.providers?.dns ?? systemHostResolver(),
    },
    sandbox: money.sandbox,
    events: overrides.events ?? databaseEventBus({ database, onError: base.onEventError }),
    jobs: base.jobs,
  };
}

/**
 * The payment provider PAYMENT_PROVIDER names, and the sandbox's controls while it is the sandbox:
 * what the app and `npm run ledger:check` use.
 *
 * The port is a record of capabilities (PROVIDER_CAPABILITIES), each from one adapter. The sandbox
 * network offers them all. Paystack offers cards, banks, transfers in, debits, payouts, refunds,
 * notices and a settlement report; a BVN registry, the alternate service's and paper mandate
 * setup, and a card terminal's acquirer are not Paystack's. With its test key those come from the
 * sandbox network (no real money moves either way); Paystack's banks are linked by its own
 * direct-debit mandates, so every debit is Paystack's. With a live key the start stops, naming
 * what no adapter offers (docs/providers/paystack.md "Going live").
 */
export function paymentProviderFor(
  config: TConfig,
  db: TDb,
  clock: TClock,
): { payments: TPaymentProviders; sandbox: TSandboxControls | null } {
  const cards = sandboxCardNetwork({
    db,
    clock,
    cards: SANDBOX_CARDS,
    publicUrl: config.publicUrl,
    timeoutMs: config.sandboxCardTimeoutMs,
  });
  const sandbox = sandboxPaymentProvider({
    cards,
    db,
    clock,
    answerDelayMs: config.sandboxAnswerDelayMs,
  });
  if (!config.paystack) return { payments: sandbox, sandbox: { cards } };
  const lacking = missingCapabilities(PAYSTACK_CAPABILITIES);
  if (config.paystack.mode === 'live') {
    throw new Error(
      `PAYMENT_PROVIDER=paystack with a live key: no adapter offers ${lacking.join(', ')} (docs/providers/paystack.md "Going live")`,
    );
  }
  const paystack = paystackProvider({
    secretKey: config.paystack.secretKey,
    baseUrl: config.paystack.baseUrl,
    clock,
  });
  // The sandbox's own routes (its 3-D Secure page, /api/sandbox/*) stay off: nothing the
  // stand-ins do needs one (sandbox: null).
  return { payments: paystackWithStandIns(paystack, sandbox), sandbox: null };
}

/** The capabilities a provider lacks, in the port's order. */
function missingCapabilities(offered: readonly TProviderCapability[]): TProviderCapability[] {
  return PROVIDER_CAPABILITIES.filter((capability) => !offered.includes(capability));
}

/** What comes from the sandbox network beside Paystack with its test key (one line at start). */
export function paystackStandIns(): TProviderCapability[] {
  return missingCapabilities(PAYSTACK_CAPABILITIES);
}

/**
 * Paystack with the sandbox network standing in for what it lacks (paystackStandIns), capability
 * by capability. The settlement report is both records: the terminal's chip purchases are the
 * sandbox acquirer's.
 */
function paystackWithStandIns(
  paystack: TPaystackProvider,
  sandbox: TPaymentProviders,
): TPaymentProviders {
  return {
    cards: paystack.cards,
    banks: paystack.banks,
    bvn: sandbox.bvn,
    mandates: sandbox.mandates,
    debits: paystack.debits,
    payouts: paystack.payouts,
    refunds: paystack.refunds,
    transfersIn: paystack.transfersIn,
    notices: paystack.notices,
    acquirer: sandbox.acquirer,
    settlement: {
      provider: paystack.settlement.provider,
      settlementReport: async () => [
        ...(await paystack.settlement.settlementReport()),
        ...(await sandbox.settlement.settlementReport()),
      ],
    },
  };
}

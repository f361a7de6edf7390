import { CAPABILITIES, type TCapabilitiesOn, type TCapability } from '../domain/capabilities';
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
  paystackTerminalProvider,
  type TPaystackProvider,
} from './providers/paystack/paystack-provider';
import { sandboxCardNetwork, type TSandboxCardNetwork } from './sandbox/sandbox-card-network';
import { sandboxPaymentProvider } from './sandbox/sandbox-provider';
import { bvnCodesThroughOutbox } from './sandbox/sandbox-bvn-outbox';
import { monoBvnRegistry } from './providers/mono/mono-registry';
import type { TSandboxCodeDelivery } from './sandbox/sandbox-bvn-registry';
import { SmsNotSent, smsSenderFor, type TSmsSender } from './providers/sms';
import { capabilityName, offPort, usable } from './providers/off';
import { systemHostResolver, type THostResolver } from './providers/host-resolver';
import type { TRateLimiters } from './rate-limits';
import type { TJobs } from './jobs/engine';
import { SANDBOX_CARDS } from './sandbox/fixtures';
import { remitaProvider } from './providers/remita/remita-provider';
import { withOwnMandateSettlement } from './services/payments/mandate-debits';

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

/**
 * Each capability's adapter, or why it is off (docs/going-live.md): what the start prints a line
 * of, GET /api/health/ready lists, and the consent's creation and read go by.
 */
export type TCapabilityLine =
  | { capability: TCapability; state: 'on'; adapter: string; note: string | null }
  | { capability: TCapability; state: 'off'; adapter: null; note: string };

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
  const money = withBvnRegistry(
    config,
    paymentProviderFor(config, db, clock, bvnCodesThroughOutbox(db, base.jobs)),
  );
  const sms = smsOf(config, db, overrides.providers?.sms);
  return {
    db,
    config,
    clock,
    providers: {
      sms: sms.sender,
      payments: money.payments,
      dns: overrides.providers?.dns ?? systemHostResolver(),
    },
    sandbox: money.sandbox,
    capabilities: [...money.capabilities, sms.line],
    events: overrides.events ?? databaseEventBus({ database, onError: base.onEventError }),
    jobs: base.jobs,
  };
}

/** A live key moves real money: no sandbox stands in for what its providers lack. */
export const isLive = (config: Pick<TConfig, 'paystack'>): boolean =>
  config.paystack?.mode === 'live';

/** The payment capabilities and what serves each: its adapter, or why it is off. */
type TMoney = {
  payments: TPaymentProviders;
  sandbox: TSandboxControls | null;
  capabilities: TCapabilityLine[];
};

/**
 * The payment provider PAYMENT_PROVIDER names, and the sandbox's controls while it is the sandbox:
 * what the app and `npm run ledger:check` use.
 *
 * The port is a record of capabilities (PROVIDER_CAPABILITIES), each from one adapter. The sandbox
 * network offers them all. Paystack offers cards, banks, transfers in, debits, payouts, refunds,
 * notices and a settlement report; a BVN registry, the alternate service's and paper mandate
 * setup, and a card terminal's acquirer are not Paystack's. With its test key those come from the
 * sandbox network (no real money moves either way); Paystack's banks are linked by its own
 * direct-debit mandates, so every debit is Paystack's. With a live key they are off
 * (offCapability), and what needs them is refused (docs/going-live.md).
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
  const sandbox = sandboxPaymentProvider({
    cards,
    db,
    clock,
    answerDelayMs: config.sandboxAnswerDelayMs,
    deliverBvnCode,
  });
  if (!config.paystack) {
    const capabilities = PROVIDER_CAPABILITIES.map((capability) => on(capability, 'sandbox'));
    return withMandateProvider(config, db, clock, {
      payments: sandbox,
      sandbox: { cards },
      capabilities,
    });
  }
  const paystack = paystackProvider({
    secretKey: config.paystack.secretKey,
    baseUrl: config.paystack.baseUrl,
    db,
    clock,
  });
  const live = isLive(config);
  // TERMINAL_PROVIDER=paystack: the chip terminal is Paystack Terminal's, beside either key.
  const terminal =
    config.terminalProvider === 'paystack'
      ? paystackTerminalProvider({
          secretKey: config.paystack.secretKey,
          baseUrl: config.paystack.baseUrl,
          db,
          clock,
        })
      : null;
  const capabilities = PROVIDER_CAPABILITIES.map((capability) =>
    isPaystacks(capability)
      ? on(capability, 'paystack')
      : capability === 'acquirer' && terminal
        ? on(capability, terminal.provider)
        : live
          ? off(capability, `Paystack does not offer ${capabilityName(capability)}`)
          : on(capability, 'sandbox', 'stands in beside the test key; no money moves'),
  );
  // The sandbox's own routes (its 3-D Secure page, /api/sandbox/*) stay off: nothing the
  // stand-ins do needs one (sandbox: null).
  const others = live ? offPorts() : sandbox;
  const payments = paystackWith(paystack, others);
  return withMandateProvider(config, db, clock, {
    payments: terminal ? { ...payments, acquirer: terminal } : payments,
    sandbox: null,
    capabilities,
  });
}

/**
 * MANDATE_PROVIDER=remita: the alternate service's and paper mandates are Remita's, beside any
 * payment provider and either key (docs/providers/remita.md), and the debits on them too. What
 * Remita cannot give back once taken goes back by the payouts capability.
 */
function withMandateProvider(config: TConfig, db: TDb, clock: TClock, money: TMoney): TMoney {
  if (!config.remita) return money;
  const mandates = remitaProvider({
    credentials: config.remita,
    db,
    clock,
    payouts: usable(money.payments.payouts),
  });
  const payments = { ...money.payments, mandates };
  return {
    ...money,
    payments: { ...payments, settlement: withOwnMandateSettlement(db, payments) },
    capabilities: money.capabilities.map((line) =>
      line.capability === 'mandates' ? on('mandates', mandates.provider) : line,
    ),
  };
}

/**
 * BVN_REGISTRY=mono: the BVN registry is Mono Lookup (docs/providers/mono.md), whatever moves the
 * money, beside a live key too: NIBSS sends its code, so no sandbox stands in.
 */
export function withBvnRegistry(config: TConfig, money: TMoney): TMoney {
  if (!config.mono) return money;
  return {
    ...money,
    payments: { ...money.payments, bvn: monoBvnRegistry(config.mono) },
    capabilities: money.capabilities.map((line) =>
      line.capability === 'bvn' ? on('bvn', 'mono') : line,
    ),
  };
}

const on = (capability: TCapability, adapter: string, note: string | null = null) =>
  ({ capability, state: 'on', adapter, note }) as const;

const off = (capability: TCapability, note: string) =>
  ({ capability, state: 'off', adapter: null, note }) as const;

const isPaystacks = (capability: TProviderCapability) =>
  (PAYSTACK_CAPABILITIES as readonly TProviderCapability[]).includes(capability);

/** The capabilities Paystack lacks, off. */
function offPorts(): Pick<TPaymentProviders, 'bvn' | 'mandates' | 'acquirer' | 'settlement'> {
  return {
    bvn: offPort('bvn'),
    mandates: offPort('mandates'),
    acquirer: offPort('acquirer'),
    // The settlement report is Paystack's alone then: nothing else took money.
    settlement: { provider: 'off', settlementReport: async () => [] },
  };
}

/** Why SMS is off beside a live key. */
const SMS_OFF = 'SMS_PROVIDER=sandbox reaches no phone';

/**
 * SMS_PROVIDER's sender, or the test's. The sandbox's outbox reaches no phone: beside a live key
 * SMS is off, and every consent that needs a payer to sign in is refused.
 */
function smsOf(
  config: TConfig,
  db: TDb,
  given: TSmsSender | undefined,
): { sender: TSmsSender; line: TCapabilityLine } {
  if (given) return { sender: given, line: on('sms', 'test') };
  if (config.smsProvider === 'sandbox' && isLive(config)) {
    return {
      // Refused for good, not retried: the job dead-letters at once where readiness shows it
      // (a code, a recovery code and an owner's invitation are refused before one is queued).
      sender: { send: () => Promise.reject(new SmsNotSent(SMS_OFF, false)) },
      line: off('sms', SMS_OFF),
    };
  }
  return { sender: smsSenderFor(config, db), line: on('sms', config.smsProvider) };
}

/** Whether each capability is on: what the consent's creation and read go by. */
export function capabilitiesOn(lines: readonly TCapabilityLine[]): TCapabilitiesOn {
  return Object.fromEntries(
    CAPABILITIES.map((capability) => [
      capability,
      lines.some((line) => line.capability === capability && line.state === 'on'),
    ]),
  ) as TCapabilitiesOn;
}

/**
 * Paystack with `others` for what it lacks, capability by capability: the sandbox network's
 * stand-ins beside a test key, off ports beside a live one. The settlement report is both
 * records: the terminal's chip purchases are the sandbox acquirer's.
 */
function paystackWith(
  paystack: TPaystackProvider,
  sandbox: Pick<TPaymentProviders, 'bvn' | 'mandates' | 'acquirer' | 'settlement'>,
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
      settlementReport: async (period) => [
        ...(await paystack.settlement.settlementReport(period)),
        ...(await sandbox.settlement.settlementReport(period)),
      ],
    },
  };
}

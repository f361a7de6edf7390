import { systemClock, type TClock } from './clock';
import type { TConfig } from './config';
import type { TDatabase, TDb } from './db/database';
import type { TEventBus, TEventErrorHandler } from './events/event-bus';
import { databaseEventBus } from './events/database-event-bus';
import type { TPaymentProvider } from './providers/payments';
import { sandboxCardNetwork, type TSandboxCardNetwork } from './sandbox/sandbox-card-network';
import { sandboxPaymentProvider } from './sandbox/sandbox-provider';
import { smsSenderFor, type TSmsSender } from './providers/sms';
import { systemHostResolver, type THostResolver } from './providers/host-resolver';
import type { TRateLimiters } from './rate-limits';
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
  /** Money movement: the sandbox network unless PAYMENT_PROVIDER names another. */
  payments: TPaymentProvider;
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
};

/** What route plugins receive: the context, and the rate limits their hooks count against. */
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
  };
}

/**
 * The payment provider PAYMENT_PROVIDER names (the sandbox network, whose record lives in `db`),
 * and the sandbox's controls while it is the sandbox: what the app and `npm run ledger:check` use.
 */
export function paymentProviderFor(
  config: TConfig,
  db: TDb,
  clock: TClock,
): { payments: TPaymentProvider; sandbox: TSandboxControls | null } {
  const cards = sandboxCardNetwork({
    db,
    clock,
    cards: SANDBOX_CARDS,
    publicUrl: config.publicUrl,
    timeoutMs: config.sandboxCardTimeoutMs,
  });
  return {
    payments: sandboxPaymentProvider({
      cards,
      db,
      clock,
      answerDelayMs: config.sandboxAnswerDelayMs,
    }),
    sandbox: config.paymentProvider === 'sandbox' ? { cards } : null,
  };
}

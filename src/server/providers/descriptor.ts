import type { z } from 'zod';
import type { TCapability } from '../../domain/capabilities';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import type { TSandboxCardNetwork } from '../sandbox/sandbox-card-network';
import type { TSandboxCodeDelivery } from '../sandbox/sandbox-bvn-registry';
import type { TPaymentPorts, TPayoutsByProvider } from './payments';
import type { TSmsSender } from './sms-port';

/*
 * What a provider's adapter is to the rest of the server (docs/providers/README.md "How to add an
 * adapter"): its name, what it serves, its settings and how its adapter is built, in one value
 * kept in the adapter's own folder (`providers/<name>/descriptor.ts`). The composition table
 * (`providers/adapters.ts`) lists them, one line each; the configuration, the providers' lists
 * and the registry read everything about a provider from there.
 */

/** One provider's adapter: its name and the ports it serves, each naming it (`provider`). */
export type TAdapter = { readonly name: string } & Partial<TPaymentPorts>;

/** What an adapter may be built from besides its settings. */
export type TAdapterDeps = {
  db: TDb;
  clock: TClock;
  /** The sandbox card network (its 3-D Secure page and fixtures), shared with its controls. */
  sandboxCards: TSandboxCardNetwork;
  /** Where the sandbox registry's BVN codes go: the server's SMS outbox. */
  deliverBvnCode?: TSandboxCodeDelivery | undefined;
  /** The payouts ports, once the registry is built (Remita gives back by payout). */
  payouts: TPayoutsByProvider;
  /** Whether a live key moves real money here: then no sandbox stands in. */
  live: boolean;
  /** How long the sandbox waits before answering a call that moves money (SANDBOX_ANSWER_DELAY_MS). */
  sandboxAnswerDelayMs: number;
};

/** The whole environment as the configuration parsed it, for checks across settings. */
export type TParsedEnv = Readonly<Record<string, unknown>>;

/**
 * A provider's settings: the variables (zod, as the rest of the configuration), which of them it
 * cannot work without and which are secrets (never printed: `redactedSettings`), how they become
 * the configuration's `config[key]` (null when they are not there), and the checks that stop a
 * start with one clear line.
 */
export type TProviderSettings<TKey extends string, TShape extends z.ZodRawShape, TValue> = {
  /** Where the parsed settings sit in the configuration (`config.monnify`). */
  readonly key: TKey;
  readonly env: TShape;
  /** The variables the provider cannot work without; a list naming it is checked against them. */
  readonly required: readonly (keyof TShape & string)[];
  /** The variables that are credentials. */
  readonly secrets: readonly (keyof TShape & string)[];
  /** The settings, or null when they are not there; throws one line when they are half there. */
  read(env: z.infer<z.ZodObject<TShape>> & TParsedEnv): TValue | null;
  /** Checks against the providers' lists; throws one line naming the setting. */
  check?(
    env: z.infer<z.ZodObject<TShape>> & TParsedEnv,
    lists: Readonly<Record<TCapability, readonly string[]>>,
  ): void;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any provider's settings
export type TAnySettings = TProviderSettings<string, any, any>;

/** The parsed settings a settings block gives its adapter. */
export type TSettingsValue<TSettings> =
  TSettings extends TProviderSettings<string, infer _TShape, infer TValue> ? TValue : undefined;

/** A provider: name, what it serves, its settings and its adapter. */
export type TProviderDescriptor<TSettings extends TAnySettings | null = TAnySettings | null> = {
  /** The name the settings, the lists and the rows call it. */
  readonly name: string;
  readonly serves: readonly TCapability[];
  /** Its settings; another provider's where it runs on them (Paystack Terminal on Paystack's). */
  readonly settings: TSettings;
  /** Builds the payment adapter from its settings; null when it has none to offer here. */
  adapter?(settings: TSettingsValue<TSettings>, deps: TAdapterDeps): TAdapter | null;
  /** Builds the SMS adapter from its settings (a provider serving `sms`). */
  sms?(settings: TSettingsValue<TSettings>, deps: { db: TDb }): TSmsSender;
  /**
   * The provider whose settlement report holds the money this adapter took, where it is
   * another's (a Paystack Terminal request's transaction is in Paystack's).
   */
  readonly settledIn?: string;
};

/** A settings block, its types kept (the configuration's type is made from them). */
export const providerSettings = <TKey extends string, TShape extends z.ZodRawShape, TValue>(
  settings: TProviderSettings<TKey, TShape, TValue>,
) => settings;

/** A descriptor, its adapter's settings typed by its settings block. */
export const defineProvider = <TSettings extends TAnySettings | null>(
  descriptor: TProviderDescriptor<TSettings>,
) => descriptor;

/** A base URL as the adapters join paths to it. */
export const baseUrlOf = (url: string) => url.replace(/\/+$/, '');

/** One clear line that stops the start. */
export function invalidConfiguration(why: string): never {
  throw new Error(`Invalid configuration: ${why}`);
}

import { SANDBOX } from '../sandbox/descriptor';
import { AFRICASTALKING } from './africastalking/descriptor';
import type { TAnySettings, TProviderDescriptor, TSettingsValue } from './descriptor';
import { MONNIFY } from './monnify/descriptor';
import { MONO } from './mono/descriptor';
import { PAYSTACK } from './paystack/descriptor';
import { PAYSTACK_TERMINAL } from './paystack/terminal-descriptor';
import { REMITA } from './remita/descriptor';
import { TERMII } from './termii/descriptor';

/*
 * The composition table: every provider this server can run, one line each (its descriptor, in
 * its own folder: docs/providers/README.md "How to add an adapter"). The configuration reads
 * their settings from it, the providers' lists what each serves and needs, the registry how each
 * adapter is built; the order is the order adapters are built and listed in.
 */
export const PROVIDERS = [
  SANDBOX,
  PAYSTACK,
  PAYSTACK_TERMINAL,
  MONNIFY,
  MONO,
  REMITA,
  TERMII,
  AFRICASTALKING,
] as const;

type TListed = (typeof PROVIDERS)[number];

/** The settings blocks of the table, each once (Paystack Terminal runs on Paystack's). */
export const SETTINGS_BLOCKS: readonly TAnySettings[] = [
  ...new Set(
    PROVIDERS.flatMap((provider): TAnySettings[] => (provider.settings ? [provider.settings] : [])),
  ),
];

/** The configuration's part the providers' settings make: `config.<key>`, null when not there. */
export type TProvidersConfig = {
  [
    TProvider in TListed as TProvider['settings'] extends { key: infer TKey extends string }
      ? TKey
      : never
  ]: TSettingsValue<TProvider['settings']> | null;
};

/** The descriptor named so, if the table has one. */
export const providerNamed = (name: string): TProviderDescriptor | undefined =>
  PROVIDERS.find((provider) => provider.name === name);

/**
 * A provider's settings in the configuration: null when they are not there, undefined for a
 * provider that has none (the sandbox).
 */
export function settingsOf(config: TProvidersConfig, provider: TProviderDescriptor): unknown {
  if (!provider.settings) return undefined;
  return (config as Readonly<Record<string, unknown>>)[provider.settings.key] ?? null;
}

/** Every provider's settings that are credentials: the log censors them wherever they appear. */
export const SECRET_SETTINGS: readonly string[] = SETTINGS_BLOCKS.flatMap(
  (settings) => settings.secrets,
);

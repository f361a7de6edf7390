import type { TCapability } from '../domain/capabilities';
import { PROVIDERS } from './providers/adapters';

/*
 * Which providers serve each capability, in order (docs/going-live.md "Providers by capability"):
 * the first takes new work and the rest stand by, unless the providers' recorded health routes
 * new work past the first (docs/routing.md). Read once at
 * start-up from the environment; a list naming a provider whose settings are missing, or one that
 * does not serve the capability, stops the start with one clear line.
 *
 *   capability   setting (ordered, comma-separated)   without it
 *   cards        CARD_PROVIDERS                       PAYMENT_PROVIDER
 *   transfersIn  TRANSFER_PROVIDERS                   PAYMENT_PROVIDER
 *   payouts      PAYOUT_PROVIDERS                     PAYMENT_PROVIDER
 *   mandates     MANDATE_PROVIDERS                    MANDATE_PROVIDER (one name), else sandbox
 *   bvn          BVN_REGISTRIES                       BVN_REGISTRY (one name), else sandbox
 *   sms          SMS_PROVIDERS                        SMS_PROVIDER (one name), else sandbox
 *   acquirer     TERMINAL_PROVIDER (one name)         sandbox
 *   debits       PAYMENT_PROVIDER: a debit goes to the provider of its link's mandate
 *   banks        the payouts list: name enquiry asks the bank a payout would go to
 *   refunds      the cards list, then the transfers list (a refund itself goes by its payment)
 *   notices      every configured provider that sends notices, PAYMENT_PROVIDER's first
 *   settlement   every configured provider that holds money, PAYMENT_PROVIDER's first
 *
 * A provider is configured when its settings are there: the sandbox unless a live key is (a
 * live key moves real money, and no sandbox stands in beside it: a list the defaults gave that
 * names only the sandbox leaves its capability off then; one written out is refused).
 */

/** What each provider serves, by the name the settings call it (providers/adapters.ts). */
export const PROVIDER_SERVES: Readonly<Record<string, readonly TCapability[]>> = Object.fromEntries(
  PROVIDERS.map((provider) => [provider.name, provider.serves]),
);

/**
 * The provider whose settlement report holds the money an adapter took, where that is another
 * adapter's (a Paystack Terminal request's transaction is in Paystack's): what `npm run
 * ledger:check` matches that adapter's rows with.
 */
export const SETTLED_IN: Readonly<Record<string, string>> = Object.fromEntries(
  PROVIDERS.flatMap((provider) =>
    'settledIn' in provider && provider.settledIn ? [[provider.name, provider.settledIn]] : [],
  ),
);

/** The settings a provider cannot work without; the sandbox needs none. */
export const PROVIDER_SETTINGS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  PROVIDERS.map((provider) => [provider.name, provider.settings?.required ?? []]),
);

/** Each capability's providers, in order: the first serves new work. */
export type TProviderLists = Readonly<Record<TCapability, readonly string[]>>;

type TEnv = Readonly<Record<string, string | undefined>>;

/** The list settings, the capability each orders, and what stands in without it. */
const LIST_SETTINGS = [
  { setting: 'CARD_PROVIDERS', capability: 'cards', older: 'PAYMENT_PROVIDER' },
  { setting: 'TRANSFER_PROVIDERS', capability: 'transfersIn', older: 'PAYMENT_PROVIDER' },
  { setting: 'PAYOUT_PROVIDERS', capability: 'payouts', older: 'PAYMENT_PROVIDER' },
  { setting: 'MANDATE_PROVIDERS', capability: 'mandates', older: 'MANDATE_PROVIDER' },
  { setting: 'BVN_REGISTRIES', capability: 'bvn', older: 'BVN_REGISTRY' },
  { setting: 'SMS_PROVIDERS', capability: 'sms', older: 'SMS_PROVIDER' },
] as const;

/** The names the list settings are, for the configuration's schema. */
export const LIST_SETTING_NAMES = LIST_SETTINGS.map((list) => list.setting);

/** Whether a live key is set: then no sandbox stands in anywhere. */
const liveKey = (env: TEnv) => env.PAYSTACK_SECRET_KEY?.startsWith('sk_live_') === true;

/** Whether `name`'s settings are there (the sandbox: no live key). */
export function isConfigured(env: TEnv, name: string): boolean {
  if (name === 'sandbox') return !liveKey(env);
  const settings = PROVIDER_SETTINGS[name];
  return settings !== undefined && settings.every((setting) => Boolean(env[setting]));
}

/** The configured providers, PAYMENT_PROVIDER's first. */
export function configuredProviders(env: TEnv): string[] {
  const first = env.PAYMENT_PROVIDER ?? 'sandbox';
  const names = [first, ...Object.keys(PROVIDER_SERVES).filter((name) => name !== first)];
  return names.filter((name) => isConfigured(env, name));
}

/** Reads the lists; throws one line naming the setting and what is wrong with it. */
export function providerLists(env: TEnv): TProviderLists {
  const lists = {} as Record<TCapability, string[]>;
  for (const { setting, capability, older } of LIST_SETTINGS) {
    const written = env[setting];
    if (written !== undefined) {
      lists[capability] = checkedList(env, setting, capability, written);
      continue;
    }
    // The older single name, or the sandbox: left off beside a live key rather than refused.
    const name = env[older] ?? 'sandbox';
    lists[capability] = isConfigured(env, name) ? [name] : [];
  }
  lists.banks = lists.payouts;
  lists.debits = lists.cards.length > 0 || lists.transfersIn.length > 0 ? debitsList(env) : [];
  lists.refunds = [...new Set([...lists.cards, ...lists.transfersIn])].filter((name) =>
    PROVIDER_SERVES[name]?.includes('refunds'),
  );
  const terminal = env.TERMINAL_PROVIDER === 'paystack' ? 'paystack-terminal' : 'sandbox';
  lists.acquirer = isConfigured(env, terminal) ? [terminal] : [];
  const configured = configuredProviders(env);
  for (const capability of ['notices', 'settlement'] as const) {
    lists[capability] = configured.filter((name) => PROVIDER_SERVES[name]?.includes(capability));
  }
  return lists;
}

/** Debits go to PAYMENT_PROVIDER's adapter, whose mandates the banks link by. */
function debitsList(env: TEnv): string[] {
  const name = env.PAYMENT_PROVIDER ?? 'sandbox';
  return isConfigured(env, name) ? [name] : [];
}

/** A written list, each name known, configured and serving the capability, none twice. */
function checkedList(
  env: TEnv,
  setting: string,
  capability: TCapability,
  written: string,
): string[] {
  const names = written
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const refuse = (why: string) => {
    throw new Error(`Invalid configuration: ${setting} ${why}`);
  };
  if (names.length === 0) refuse('names no provider');
  if (new Set(names).size !== names.length) refuse('names a provider twice');
  for (const name of names) {
    const serves = PROVIDER_SERVES[name];
    if (!serves) refuse(`names ${name}, which is not a provider this server knows`);
    else if (!serves.includes(capability)) {
      refuse(`names ${name}, which does not serve ${capability}`);
    } else if (!isConfigured(env, name)) {
      refuse(
        name === 'sandbox'
          ? 'names the sandbox beside a live key: no sandbox stands in for real money'
          : `names ${name}, whose settings are missing: ${PROVIDER_SETTINGS[name]?.join(', ')}`,
      );
    }
  }
  return names;
}

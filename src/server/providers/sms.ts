import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import type { TSmsProviders, TSmsSender } from './sms-port';
import { providerNamed, settingsOf } from './adapters';

// The port is declared in sms-port.ts, which the adapters chosen here import; its users take it
// from here, beside the choice of adapter.
export { SmsNotSent, type TSmsProviders, type TSmsSender } from './sms-port';
export { sandboxSmsSender } from '../sandbox/sandbox-sms';

/** Every provider of SMS_PROVIDERS (or SMS_PROVIDER), each built once, when the app is. */
export function smsProvidersFor(config: TConfig, db: TDb): TSmsProviders {
  return smsProvidersOf(
    config.providerLists.sms.map((name) => [name, smsSenderNamed(name, config, db)] as const),
  );
}

/** The SMS providers over adapters already built, in the order given. */
export function smsProvidersOf(senders: readonly (readonly [string, TSmsSender])[]): TSmsProviders {
  const byName = new Map(senders);
  return {
    list: senders.map(([name]) => name),
    senderOf(name) {
      const sender = byName.get(name);
      if (!sender) throw new Error(`No SMS adapter is named ${name}`);
      return sender;
    },
  };
}

/** The adapter of one provider of the SMS list (loadConfig refuses a list it could not build). */
function smsSenderNamed(name: string, config: TConfig, db: TDb): TSmsSender {
  const descriptor = providerNamed(name);
  if (!descriptor?.sms) throw new Error(`No SMS adapter is named ${name}`);
  const settings = settingsOf(config, descriptor);
  if (settings === null) throw new Error(`SMS_PROVIDERS names ${name} without its configuration`);
  return descriptor.sms(settings, { db });
}

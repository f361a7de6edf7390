import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import { smsOutbox } from '../db/schema';
import { sandboxSmsLabel, smsSeal } from '../services/identity/sms-seal';
import { SANDBOX_UNREACHABLE_PHONE } from '../sandbox/fixtures';
import { SmsNotSent, type TSmsProviders, type TSmsSender } from './sms-port';
import { africasTalkingSmsSender } from './africastalking/africastalking-sender';
import { termiiSmsSender } from './termii/termii-sender';

// The port is declared in sms-port.ts, which the adapters chosen here import; its users take it
// from here, beside the choice of adapter.
export { SmsNotSent, type TSmsProviders, type TSmsSender } from './sms-port';

/**
 * The sandbox provider: nothing is delivered; every message lands in the outbox that
 * /sandbox/messages lists, so a person or a test can read the code. It is kept sealed to its
 * number, as the queue keeps it: a copy of the database reads no code there. One number it
 * refuses for good (SANDBOX_UNREACHABLE_PHONE), as a provider refuses one it cannot reach.
 */
export function sandboxSmsSender(db: TDb): TSmsSender {
  return {
    async send(phoneNumber, body) {
      if (phoneNumber === SANDBOX_UNREACHABLE_PHONE) {
        throw new SmsNotSent('The sandbox does not reach this number', false, 'number');
      }
      const seal = await smsSeal(db);
      await db
        .insert(smsOutbox)
        .values({ phoneNumber, sealedBody: seal.seal(body, sandboxSmsLabel(phoneNumber)) });
    },
  };
}

/** Every provider of SMS_PROVIDERS (or SMS_PROVIDER), each built once, when the app is. */
export function smsProvidersFor(
  config: Pick<TConfig, 'providerLists' | 'termii' | 'africastalking'>,
  db: TDb,
): TSmsProviders {
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

/** The adapter of one provider of the SMS list. */
function smsSenderNamed(
  name: string,
  config: Pick<TConfig, 'termii' | 'africastalking'>,
  db: TDb,
): TSmsSender {
  switch (name) {
    case 'sandbox':
      return sandboxSmsSender(db);
    case 'termii':
      // loadConfig refuses a list naming termii without its settings.
      if (!config.termii) throw new Error('SMS_PROVIDERS names termii without its configuration');
      return termiiSmsSender(config.termii);
    case 'africastalking':
      // loadConfig refuses a list naming africastalking without its settings.
      if (!config.africastalking) {
        throw new Error('SMS_PROVIDERS names africastalking without its configuration');
      }
      return africasTalkingSmsSender(config.africastalking);
    default:
      // loadConfig refuses a name that sends no SMS.
      throw new Error(`No SMS adapter is named ${name}`);
  }
}

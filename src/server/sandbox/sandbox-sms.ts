import type { TDb } from '../db/database';
import { smsOutbox } from '../db/schema';
import { sandboxSmsLabel, smsSeal } from '../crypto/sms-seal';
import { SANDBOX_UNREACHABLE_PHONE } from './fixtures';
import { SmsNotSent, type TSmsSender } from '../providers/sms-port';

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

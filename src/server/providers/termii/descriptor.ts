import { z } from 'zod';
import { baseUrlOf, defineProvider, invalidConfiguration, providerSettings } from '../descriptor';
import { termiiSmsSender } from './termii-sender';

const KEYS = ['TERMII_API_KEY', 'TERMII_SENDER_ID'] as const;

/** Termii (docs/providers/termii.md): its key, the sender ID registered with it, its API. */
export const TERMII_SETTINGS = providerSettings({
  key: 'termii',
  env: {
    /** Termii's API key, from its dashboard; sent in the body of each call, never logged. */
    TERMII_API_KEY: z.string().optional(),
    /** The sender ID registered with Termii (3 to 11 characters): what the payer's phone shows. */
    TERMII_SENDER_ID: z
      .string()
      .min(3, 'must be the sender ID registered with Termii: 3 to 11 characters')
      .max(11, 'must be the sender ID registered with Termii: 3 to 11 characters')
      .optional(),
    /** Termii's API: the address its dashboard names for the account, or a simulator of it. */
    TERMII_BASE_URL: z.url().default('https://api.ng.termii.com'),
  },
  required: [...KEYS],
  secrets: ['TERMII_API_KEY'],
  read: (env) =>
    env.TERMII_API_KEY && env.TERMII_SENDER_ID
      ? {
          apiKey: env.TERMII_API_KEY,
          senderId: env.TERMII_SENDER_ID,
          baseUrl: baseUrlOf(env.TERMII_BASE_URL),
        }
      : null,
  check(env) {
    for (const name of KEYS) {
      if (env.SMS_PROVIDER === 'termii' && !env[name]) {
        invalidConfiguration(`${name} is required with SMS_PROVIDER=termii`);
      }
    }
  },
});

/** Termii: SMS. */
export const TERMII = defineProvider({
  name: 'termii',
  serves: ['sms'],
  settings: TERMII_SETTINGS,
  sms: (settings) => termiiSmsSender(settings),
});

import { z } from 'zod';
import { baseUrlOf, defineProvider, invalidConfiguration, providerSettings } from '../descriptor';
import { remitaProvider } from './remita-provider';

const KEYS = [
  'REMITA_MERCHANT_ID',
  'REMITA_SERVICE_TYPE_ID',
  'REMITA_API_KEY',
  'REMITA_API_TOKEN',
] as const;

/** Remita Direct Debit (docs/providers/remita.md): its biller, service type, key, token, host. */
export const REMITA_SETTINGS = providerSettings({
  key: 'remita',
  env: {
    /** Remita's merchant (biller) id. */
    REMITA_MERCHANT_ID: z.string().optional(),
    /** The Remita service type the debits are collected under. */
    REMITA_SERVICE_TYPE_ID: z.string().optional(),
    /** Remita's API key: it ends every request hash; never logged. */
    REMITA_API_KEY: z.string().optional(),
    /** Remita's API token, hashed into the OTP activation calls; never logged. */
    REMITA_API_TOKEN: z.string().optional(),
    /** Remita's host: its live one, its demo one (https://remitademo.net) or a simulator of it. */
    REMITA_BASE_URL: z.url().default('https://login.remita.net'),
  },
  required: [...KEYS],
  secrets: ['REMITA_API_KEY', 'REMITA_API_TOKEN'],
  read: (env) =>
    env.REMITA_MERCHANT_ID &&
    env.REMITA_SERVICE_TYPE_ID &&
    env.REMITA_API_KEY &&
    env.REMITA_API_TOKEN
      ? {
          merchantId: env.REMITA_MERCHANT_ID,
          serviceTypeId: env.REMITA_SERVICE_TYPE_ID,
          apiKey: env.REMITA_API_KEY,
          apiToken: env.REMITA_API_TOKEN,
          baseUrl: baseUrlOf(env.REMITA_BASE_URL),
        }
      : null,
  check(env) {
    for (const name of KEYS) {
      if (env.MANDATE_PROVIDER === 'remita' && !env[name]) {
        invalidConfiguration(`${name} is required with MANDATE_PROVIDER=remita`);
      }
    }
  },
});

/** Remita: the alternate e-mandate service and paper mandates, and debits on its own mandates. */
export const REMITA = defineProvider({
  name: 'remita',
  serves: ['mandates'],
  settings: REMITA_SETTINGS,
  adapter: (credentials, { db, clock, payouts }) => ({
    name: 'remita',
    mandates: remitaProvider({ credentials, db, clock, payouts }),
  }),
});

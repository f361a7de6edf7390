import { z } from 'zod';
import { baseUrlOf, defineProvider, invalidConfiguration, providerSettings } from '../descriptor';
import { PAYSTACK_CAPABILITIES, paystackProvider } from './paystack-provider';

/** Paystack's key (its test mode's or its live one's, docs/providers/paystack.md) and API. */
export const PAYSTACK_SETTINGS = providerSettings({
  key: 'paystack',
  env: {
    /** Paystack's secret key: its test mode's or its live one's. */
    PAYSTACK_SECRET_KEY: z
      .string()
      .regex(/^sk_(test|live)_\S+$/, 'must be a Paystack secret key, sk_test_… or sk_live_…')
      .optional(),
    /** Paystack's API; another address only for a simulator of it. */
    PAYSTACK_BASE_URL: z.url().default('https://api.paystack.co'),
    /**
     * The pauses, in ms and comma-separated, after which a charge, debit or payout Paystack
     * answered 'pending' is asked about again before it is left to the reconciler (Paystack asks
     * for 10 s or more); shorter only against a simulator of it.
     */
    PAYSTACK_PENDING_CHECKS_MS: z
      .string()
      .regex(/^\d{1,6}(,\d{1,6})*$/, 'must be pauses in ms, comma-separated, e.g. 10000,20000')
      .default('10000,20000')
      .transform((pauses) => pauses.split(',').map(Number)),
  },
  required: ['PAYSTACK_SECRET_KEY'],
  secrets: ['PAYSTACK_SECRET_KEY'],
  read: (env) =>
    env.PAYSTACK_SECRET_KEY
      ? {
          secretKey: env.PAYSTACK_SECRET_KEY,
          mode: env.PAYSTACK_SECRET_KEY.startsWith('sk_live_')
            ? ('live' as const)
            : ('test' as const),
          baseUrl: baseUrlOf(env.PAYSTACK_BASE_URL),
          pendingCheckDelaysMs: env.PAYSTACK_PENDING_CHECKS_MS,
        }
      : null,
  check(env) {
    for (const setting of ['PAYMENT_PROVIDER', 'TERMINAL_PROVIDER']) {
      if (env[setting] === 'paystack' && !env.PAYSTACK_SECRET_KEY) {
        invalidConfiguration(`PAYSTACK_SECRET_KEY is required with ${setting}=paystack`);
      }
    }
  },
});

export const paystackKey = ({ secretKey, baseUrl }: { secretKey: string; baseUrl: string }) => ({
  secretKey,
  baseUrl,
});

/** Paystack (docs/providers/paystack.md): money in and out, debits of its authorisations. */
export const PAYSTACK = defineProvider({
  name: 'paystack',
  serves: PAYSTACK_CAPABILITIES,
  settings: PAYSTACK_SETTINGS,
  adapter: (settings, { db, clock }) => ({
    name: 'paystack',
    ...paystackProvider({
      ...paystackKey(settings),
      pendingCheckDelaysMs: settings.pendingCheckDelaysMs,
      db,
      clock,
    }),
  }),
});

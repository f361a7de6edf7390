import { z } from 'zod';
import { baseUrlOf, defineProvider, invalidConfiguration, providerSettings } from '../descriptor';
import { MONNIFY_CAPABILITIES, monnifyProvider } from './monnify-provider';

const KEYS = ['MONNIFY_API_KEY', 'MONNIFY_SECRET_KEY', 'MONNIFY_CONTRACT_CODE'] as const;

/**
 * Monnify (docs/providers/monnify.md): its API key, client secret (which also signs its notices)
 * and contract code, all three or none; its host (the live one by default; its sandbox is
 * https://sandbox.monnify.com); and the wallet payouts are sent from, without which Monnify
 * offers no payouts.
 */
export const MONNIFY_SETTINGS = providerSettings({
  key: 'monnify',
  env: {
    MONNIFY_API_KEY: z
      .string()
      .regex(/^MK_(TEST|PROD)_\S+$/, 'must be a Monnify API key, MK_TEST_… or MK_PROD_…')
      .optional(),
    MONNIFY_SECRET_KEY: z.string().min(16, 'must be the Monnify client secret').optional(),
    MONNIFY_CONTRACT_CODE: z
      .string()
      .regex(/^\d+$/, 'must be the digits of a Monnify contract code')
      .optional(),
    MONNIFY_BASE_URL: z.url().default('https://api.monnify.com'),
    MONNIFY_WALLET_ACCOUNT_NUMBER: z
      .string()
      .regex(/^\d{10}$/, 'must be a 10-digit account number')
      .optional(),
  },
  required: [...KEYS],
  secrets: ['MONNIFY_API_KEY', 'MONNIFY_SECRET_KEY'],
  read(env) {
    const given = KEYS.filter((name) => env[name]);
    if (given.length === 0) return null;
    if (!env.MONNIFY_API_KEY || !env.MONNIFY_SECRET_KEY || !env.MONNIFY_CONTRACT_CODE) {
      const missing = KEYS.filter((name) => !env[name]).join(', ');
      return invalidConfiguration(
        `Monnify needs MONNIFY_API_KEY, MONNIFY_SECRET_KEY and MONNIFY_CONTRACT_CODE together; missing ${missing}`,
      );
    }
    return {
      apiKey: env.MONNIFY_API_KEY,
      secretKey: env.MONNIFY_SECRET_KEY,
      contractCode: env.MONNIFY_CONTRACT_CODE,
      mode: env.MONNIFY_API_KEY.startsWith('MK_PROD_') ? ('live' as const) : ('test' as const),
      baseUrl: baseUrlOf(env.MONNIFY_BASE_URL),
      walletAccountNumber: env.MONNIFY_WALLET_ACCOUNT_NUMBER ?? null,
    };
  },
  check(env, lists) {
    if (lists.payouts.includes('monnify') && !env.MONNIFY_WALLET_ACCOUNT_NUMBER) {
      invalidConfiguration(
        'MONNIFY_WALLET_ACCOUNT_NUMBER is required when Monnify sends payouts (PAYOUT_PROVIDERS)',
      );
    }
  },
});

/** Monnify: cards, one-time accounts, refunds, payouts from its wallet, banks, settlement. */
export const MONNIFY = defineProvider({
  name: 'monnify',
  serves: MONNIFY_CAPABILITIES,
  settings: MONNIFY_SETTINGS,
  adapter(settings, { db, clock }) {
    const { cards, banks, transfersIn, refunds, payouts, notices, settlement } = monnifyProvider({
      ...settings,
      db,
      clock,
    });
    return {
      name: 'monnify',
      cards,
      banks,
      transfersIn,
      refunds,
      notices,
      settlement,
      ...(payouts ? { payouts } : {}),
    };
  },
});

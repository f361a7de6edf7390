import { z } from 'zod';
import { baseUrlOf, defineProvider, invalidConfiguration, providerSettings } from '../descriptor';
import { monoBvnRegistry } from './mono-registry';

/** Mono Lookup (docs/providers/mono.md): its secret key (its dashboard's Lookup app) and API. */
export const MONO_SETTINGS = providerSettings({
  key: 'mono',
  env: {
    /** Mono's secret key: sent as `mono-sec-key`, never logged. */
    MONO_SECRET_KEY: z.string().optional(),
    /** Mono's API, or a simulator of it. */
    MONO_BASE_URL: z.url().default('https://api.withmono.com'),
  },
  required: ['MONO_SECRET_KEY'],
  secrets: ['MONO_SECRET_KEY'],
  read: (env) =>
    env.MONO_SECRET_KEY
      ? { secretKey: env.MONO_SECRET_KEY, baseUrl: baseUrlOf(env.MONO_BASE_URL) }
      : null,
  check(env) {
    if (env.BVN_REGISTRY === 'mono' && !env.MONO_SECRET_KEY) {
      invalidConfiguration('MONO_SECRET_KEY is required with BVN_REGISTRY=mono');
    }
  },
});

/** Mono Lookup: a BVN registry (NIBSS's iGree, and whose BVN an account is held under). */
export const MONO = defineProvider({
  name: 'mono',
  serves: ['bvn'],
  settings: MONO_SETTINGS,
  adapter: (settings) => ({ name: 'mono', bvn: monoBvnRegistry(settings) }),
});

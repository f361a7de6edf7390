// A server with Paystack's live key and BVN_REGISTRY=mono (both on their simulators): the BVN
// registry is on, served by Mono, and a payer's BVN is proven by NIBSS's code through it, the
// page told that NIBSS sends it (docs/going-live.md, docs/providers/mono.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import type { TDatabase } from '../../db/database';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import {
  startMonoSimulator,
  type TMonoSimulator,
} from '../../testing/mono-simulator/mono-simulator';
import { openTestDatabase, RELAXED_RATE_LIMITS, testConfig } from '../../testing/test-app';
import { testHostResolver } from '../../testing/host-resolver';
import { paymentProviderFor } from '../../context';
import { systemClock } from '../../clock';

const LIVE_KEY = 'sk_live_simulated0000000000000000';

let paystack: TPaystackSimulator;
let mono: TMonoSimulator;
let database: TDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: LIVE_KEY });
  mono = await startMonoSimulator();
  database = await openTestDatabase();
  app = await buildApp({
    config: testConfig({
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: LIVE_KEY,
      PAYSTACK_BASE_URL: paystack.url,
      BVN_REGISTRY: 'mono',
      MONO_SECRET_KEY: mono.secretKey,
      MONO_BASE_URL: mono.url,
    }),
    database,
    logger: false,
    rateLimits: RELAXED_RATE_LIMITS,
    providers: { dns: testHostResolver() },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  await paystack.close();
  await mono.close();
});

describe('a live Paystack key with BVN_REGISTRY=mono', () => {
  it('starts with the BVN registry on, served by Mono', async () => {
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    const { capabilities } = ready.json<{
      capabilities: { capability: string; state: string; adapter: string | null }[];
    }>();
    expect(capabilities.find((c) => c.capability === 'bvn')).toMatchObject({
      state: 'on',
      adapter: 'mono',
    });
  });

  it('leaves the BVN registry as it was without BVN_REGISTRY=mono', () => {
    const config = testConfig({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: LIVE_KEY });
    const money = paymentProviderFor(config, database.db, systemClock);
    expect(money.capabilities.find((c) => c.capability === 'bvn')).toMatchObject({ state: 'off' });
  });
});

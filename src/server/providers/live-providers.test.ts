// A server with a live Paystack key and every other capability's provider named, each on its
// simulator: BVN_REGISTRY=mono, MANDATE_PROVIDER=remita, SMS_PROVIDER=termii and
// TERMINAL_PROVIDER=paystack. It starts with every capability on, each served by a real
// provider's adapter and none by the sandbox; no sandbox route answers; and it accepts the
// consents a live Paystack key alone refuses (paystack-live.test.ts): future payments, BVN data,
// a sign-in (docs/going-live.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CAPABILITIES } from '../../domain/capabilities';
import { buildApp } from '../app';
import type { TDatabase } from '../db/database';
import { startMonoSimulator, type TMonoSimulator } from '../testing/mono-simulator/mono-simulator';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../testing/paystack-simulator/paystack-simulator';
import {
  startRemitaSimulator,
  type TRemitaSimulator,
} from '../testing/remita-simulator/remita-simulator';
import {
  startTermiiSimulator,
  type TTermiiSimulator,
} from '../testing/termii-simulator/termii-simulator';
import { testHostResolver } from '../testing/host-resolver';
import {
  createTestClient,
  openTestDatabase,
  RELAXED_RATE_LIMITS,
  testConfig,
} from '../testing/test-app';

const LIVE_KEY = 'sk_live_simulated0000000000000000';

let paystack: TPaystackSimulator;
let mono: TMonoSimulator;
let remita: TRemitaSimulator;
let termii: TTermiiSimulator;
let database: TDatabase;
let app: FastifyInstance;
let authorization: string;

beforeAll(async () => {
  [paystack, mono, remita, termii] = await Promise.all([
    startPaystackSimulator({ secretKey: LIVE_KEY }),
    startMonoSimulator(),
    startRemitaSimulator(),
    startTermiiSimulator(),
  ]);
  database = await openTestDatabase();
  app = await buildApp({
    config: testConfig({
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: LIVE_KEY,
      PAYSTACK_BASE_URL: paystack.url,
      BVN_REGISTRY: 'mono',
      MONO_SECRET_KEY: mono.secretKey,
      MONO_BASE_URL: mono.url,
      MANDATE_PROVIDER: 'remita',
      REMITA_MERCHANT_ID: remita.merchantId,
      REMITA_SERVICE_TYPE_ID: remita.serviceTypeId,
      REMITA_API_KEY: remita.apiKey,
      REMITA_API_TOKEN: remita.apiToken,
      REMITA_BASE_URL: remita.url,
      SMS_PROVIDER: 'termii',
      TERMII_API_KEY: termii.apiKey,
      TERMII_SENDER_ID: termii.senderId,
      TERMII_BASE_URL: termii.url,
      TERMINAL_PROVIDER: 'paystack',
    }),
    database,
    logger: false,
    rateLimits: RELAXED_RATE_LIMITS,
    providers: { dns: testHostResolver() },
  });
  await app.ready();
  ({ authorization } = await createTestClient(database));
});
afterAll(async () => {
  await app.close();
  await database.close();
  await Promise.all([paystack.close(), mono.close(), remita.close(), termii.close()]);
});

describe('a live Paystack key with Mono, Remita, Termii and Paystack Terminal', () => {
  it('starts with every capability on, none of them the sandbox', async () => {
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    const { capabilities } = ready.json<{
      capabilities: { capability: string; state: string; adapter: string | null }[];
    }>();
    expect(capabilities.map((line) => line.capability)).toEqual([...CAPABILITIES]);
    expect(capabilities.filter((line) => line.state !== 'on')).toEqual([]);
    expect(Object.fromEntries(capabilities.map((line) => [line.capability, line.adapter]))).toEqual(
      {
        cards: 'paystack',
        banks: 'paystack',
        bvn: 'mono',
        mandates: 'remita',
        debits: 'paystack',
        payouts: 'paystack',
        refunds: 'paystack',
        transfersIn: 'paystack',
        notices: 'paystack',
        acquirer: 'paystack-terminal',
        settlement: 'paystack',
        sms: 'termii',
      },
    );
  });

  it('accepts future payments, BVN data and a sign-in, which a live key alone refuses', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization },
      payload: {
        payments: [
          { type: 'immediate', amount: 250_000, narration: 'Order 17' },
          {
            type: 'future',
            amount: 1_500_000,
            narration: 'Gym',
            frequency: 'monthly',
            interval: 1,
          },
        ],
        dataSharing: { bvnData: true },
        requirements: { requiresAuth: true },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('answers no sandbox route', async () => {
    for (const url of ['/sandbox', '/sandbox/messages', '/api/sandbox/fixtures']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});

import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import type { TDatabase } from '../../db/database';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import { openTestDatabase, RELAXED_RATE_LIMITS, testConfig } from '../../testing/test-app';
import { testHostResolver } from '../../testing/host-resolver';
import { toPaystackReference } from './paystack-references';
import { usable } from '../off';

// The app built with PAYMENT_PROVIDER=paystack against the Paystack simulator: Paystack is the
// provider the services see, its notices come in at /api/providers/paystack/notices, and the
// sandbox's own routes are off. (The flows over the whole API are the browser and route tests'.)
// Built with buildApp rather than startTestApp: the app alone, without the books' comparison with
// the settlement report that startTestApp makes when it closes.

let simulator: TPaystackSimulator;
let database: TDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  simulator = await startPaystackSimulator();
  database = await openTestDatabase();
  app = await buildApp({
    config: testConfig({
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: simulator.secretKey,
      PAYSTACK_BASE_URL: simulator.url,
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
  await simulator.close();
});

const notice = (body: string, signature?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/providers/paystack/notices',
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'x-paystack-signature': signature } : {}),
    },
    payload: body,
  });
const sign = (body: string, key = simulator.secretKey) =>
  createHmac('sha512', key).update(body).digest('hex');

describe('The app with PAYMENT_PROVIDER=paystack', () => {
  it('moves money through Paystack, and keeps the sandbox’s own routes off', async () => {
    expect(app.appContext.providers.payments.cards.provider).toBe('paystack');
    expect(app.appContext.sandbox).toBeNull();
    expect(await usable(app.appContext.providers.payments.banks).lookupBank('058')).toMatchObject({
      name: 'Guaranty Trust Bank',
    });
    expect(simulator.requests.some((r) => r.path.startsWith('/bank') && r.authorized)).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/sandbox/fixtures' })).statusCode).toBe(
      404,
    );
  });

  it('takes Paystack’s signed notices at its own notices URL, and refuses an unsigned one or one under another name', async () => {
    const body = JSON.stringify({
      event: 'charge.success',
      data: { reference: toPaystackReference('att_nosuchattempt'), amount: 5000, channel: 'card' },
    });
    expect((await notice(body, sign(body))).statusCode).toBe(200);
    expect((await notice(body)).statusCode).toBe(401);
    expect((await notice(body, sign(body, 'sk_test_another'))).statusCode).toBe(401);
    // Under another configured provider's name (the sandbox stands in beside the test key), its
    // own signature is asked for and Paystack's does not pass; under a provider this server does
    // not run, there is no such route.
    const under = (name: string) =>
      app.inject({
        method: 'POST',
        url: `/api/providers/${name}/notices`,
        headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(body) },
        payload: body,
      });
    expect((await under('sandbox')).statusCode).toBe(401);
    expect((await under('monnify')).statusCode).toBe(404);
  });
});

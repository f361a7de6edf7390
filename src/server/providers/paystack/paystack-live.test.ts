// A server with Paystack's live key alone (on the Paystack simulator): it starts, each capability
// Paystack lacks is off (a BVN registry, the e-mandate service, the terminal's acquirer, and SMS,
// whose sandbox outbox reaches no phone), and what needs one is refused with CAPABILITY_OFF:
// consents that need a payer to sign in, a sign-in code. A card payment on a consent that needs
// no sign-in is served. No sandbox route answers (docs/going-live.md).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSmsOutbox, SMS_ASKED_BY_NO_CALL, SMS_JOB } from '../../jobs/sms-job';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import type { TDatabase } from '../../db/database';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import {
  createTestClient,
  openTestDatabase,
  RELAXED_RATE_LIMITS,
  testConfig,
} from '../../testing/test-app';
import { testHostResolver } from '../../testing/host-resolver';

const LIVE_KEY = 'sk_live_simulated0000000000000000';

let simulator: TPaystackSimulator;
let database: TDatabase;
let app: FastifyInstance;
let authorization: string;
/** Built pages of the least the page routes read: they are served beside the API here. */
const webDir = mkdtempSync(path.join(tmpdir(), 'live-web-'));

beforeAll(async () => {
  const page = (title: string) =>
    `<!doctype html><html><head><title>${title}</title><script type="module" crossorigin src="/assets/page.js"></script></head><body><div id="root"></div></body></html>`;
  writeFileSync(path.join(webDir, 'index.html'), page('Pay'));
  mkdirSync(path.join(webDir, '.vite'));
  writeFileSync(path.join(webDir, '.vite/dashboard.html'), page('Dashboard'));
  simulator = await startPaystackSimulator({ secretKey: LIVE_KEY });
  database = await openTestDatabase();
  app = await buildApp({
    config: testConfig({
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: LIVE_KEY,
      PAYSTACK_BASE_URL: simulator.url,
    }),
    database,
    webDir,
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
  await simulator.close();
  rmSync(webDir, { recursive: true, force: true });
});

const createConsent = (payload: object) =>
  app.inject({ method: 'POST', url: '/api/v1/consents', headers: { authorization }, payload });

const IMMEDIATE = { type: 'immediate', amount: 250_000, narration: 'Order 17' };
const FUTURE = {
  type: 'future',
  amount: 1_500_000,
  narration: 'Gym',
  frequency: 'monthly',
  interval: 1,
};

describe('a live Paystack key alone', () => {
  it('lists each capability on readiness: Paystack’s on, the rest off and why', async () => {
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    const { capabilities } = ready.json<{
      capabilities: { capability: string; state: string; adapter: string | null; note: string }[];
    }>();
    expect(capabilities.filter((c) => c.state === 'off')).toEqual([
      {
        capability: 'bvn',
        state: 'off',
        adapter: null,
        note: 'Paystack does not offer a BVN registry',
      },
      {
        capability: 'mandates',
        state: 'off',
        adapter: null,
        note: 'Paystack does not offer an e-mandate service',
      },
      {
        capability: 'acquirer',
        state: 'off',
        adapter: null,
        note: 'Paystack does not offer a card terminal acquirer',
      },
      {
        capability: 'sms',
        state: 'off',
        adapter: null,
        note: 'SMS_PROVIDER=sandbox reaches no phone',
      },
    ]);
    expect(capabilities.find((c) => c.capability === 'cards')).toMatchObject({
      state: 'on',
      adapter: 'paystack',
    });
  });

  it('refuses a consent that needs what is off, naming it, and creates one that does not', async () => {
    const future = await createConsent({ payments: [FUTURE] });
    expect(future.statusCode).toBe(409);
    expect(future.json()).toEqual({
      success: false,
      error: {
        code: 'CAPABILITY_OFF',
        message: 'This needs a BVN registry and SMS, which this server does not offer',
      },
    });
    const bvnData = await createConsent({ payments: [IMMEDIATE], dataSharing: { bvnData: true } });
    expect(bvnData.statusCode).toBe(409);
    const signedIn = await createConsent({
      payments: [IMMEDIATE],
      requirements: { requiresAuth: true },
    });
    expect(signedIn.json()).toMatchObject({
      error: {
        code: 'CAPABILITY_OFF',
        message: 'This needs SMS, which this server does not offer',
      },
    });
    const card = await createConsent({ payments: [IMMEDIATE] });
    expect(card.statusCode).toBe(201);
  });

  it('tells the page which ways to pay it may offer: card and transfer, no terminal', async () => {
    const config = await app.inject({ method: 'GET', url: '/api/public-config' });
    expect(config.json()).toMatchObject({
      sandbox: false,
      capabilities: { cards: true, transfersIn: true, acquirer: false, bvn: false, sms: false },
    });
  });

  it('dead-letters at once an SMS still queued, a staff member’s code: nothing retries it', async () => {
    const outbox = await openSmsOutbox({
      db: database.db,
      jobs: app.jobs,
      smsGate: SMS_ASKED_BY_NO_CALL,
    });
    await database.db.transaction((tx) =>
      outbox.queue(tx, 'live-test:staff-code', { phoneNumber: '+2348031230000', body: 'hi' }),
    );
    await app.jobs.drain([SMS_JOB]);
    // The app's own worker may be the one that took it: its end is waited for, not assumed.
    const smsJobs = async () => {
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      const { jobs } = ready.json<{ jobs: { kind: string; retrying: number; dead: number }[] }>();
      return jobs.find((job) => job.kind === SMS_JOB);
    };
    await expect.poll(smsJobs).toMatchObject({ retrying: 0, dead: 1 });
  });

  it('sends no sign-in code: SMS is off, and no outbox lists one', async () => {
    const code = await app.inject({
      method: 'POST',
      url: '/api/auth/phone-codes',
      payload: { phone: '08031234567' },
    });
    expect(code.statusCode).toBe(409);
    expect(code.json()).toMatchObject({ error: { code: 'CAPABILITY_OFF' } });
    const outbox = await app.inject({ method: 'GET', url: '/sandbox/messages?phone=08031234567' });
    expect(outbox.statusCode).toBe(404);
  });

  it('serves the pages, but none under /sandbox: the grant-signing sandbox answers as the others', async () => {
    expect((await app.inject({ method: 'GET', url: '/login' })).statusCode).toBe(200);
    for (const url of ['/sandbox', '/sandbox/shop', '/sandbox/grant-signing?consentId=cns_any']) {
      const answer = await app.inject({ method: 'GET', url });
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 404 });
      expect(answer.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });
});

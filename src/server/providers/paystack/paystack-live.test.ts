// A server with Paystack's live key alone (on the Paystack simulator): it starts, each capability
// Paystack lacks is off (a BVN registry, the e-mandate service, the terminal's acquirer, and SMS,
// whose sandbox outbox reaches no phone), and what needs one is refused with CAPABILITY_OFF:
// consents that need a payer to sign in, a sign-in code, a dashboard recovery code, an
// invitation's code and an owner's invitation by SMS. A card payment on a consent that needs
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
import type { TConfig } from '../../config';
import { randomId } from '../../crypto/secret-hash';
import { dashboardInvitations, dashboardSessions, dashboardStaff, passkeys } from '../../db/schema';
import { operatorActor } from '../../services/dashboard/audit';
import { createInvitation } from '../../services/dashboard/staff';
import {
  CSRF_HEADER,
  openDashboardSession,
  sessionCookieName,
} from '../../services/dashboard/staff-sessions';
import { createPayer } from '../../services/identity/payers';
import { dashboardOrigin, invitationToken } from '../../testing/dashboard';
import { eq } from 'drizzle-orm';

const LIVE_KEY = 'sk_live_simulated0000000000000000';

let simulator: TPaystackSimulator;
let database: TDatabase;
let app: FastifyInstance;
let authorization: string;
/** Built pages of the least the page routes read: they are served beside the API here. */
const webDir = mkdtempSync(path.join(tmpdir(), 'live-web-'));
let config: TConfig;
let merchant: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  const page = (title: string) =>
    `<!doctype html><html><head><title>${title}</title><script type="module" crossorigin src="/assets/page.js"></script></head><body><div id="root"></div></body></html>`;
  writeFileSync(path.join(webDir, 'index.html'), page('Pay'));
  mkdirSync(path.join(webDir, '.vite'));
  writeFileSync(path.join(webDir, '.vite/dashboard.html'), page('Dashboard'));
  simulator = await startPaystackSimulator({ secretKey: LIVE_KEY });
  database = await openTestDatabase();
  config = testConfig({
    PAYMENT_PROVIDER: 'paystack',
    PAYSTACK_SECRET_KEY: LIVE_KEY,
    PAYSTACK_BASE_URL: simulator.url,
  });
  app = await buildApp({
    config,
    database,
    webDir,
    logger: false,
    rateLimits: RELAXED_RATE_LIMITS,
    providers: { dns: testHostResolver() },
  });
  await app.ready();
  merchant = await createTestClient(database);
  ({ authorization } = merchant);
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
        providers: [],
        note: 'Paystack does not offer a BVN registry',
      },
      {
        capability: 'mandates',
        state: 'off',
        adapter: null,
        providers: [],
        note: 'Paystack does not offer an e-mandate service',
      },
      {
        capability: 'acquirer',
        state: 'off',
        adapter: null,
        providers: [],
        note: 'Paystack does not offer a card terminal acquirer',
      },
      {
        capability: 'sms',
        state: 'off',
        adapter: null,
        providers: [],
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

  it('refuses a dashboard recovery code and an invitation’s code with 409: SMS is off', async () => {
    const refusedSms = {
      success: false,
      error: {
        code: 'CAPABILITY_OFF',
        message: 'This needs SMS, which this server does not offer',
      },
    };
    const origin = dashboardOrigin(config);
    const recovery = await app.inject({
      method: 'POST',
      url: '/api/dashboard/recovery/code',
      headers: { origin },
      payload: { phone: '08031234567' },
    });
    expect(recovery.statusCode, recovery.body).toBe(409);
    expect(recovery.json()).toEqual(refusedSms);

    const invited = await createInvitation(
      database.db,
      config,
      {
        merchantId: merchant.merchantId,
        role: 'viewer',
        refundLimit: null,
        phoneNumber: null,
        invitedBy: operatorActor(merchant.merchantId),
      },
      new Date(),
    );
    const code = await app.inject({
      method: 'POST',
      url: '/api/dashboard/invitations/code',
      headers: { origin },
      payload: { token: invitationToken(invited.invitationUrl), phone: '08031234567' },
    });
    expect(code.statusCode, code.body).toBe(409);
    expect(code.json()).toEqual(refusedSms);
  });

  it('refuses an owner’s invitation by SMS with 409, and makes none: SMS is off', async () => {
    const { payer } = await createPayer(database.db, {
      phoneNumber: '+2348031239876',
      fullName: 'Ngozi Eze',
    });
    const staffId = randomId('stf');
    await database.db
      .insert(dashboardStaff)
      .values({ id: staffId, merchantId: merchant.merchantId, payerId: payer.id, role: 'owner' });
    // The owner's trusted passkey, as if made and signed in with (no SMS code on this server).
    const passkeyId = randomId('pk');
    await database.db.insert(passkeys).values({
      id: passkeyId,
      payerId: payer.id,
      publicKey: 'unused',
      deviceType: 'singleDevice',
      backedUp: false,
    });
    const session = await openDashboardSession(
      database.db,
      { payerId: payer.id, staffId, method: 'passkey', passkeyId },
      new Date(),
    );
    const [row] = await database.db
      .select({ csrfToken: dashboardSessions.csrfToken })
      .from(dashboardSessions)
      .where(eq(dashboardSessions.id, session.sessionId));
    const invite = await app.inject({
      method: 'POST',
      url: '/api/dashboard/team/invitations',
      headers: {
        cookie: `${sessionCookieName(config)}=${session.token}`,
        origin: dashboardOrigin(config),
        [CSRF_HEADER]: row?.csrfToken ?? '',
      },
      payload: { phone: '08031234568', role: 'viewer' },
    });
    expect(invite.statusCode, invite.body).toBe(409);
    expect(invite.json()).toMatchObject({ error: { code: 'CAPABILITY_OFF' } });
    const made = await database.db
      .select({ id: dashboardInvitations.id })
      .from(dashboardInvitations)
      .where(eq(dashboardInvitations.phoneNumber, '+2348031234568'));
    expect(made).toEqual([]);
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

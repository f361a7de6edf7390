// The dashboard's Routes screen API (docs/dashboard.md "Routes", docs/routing.md): each
// capability's providers in order with their health and elimination (the context's health: here
// a test's own, Paystack eliminated for cards), where the merchant's next new work goes, the
// payments failover recovered, and an owner's pin, pause and clear: one conditional statement
// each, with its audit row, once per Idempotency-Key, the last provider never paused, refused to
// other roles, to a passkey added by SMS code during its wait, and kept to the merchant's own.
// PGlite; PostgreSQL with DATABASE_URL (the pauses raced).
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStaffRole } from '../../domain/dashboard-roles';
import { errorBody, formatErrorMessage } from '../../domain/errors';
import { UNAPPROVED_PASSKEY_WAIT_MS } from '../../domain/passkey-trust';
import { formatLagosDateTime } from '../../domain/payment-date';
import type { TDashboardRoutesResponse } from '../../domain/schemas/dashboard-routes';
import { paymentAttempts } from '../db/schema';
import {
  dashboardCall,
  recoverStaffPasskey,
  staffMember,
  type TStaff,
  type TStaffSession,
} from '../testing/dashboard';
import { consentWithPayment, payByTransfer } from '../testing/payments';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../testing/paystack-simulator/paystack-simulator';
import { eliminatingHealth } from '../testing/provider-health';
import { createTestClient, startTestApp, testClock } from '../testing/test-app';

const PAYSTACK_KEY = 'sk_test_routesscreen00000000000000000000';
const clock = testClock(new Date());
const eliminatedAt = new Date(clock.now().getTime() - 4 * 60_000);

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let paystack: TPaystackSimulator;

beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY, clock: () => clock.now() });
  ctx = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    providers: {
      health: eliminatingHealth({
        capability: 'cards',
        provider: 'paystack',
        since: eliminatedAt,
        reason: 'after 5 timeouts',
        lines: [
          {
            capability: 'cards',
            provider: 'paystack',
            calls: 20,
            failures: 6,
            timeouts: 5,
            p95LatencyMs: 30_000,
            eliminated: { since: eliminatedAt, reason: 'after 5 timeouts' },
          },
        ],
      }),
    },
    env: {
      CARD_PROVIDERS: 'sandbox,paystack',
      PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
      PAYSTACK_BASE_URL: paystack.url,
    },
  });
});
afterAll(async () => {
  await ctx?.close();
  await paystack?.close();
});

const call = (staff: TStaffSession | null, options: InjectOptions) =>
  dashboardCall(ctx, staff, options);

let keys = 0;
const change = (
  staff: TStaffSession,
  what: 'pin' | 'pause' | 'clear',
  payload: object,
  key = `route-${(keys += 1)}`,
) =>
  call(staff, {
    method: 'POST',
    url: `/api/dashboard/routes/${what}`,
    headers: { 'idempotency-key': key },
    payload,
  });

const readRoutes = async (staff: TStaffSession) => {
  const read = await call(staff, { method: 'GET', url: '/api/dashboard/routes' });
  expect(read.statusCode, read.body).toBe(200);
  return read.json<TDashboardRoutesResponse>();
};
const cardsOf = async (staff: TStaffSession) =>
  (await readRoutes(staff)).capabilities.find((line) => line.capability === 'cards');

/** A new merchant and one of its staff with `role`. */
async function merchantStaff(role: TStaffRole = 'owner') {
  const { merchantId } = await createTestClient(ctx.database, { name: 'Kemi Fabrics' });
  return staffMember(ctx, { merchantId, role }, clock.now());
}

const auditActions = async (owner: TStaff) =>
  (await call(owner, { method: 'GET', url: '/api/dashboard/audit' }))
    .json<{ entries: Array<{ action: string; target: string | null }> }>()
    .entries.filter((entry) => entry.action.startsWith('route.'))
    .map(({ action, target }) => ({ action, target }));

describe('GET /api/dashboard/routes', () => {
  it("shows each provider in the list's order with its health, and where new work goes", async () => {
    const owner = await merchantStaff();
    const cards = await cardsOf(owner);
    expect(cards).toEqual({
      capability: 'cards',
      next: 'sandbox',
      providers: [
        {
          provider: 'sandbox',
          health: { calls: 0, failures: 0, timeouts: 0, p95LatencyMs: null },
          eliminated: null,
          pinned: false,
          pausedSince: null,
        },
        {
          provider: 'paystack',
          health: { calls: 20, failures: 6, timeouts: 5, p95LatencyMs: 30_000 },
          eliminated: { since: eliminatedAt.toISOString(), reason: 'after 5 timeouts' },
          pinned: false,
          pausedSince: null,
        },
      ],
    });
    // Only capabilities whose new work goes down a list: each provider's own refunds are not.
    const listed = (await readRoutes(owner)).capabilities.map((line) => line.capability);
    expect(listed).toContain('transfersIn');
    expect(listed).not.toContain('refunds');
  });

  it('counts a payment completed at a second provider after the first failed technically', async () => {
    // Paystack could not open the one-time account; the sandbox's took the money.
    const recovered = await consentWithPayment(ctx.app, ctx.database, { amount: 250_000 });
    await failedEarlier(recovered, {
      failureCode: 'PAYMENT_FAILED',
      failureReason: 'provider_error',
    });
    expect((await payByTransfer(ctx.app, recovered)).statusCode).toBe(200);
    // Another merchant's payer let Paystack's account expire, then paid: not a recovery.
    const expired = await consentWithPayment(ctx.app, ctx.database, { amount: 90_000 });
    await failedEarlier(expired, {
      failureCode: 'TRANSFER_ACCOUNT_EXPIRED',
      failureReason: 'expired',
    });
    expect((await payByTransfer(ctx.app, expired)).statusCode).toBe(200);

    const ownerOf = (consent: { client: { merchantId: string } }) =>
      staffMember(ctx, { merchantId: consent.client.merchantId, role: 'owner' }, clock.now());
    expect((await readRoutes(await ownerOf(recovered))).recovered).toEqual({
      today: { payments: 1, amount: 250_000 },
      month: { payments: 1, amount: 250_000 },
    });
    expect((await readRoutes(await ownerOf(expired))).recovered).toEqual({
      today: { payments: 0, amount: 0 },
      month: { payments: 0, amount: 0 },
    });
  });

  it('is read by owners and developers, no one else', async () => {
    const developer = await merchantStaff('developer');
    expect(
      (await call(developer, { method: 'GET', url: '/api/dashboard/routes' })).statusCode,
    ).toBe(200);
    for (const role of ['support', 'viewer'] as const) {
      const staff = await merchantStaff(role);
      const read = await call(staff, { method: 'GET', url: '/api/dashboard/routes' });
      expect(read.statusCode).toBe(403);
      expect(read.json()).toEqual(errorBody('DASHBOARD_ROLE_FORBIDDEN'));
    }
    const signedOut = await call(null, { method: 'GET', url: '/api/dashboard/routes' });
    expect(signedOut.json()).toEqual(errorBody('DASHBOARD_SIGN_IN_REQUIRED'));
  });
});

/** An attempt at Paystack that ended a minute before the payment was paid elsewhere. */
async function failedEarlier(
  consent: { paymentId: string; consentId: string; amount: number },
  failure: { failureCode: 'PAYMENT_FAILED' | 'TRANSFER_ACCOUNT_EXPIRED'; failureReason: string },
) {
  const at = new Date(clock.now().getTime() - 60_000);
  await ctx.database.db.insert(paymentAttempts).values({
    id: `att_routes_${consent.paymentId}`,
    paymentId: consent.paymentId,
    consentId: consent.consentId,
    method: 'bank_transfer',
    status: 'failed',
    stage: null,
    amount: consent.amount,
    provider: 'paystack',
    ...failure,
    createdAt: at,
    updatedAt: at,
  });
}

const CARDS_SANDBOX = { capability: 'cards', provider: 'sandbox' };
const CARDS_PAYSTACK = { capability: 'cards', provider: 'paystack' };

describe('pin, pause and clear', () => {
  it('pins a provider first for the merchant alone, once per change, in the audit log', async () => {
    const owner = await merchantStaff();
    const other = await merchantStaff();
    const pinned = await change(owner, 'pin', CARDS_PAYSTACK, 'pin-paystack');
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json()).toEqual({
      success: true,
      capability: 'cards',
      pinned: 'paystack',
      paused: [],
    });
    // The same key answers the same; a new key for the same pin changes nothing and logs nothing.
    expect((await change(owner, 'pin', CARDS_PAYSTACK, 'pin-paystack')).json()).toEqual(
      pinned.json(),
    );
    expect((await change(owner, 'pin', CARDS_PAYSTACK)).json()).toEqual(pinned.json());
    expect(await auditActions(owner)).toEqual([{ action: 'route.pinned', target: 'paystack' }]);

    const cards = await cardsOf(owner);
    expect(cards?.providers.map((p) => [p.provider, p.pinned])).toEqual([
      ['sandbox', false],
      ['paystack', true],
    ]);
    // Pinned, but eliminated by its record: new work still goes to the healthy one first.
    expect(cards?.next).toBe('sandbox');
    expect((await cardsOf(other))?.providers.some((p) => p.pinned)).toBe(false);
    expect(await auditActions(other)).toEqual([]);
  });

  it('pauses a provider out of new work, never the last one left', async () => {
    const owner = await merchantStaff();
    const paused = await change(owner, 'pause', CARDS_SANDBOX);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toEqual({
      success: true,
      capability: 'cards',
      pinned: null,
      paused: [{ provider: 'sandbox', since: clock.now().toISOString() }],
    });
    const cards = await cardsOf(owner);
    expect(cards?.next).toBe('paystack');
    expect(cards?.providers[0]?.pausedSince).toBe(clock.now().toISOString());

    const last = await change(owner, 'pause', CARDS_PAYSTACK);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual(errorBody('ROUTE_LAST_PROVIDER'));
    expect((await cardsOf(owner))?.providers[1]?.pausedSince).toBeNull();

    const cleared = await change(owner, 'clear', CARDS_SANDBOX);
    expect(cleared.json()).toEqual({
      success: true,
      capability: 'cards',
      pinned: null,
      paused: [],
    });
    expect((await cardsOf(owner))?.next).toBe('sandbox');
    expect(await auditActions(owner)).toEqual([
      { action: 'route.cleared', target: 'sandbox' },
      { action: 'route.paused', target: 'sandbox' },
    ]);
  });

  it('lets only one of two pauses of the last two providers at once succeed', async () => {
    const owner = await merchantStaff();
    const answers = await Promise.all([
      change(owner, 'pause', CARDS_SANDBOX),
      change(owner, 'pause', CARDS_PAYSTACK),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const cards = await cardsOf(owner);
    expect(cards?.providers.filter((p) => p.pausedSince !== null)).toHaveLength(1);
    expect(cards?.next).not.toBeNull();
  });

  it('unpauses a provider it pins, and unpins one it pauses', async () => {
    const owner = await merchantStaff();
    await change(owner, 'pause', CARDS_PAYSTACK);
    expect((await change(owner, 'pin', CARDS_PAYSTACK)).json()).toMatchObject({
      pinned: 'paystack',
      paused: [],
    });
    expect((await change(owner, 'pause', CARDS_PAYSTACK)).json()).toMatchObject({
      pinned: null,
      paused: [{ provider: 'paystack' }],
    });
  });

  it('refuses a provider or capability the server does not route, and bad bodies, in the catalogue', async () => {
    const owner = await merchantStaff();
    for (const payload of [
      { capability: 'cards', provider: 'remita' },
      { capability: 'refunds', provider: 'sandbox' },
      { capability: 'mandates', provider: 'paystack' },
    ]) {
      const refused = await change(owner, 'pin', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(404);
      expect(refused.json()).toEqual(errorBody('ROUTE_PROVIDER_UNKNOWN'));
    }
    for (const payload of [
      {},
      { capability: 'cards' },
      { capability: 'cash', provider: 'sandbox' },
      { ...CARDS_SANDBOX, provider: 'Sand Box' },
    ]) {
      const refused = await change(owner, 'pause', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<{ success: boolean; error: { code: string } }>()).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_FAILED' },
      });
    }
    expect(await auditActions(owner)).toEqual([]);
  });

  it('is refused to every role but the owner', async () => {
    for (const role of ['developer', 'support', 'viewer'] as const) {
      const staff = await merchantStaff(role);
      for (const what of ['pin', 'pause', 'clear'] as const) {
        const refused = await change(staff, what, CARDS_SANDBOX);
        expect(refused.statusCode, `${role} ${what}`).toBe(403);
        expect(refused.json()).toEqual(errorBody('DASHBOARD_ROLE_FORBIDDEN'));
      }
    }
  });

  it('waits a day for a passkey added with an SMS code alone', async () => {
    const owner = await merchantStaff();
    const { session: recovered } = await recoverStaffPasskey(ctx, owner.phone);
    const changesFrom = new Date(clock.now().getTime() + UNAPPROVED_PASSKEY_WAIT_MS);
    const refused = await change(recovered, 'pause', CARDS_SANDBOX);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(
      errorBody(
        'DASHBOARD_PASSKEY_NOT_YET_TRUSTED',
        formatErrorMessage('DASHBOARD_PASSKEY_NOT_YET_TRUSTED', {
          changesFrom: formatLagosDateTime(changesFrom),
        }),
      ),
    );
    expect(await auditActions(owner)).toEqual([]);
  });
});

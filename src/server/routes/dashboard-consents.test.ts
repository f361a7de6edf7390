// The dashboard's consents and mandates (docs/dashboard.md "Consents"): the list by reference and
// status, a consent with its grant record and schedule, and cancelling its future payments with a
// reason: support and owner only, CSRF-safe, another merchant's consent not found, and in one
// transaction the payments cancelled, one webhook event, one SMS to the payer and one audit row,
// however often or however concurrently it is asked.
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStaffRole } from '../../domain/dashboard-roles';
import { errorBody } from '../../domain/errors';
import type { TWebAuthnOptions } from '../../domain/schemas/auth';
import type { TDashboardConsent } from '../../domain/schemas/dashboard-consents';
import type { TPayerConsent } from '../../domain/schemas/payer-consents';
import { dashboardAudit, merchantEvents, payers, payments } from '../db/schema';
import { operatorActor } from '../services/dashboard/audit';
import { createInvitation } from '../services/dashboard/staff';
import { listOutbox } from '../services/identity/sms-outbox';
import {
  latestCode,
  payerWithPasskey,
  signedGrant,
  softAuthenticatorFor,
  testPhone,
} from '../testing/identity';
import { linkByTestTransfer } from '../testing/payments';
import { createTestClient, startTestApp, testClock } from '../testing/test-app';

const DAY = 24 * 60 * 60 * 1_000;
const clock = testClock('2031-03-02T09:00:00Z');
let ctx: Awaited<ReturnType<typeof startTestApp>>;
let origin: string;

beforeAll(async () => {
  ctx = await startTestApp({ clock, webhookDelivery: 'manual' });
  origin = new URL(ctx.config.publicUrl).origin;
});
afterAll(async () => {
  await ctx.close();
});

type TSession = { cookie: string; csrf: string };

function call(staff: TSession | null, options: InjectOptions) {
  const headers: Record<string, string> = { origin, ...(options.headers as object) };
  if (staff) {
    headers.cookie = staff.cookie;
    if (options.method !== 'GET') headers['x-dashboard-csrf'] = staff.csrf;
  }
  return ctx.app.inject({ ...options, headers });
}

/** A staff member of `merchantId` with `role`: the operator's invitation, its code, a passkey. */
async function staffOf(merchantId: string, role: TStaffRole): Promise<TSession> {
  const phone = testPhone();
  const invited = await createInvitation(
    ctx.database.db,
    ctx.config,
    {
      merchantId,
      role,
      refundLimit: null,
      phoneNumber: null,
      invitedBy: operatorActor(merchantId),
    },
    clock.now(),
  );
  const token = invited.invitationUrl.slice(invited.invitationUrl.indexOf('#') + 1);
  const sent = await call(null, {
    method: 'POST',
    url: '/api/dashboard/invitations/code',
    payload: { token, phone },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const code = await latestCode(ctx.app, phone);
  const accepted = await call(null, {
    method: 'POST',
    url: '/api/dashboard/invitations/accept',
    payload: { token, phone, code, fullName: 'Bisi Adeyemi' },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const cookie = ([accepted.headers['set-cookie'] ?? []].flat()[0] ?? '').split(';')[0] ?? '';
  const read = await call({ cookie, csrf: '' }, { method: 'GET', url: '/api/dashboard/session' });
  const session = { cookie, csrf: read.json<{ csrfToken: string }>().csrfToken };
  const soft = softAuthenticatorFor(ctx.config);
  const options = await call(session, { method: 'POST', url: '/api/dashboard/passkeys/options' });
  const response = soft.register(options.json<{ options: TWebAuthnOptions }>().options);
  const saved = await call(session, {
    method: 'POST',
    url: '/api/dashboard/passkeys',
    payload: { response },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  return session;
}

/**
 * A new merchant's consent with two future payments (in 10 and 40 days) and one 'as needed',
 * granted by a signed-in payer from their linked account, and that payer's phone number.
 */
async function grantedConsent(reference: string) {
  const merchant = await createTestClient(ctx.database, { name: 'Ada Foods' });
  const payer = await payerWithPasskey(ctx.app, ctx.config);
  const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
  const due = (days: number) => new Date(clock.now().getTime() + days * DAY).toISOString();
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      reference,
      payments: [
        { type: 'future', amount: 500_000, narration: 'Second box', dueDate: due(40) },
        { type: 'future', amount: 400_000, narration: 'First box', dueDate: due(10) },
        { type: 'future', amount: 100_000, narration: 'Extras', amountType: 'variable' },
      ],
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    futurePayments: {
      granted: true,
      selectedAccounts: [accountId],
      paymentMethods: [{ type: 'account' as const, accountId }],
    },
  };
  const granted = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(ctx.app, payer.soft, payer.token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  const [row] = await ctx.database.db
    .select({ phoneNumber: payers.phoneNumber })
    .from(payers)
    .where(eq(payers.id, payer.userId));
  return { consentId, merchant, payer, phoneNumber: row?.phoneNumber ?? '' };
}

const cancelUrl = (consentId: string) =>
  `/api/dashboard/consents/${consentId}/cancel-future-payments`;

const eventsOf = (consentId: string) =>
  ctx.database.db
    .select()
    .from(merchantEvents)
    .where(
      and(
        eq(merchantEvents.consentId, consentId),
        eq(merchantEvents.type, 'consent.future_payments_cancelled'),
      ),
    );

const auditOf = (merchantId: string) =>
  ctx.database.db
    .select()
    .from(dashboardAudit)
    .where(
      and(
        eq(dashboardAudit.merchantId, merchantId),
        eq(dashboardAudit.action, 'consent.future_payments_cancelled'),
      ),
    );

describe('consents on the dashboard', () => {
  it('lists the merchant’s consents by reference and status, and shows one with its record and schedule', async () => {
    const { consentId, merchant } = await grantedConsent('order-1001');
    const viewer = await staffOf(merchant.merchantId, 'viewer');
    const byReference = await call(viewer, {
      method: 'GET',
      url: '/api/dashboard/consents?reference=order-1001',
    });
    expect(byReference.statusCode, byReference.body).toBe(200);
    expect(byReference.json().consents.map((c: { consentId: string }) => c.consentId)).toEqual([
      consentId,
    ]);
    const revoked = await call(viewer, {
      method: 'GET',
      url: '/api/dashboard/consents?status=revoked',
    });
    expect(revoked.json().consents).toEqual([]);

    const detail = await call(viewer, {
      method: 'GET',
      url: `/api/dashboard/consents/${consentId}`,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const body = detail.json<TDashboardConsent>();
    expect(body.consent.status).toBe('granted');
    expect(body.consent.mandates.length).toBeGreaterThan(0);
    expect(body.record?.text).toContain('Ada Foods');
    expect(body.audit.map((a) => a.type)).toContain('consent.granted');
    // Every payment still owed, the soonest first, the 'as needed' one last.
    expect(body.schedule.map((s) => s.narration)).toEqual(['First box', 'Second box', 'Extras']);
    expect(body.cancellations).toEqual([]);
  });

  it('answers another merchant’s consent as not found, to reads and to the cancel', async () => {
    const { consentId } = await grantedConsent('order-2001');
    const other = await createTestClient(ctx.database, { name: 'Other Shop' });
    const owner = await staffOf(other.merchantId, 'owner');
    const read = await call(owner, { method: 'GET', url: `/api/dashboard/consents/${consentId}` });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual(errorBody('CONSENT_NOT_FOUND'));
    const cancel = await call(owner, {
      method: 'POST',
      url: cancelUrl(consentId),
      payload: { reason: 'Not ours' },
    });
    expect(cancel.json()).toEqual(errorBody('CONSENT_NOT_FOUND'));
    const listed = await call(owner, {
      method: 'GET',
      url: '/api/dashboard/consents?reference=order-2001',
    });
    expect(listed.json().consents).toEqual([]);
    const [left] = await ctx.database.db
      .select({ status: payments.status })
      .from(payments)
      .where(and(eq(payments.consentId, consentId), eq(payments.type, 'future')));
    expect(left?.status).toBe('pending');
  });

  it('lets only support and owners cancel, and only with the session’s CSRF token', async () => {
    const { consentId, merchant } = await grantedConsent('order-3001');
    for (const role of ['viewer', 'developer'] as const) {
      const staff = await staffOf(merchant.merchantId, role);
      const refused = await call(staff, {
        method: 'POST',
        url: cancelUrl(consentId),
        payload: { reason: 'Try' },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(errorBody('DASHBOARD_ROLE_FORBIDDEN'));
    }
    const support = await staffOf(merchant.merchantId, 'support');
    const noToken = await ctx.app.inject({
      method: 'POST',
      url: cancelUrl(consentId),
      headers: { origin, cookie: support.cookie },
      payload: { reason: 'Try' },
    });
    expect(noToken.json()).toEqual(errorBody('DASHBOARD_CSRF_REFUSED'));
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: cancelUrl(consentId),
      headers: {
        origin: 'https://evil.example',
        cookie: support.cookie,
        'x-dashboard-csrf': support.csrf,
      },
      payload: { reason: 'Try' },
    });
    expect(foreign.json()).toEqual(errorBody('DASHBOARD_CSRF_REFUSED'));
    const blank = await call(support, {
      method: 'POST',
      url: cancelUrl(consentId),
      payload: { reason: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(await eventsOf(consentId)).toEqual([]);
    const ok = await call(support, {
      method: 'POST',
      url: cancelUrl(consentId),
      payload: { reason: 'Order cancelled by the customer' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<TDashboardConsent>().schedule).toEqual([]);
  });

  it(
    'cancels the pending future payments once: one event, one SMS, one audit row, twice or at once',
    { tags: ['postgres'] },
    async () => {
      const { consentId, merchant, payer, phoneNumber } = await grantedConsent('order-4001');
      const owner = await staffOf(merchant.merchantId, 'owner');
      const support = await staffOf(merchant.merchantId, 'support');
      const reason = 'The customer closed the account';
      const cancel = (staff: TSession) =>
        call(staff, { method: 'POST', url: cancelUrl(consentId), payload: { reason } });
      const [first, second] = await Promise.all([cancel(owner), cancel(support)]);
      const third = await cancel(owner);
      for (const answer of [first, second, third]) expect(answer.statusCode, answer.body).toBe(200);
      const body = first.json<TDashboardConsent>();
      expect(second.json()).toEqual(body);
      expect(third.json()).toEqual(body);
      expect(body.consent.status).toBe('granted');
      expect(body.schedule).toEqual([]);
      expect(body.cancellations).toHaveLength(1);
      expect(body.cancellations[0]).toMatchObject({ reason });
      expect(body.cancellations[0]?.cancelledPaymentIds).toHaveLength(3);
      expect(body.audit.map((a) => a.label)).toContain('Future payments cancelled by the merchant');

      const future = await ctx.database.db
        .select({ status: payments.status })
        .from(payments)
        .where(and(eq(payments.consentId, consentId), eq(payments.type, 'future')));
      expect(future.map((p) => p.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);

      const events = await eventsOf(consentId);
      expect(events).toHaveLength(1);
      expect(events[0]?.data).toMatchObject({
        consentId,
        reason,
        reference: 'order-4001',
        cancelledPaymentIds: body.cancellations[0]?.cancelledPaymentIds,
      });

      const sms = (await listOutbox(ctx.database.db, { phoneNumber, limit: 100 })).filter((m) =>
        m.body.includes('cancelled'),
      );
      expect(sms).toHaveLength(1);
      expect(sms[0]?.body).toBe(
        `${ctx.config.productName}: Ada Foods cancelled 3 future payments you had agreed to. Reason: ${reason}. See ${ctx.config.publicUrl}/consents`,
      );

      const audit = await auditOf(merchant.merchantId);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ target: consentId, data: { reason } });

      // The payer sees it on /consents: nothing more owed, the payments cancelled, and the history.
      const mine = await ctx.app.inject({
        method: 'GET',
        url: '/api/users/consents',
        headers: payer.headers,
      });
      const seen = mine.json<{ consents: TPayerConsent[] }>().consents[0];
      expect(seen?.status).toBe('granted');
      expect(seen?.upcomingDebits).toEqual([]);
      expect(seen?.payments.filter((p) => p.status === 'cancelled')).toHaveLength(3);
      const record = await ctx.app.inject({
        method: 'GET',
        url: `/api/users/consents/${consentId}/record`,
        headers: payer.headers,
      });
      expect(record.json().audit.at(-1)).toMatchObject({
        label: 'Future payments cancelled by the merchant',
        actor: 'merchant',
      });
    },
  );
});

// The merchant dashboard's API (docs/dashboard.md): an invitation accepted with an SMS code and a
// passkey, sign-in with the passkey, cookie sessions (HttpOnly, SameSite=Strict, CSRF-safe
// writes), each route's role checked on the server, no merchant reaching another's data, and the
// payments, refunds, webhooks, keys, audit and request log screens' calls.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../domain/errors';
import type { TStaffRole } from '../../domain/dashboard-roles';
import { formatNaira } from '../../domain/money';
import { formatErrorMessage } from '../../domain/errors';
import { dashboardAudit } from '../db/schema';
import { sessionCookie } from '../services/dashboard/staff-sessions';
import {
  acceptInvitation,
  cookieOf,
  csrfOf as dashboardCsrfOf,
  dashboardCall,
  invitationToken,
  makeStaffPasskey,
  staffMember,
  type TStaff,
  type TStaffSession,
} from '../testing/dashboard';
import { latestCode, testPhone } from '../testing/identity';
import { consentWithPayment, payByCard, payByTransfer, sandboxAccount } from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';

const OPERATOR_TOKEN = 'dashboard-test-operator-token-0123456789abcdef';
const clock = testClock(new Date());
let ctx: Awaited<ReturnType<typeof startTestApp>>;
let origin: string;

beforeAll(async () => {
  ctx = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    operatorToken: OPERATOR_TOKEN,
    env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
  });
  origin = new URL(ctx.config.publicUrl).origin;
});
afterAll(async () => {
  await ctx.close();
});

/** The helpers of testing/dashboard.ts, on this file's app and clock. */
const call = (staff: TStaffSession | null, options: InjectOptions) =>
  dashboardCall(ctx, staff, options);
const csrfOf = (cookie: string) => dashboardCsrfOf(ctx, cookie);
const accept = (token: string, phone: string, fullName?: string) =>
  acceptInvitation(ctx, token, phone, fullName);
const makePasskey = (session: TStaffSession) => makeStaffPasskey(ctx, session);
const tokenOf = invitationToken;
const staffOf = (merchantId: string, role: TStaffRole, refundLimit: number | null = null) =>
  staffMember(ctx, { merchantId, role, refundLimit }, clock.now());

/** A merchant with a paid payment (a card), and its owner. */
async function paidMerchant(amount = 250_000) {
  const consent = await consentWithPayment(ctx.app, ctx.database, { amount });
  expect((await payByCard(ctx.app, consent)).json()).toMatchObject({
    message: 'Payment successful',
  });
  const owner = await staffOf(consent.client.merchantId, 'owner');
  return { consent, owner };
}

describe('invitations, passkeys and sessions', () => {
  it('takes the operator’s owner invitation to a passkey session with the owner’s role', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const phone = testPhone();
    const invited = await ctx.app.inject({
      method: 'POST',
      url: `/api/operator/clients/${consent.client.clientId}/owner-invitations`,
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      payload: { phone },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const { invitationUrl } = invited.json<{ invitationUrl: string }>();
    expect(invitationUrl).toMatch(/^http:\/\/localhost:3999\/dashboard\/join#[\w-]{20,}$/);
    const token = tokenOf(invitationUrl);

    const lookup = await call(null, {
      method: 'POST',
      url: '/api/dashboard/invitations/lookup',
      payload: { token },
    });
    expect(lookup.json()).toMatchObject({ merchantName: 'Tola Stores', role: 'owner' });
    expect(lookup.json<{ phoneHint: string }>().phoneHint).toMatch(/\*\*\*/);

    // Another number cannot take it.
    const stranger = await call(null, {
      method: 'POST',
      url: '/api/dashboard/invitations/code',
      payload: { token, phone: testPhone() },
    });
    expect(stranger.json()).toEqual(errorBody('INVITATION_OTHER_PHONE'));

    const accepted = await accept(token, phone);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const setCookie = String(accepted.headers['set-cookie']);
    expect(setCookie).toMatch(
      /^oya_dashboard=[\w-]+; Path=\/api\/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    const cookie = cookieOf(setCookie);
    const csrf = await csrfOf(cookie);

    // A session an SMS code opened makes a passkey, and nothing else.
    const early = await call({ cookie, csrf }, { method: 'GET', url: '/api/dashboard/payments' });
    expect(early.json()).toEqual(errorBody('DASHBOARD_PASSKEY_REQUIRED'));
    const soft = await makePasskey({ cookie, csrf });
    const session = await call({ cookie, csrf }, { method: 'GET', url: '/api/dashboard/session' });
    expect(session.json()).toMatchObject({
      method: 'passkey',
      role: 'owner',
      merchant: { merchantId: consent.client.merchantId, name: 'Tola Stores' },
    });

    // The link serves once.
    const again = await call(null, {
      method: 'POST',
      url: '/api/dashboard/invitations/lookup',
      payload: { token },
    });
    expect(again.json()).toEqual(errorBody('INVITATION_INVALID'));

    // The passkey signs in from then on; signing out ends that session at once.
    const options = await call(null, { method: 'POST', url: '/api/dashboard/sign-in/options' });
    const assertion = soft.assert(
      options.json<{ options: { challenge: string } }>().options.challenge,
    );
    const signedIn = await call(null, {
      method: 'POST',
      url: '/api/dashboard/sign-in',
      payload: { response: assertion },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const second = { cookie: cookieOf(signedIn.headers['set-cookie']), csrf: '' };
    second.csrf = await csrfOf(second.cookie);
    const out = await call(second, { method: 'POST', url: '/api/dashboard/sign-out' });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    const after = await call(second, { method: 'GET', url: '/api/dashboard/session' });
    expect(after.json()).toEqual(errorBody('DASHBOARD_SIGN_IN_REQUIRED'));
  });

  it('marks the cookie Secure when the public URL is https', () => {
    expect(sessionCookie({ publicUrl: 'https://pay.example' }, 'abc')).toBe(
      '__Secure-oya_dashboard=abc; Path=/api/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200; Secure',
    );
  });

  it('ends a session 30 minutes after its last request', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const staff = await staffOf(consent.client.merchantId, 'viewer');
    clock.advance(29 * 60_000);
    expect((await call(staff, { method: 'GET', url: '/api/dashboard/session' })).statusCode).toBe(
      200,
    );
    clock.advance(31 * 60_000);
    const late = await call(staff, { method: 'GET', url: '/api/dashboard/session' });
    expect(late.statusCode).toBe(401);
  });

  it('refuses a passkey of someone on no team', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const staff = await staffOf(consent.client.merchantId, 'owner');
    const team = await call(staff, { method: 'GET', url: '/api/dashboard/team' });
    const { staffId } = team.json<{ staff: Array<{ staffId: string }> }>().staff[0] ?? {};
    // The last owner cannot leave; once a second owner is there, the first can.
    const last = await call(staff, { method: 'DELETE', url: `/api/dashboard/team/${staffId}` });
    expect(last.json()).toEqual(errorBody('LAST_OWNER'));
    await staffOf(consent.client.merchantId, 'owner');
    const removed = await call(staff, { method: 'DELETE', url: `/api/dashboard/team/${staffId}` });
    expect(removed.statusCode, removed.body).toBe(200);
    // Their session ended with it, and their passkey opens nothing now.
    expect((await call(staff, { method: 'GET', url: '/api/dashboard/session' })).statusCode).toBe(
      401,
    );
    const options = await call(null, { method: 'POST', url: '/api/dashboard/sign-in/options' });
    const signedIn = await call(null, {
      method: 'POST',
      url: '/api/dashboard/sign-in',
      payload: {
        response: staff.soft.assert(
          options.json<{ options: { challenge: string } }>().options.challenge,
        ),
      },
    });
    expect(signedIn.json()).toEqual(errorBody('DASHBOARD_NOT_STAFF'));
  });

  it('recovers a lost passkey with an SMS code to a number on a team', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const staff = await staffOf(consent.client.merchantId, 'developer');
    const sent = await call(null, {
      method: 'POST',
      url: '/api/dashboard/recovery/code',
      payload: { phone: staff.phone },
    });
    expect(sent.statusCode).toBe(200);
    const recovered = await call(null, {
      method: 'POST',
      url: '/api/dashboard/recovery',
      payload: { phone: staff.phone, code: await latestCode(ctx.app, staff.phone) },
    });
    expect(recovered.statusCode, recovered.body).toBe(200);
    const cookie = cookieOf(recovered.headers['set-cookie']);
    const session = { cookie, csrf: await csrfOf(cookie) };
    expect((await call(session, { method: 'GET', url: '/api/dashboard/keys' })).json()).toEqual(
      errorBody('DASHBOARD_PASSKEY_REQUIRED'),
    );
    await makePasskey(session);
    expect((await call(session, { method: 'GET', url: '/api/dashboard/keys' })).statusCode).toBe(
      200,
    );
  });
});

describe('the Developers screen', () => {
  it('lists what this server offers, capability by capability, as readiness does', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const developer = await staffOf(consent.client.merchantId, 'developer');
    const listed = await call(developer, { method: 'GET', url: '/api/dashboard/capabilities' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(listed.json()).toEqual({
      success: true,
      capabilities: ready.json<{ capabilities: unknown[] }>().capabilities,
    });
    expect(listed.json<{ capabilities: unknown[] }>().capabilities).toContainEqual({
      capability: 'bvn',
      state: 'on',
      adapter: 'sandbox',
      providers: ['sandbox'],
      note: null,
    });
  });
});

describe('every route', () => {
  const guarded = () =>
    ctx.app.routeTable.filter(
      (route) =>
        route.url.startsWith('/api/dashboard/') &&
        !/\/(invitations\/(lookup|code|accept)|recovery(\/code)?|sign-in(\/options)?)$/.test(
          route.url,
        ),
    );
  const urlOf = (url: string) =>
    url
      .replace(':paymentId', 'pay_x')
      .replace(':staffId', 'stf_x')
      .replace(':invitationId', 'inv_x')
      .replace(':clientId', 'cli_x')
      .replace(':webhookId', 'whk_x')
      .replace(':deliveryId', '1');

  it('refuses a request with no session, or one whose session is not ours', async () => {
    expect(guarded().length).toBeGreaterThanOrEqual(20);
    for (const route of guarded()) {
      for (const cookie of [
        undefined,
        'oya_dashboard=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      ]) {
        const answer = await ctx.app.inject({
          method: route.method as 'GET',
          url: urlOf(route.url),
          headers: { origin, ...(cookie ? { cookie } : {}) },
          payload: route.method === 'GET' ? undefined : {},
        });
        expect(answer.json(), `${route.method} ${route.url}`).toEqual(
          errorBody('DASHBOARD_SIGN_IN_REQUIRED'),
        );
      }
    }
  });

  it('refuses a write without the session’s CSRF token or from another origin', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const owner = await staffOf(consent.client.merchantId, 'owner');
    for (const route of guarded().filter((r) => r.method !== 'GET')) {
      const without = await ctx.app.inject({
        method: route.method as 'POST',
        url: urlOf(route.url),
        headers: { origin, cookie: owner.cookie },
        payload: {},
      });
      expect(without.json(), `${route.method} ${route.url}`).toEqual(
        errorBody('DASHBOARD_CSRF_REFUSED'),
      );
      const foreign = await ctx.app.inject({
        method: route.method as 'POST',
        url: urlOf(route.url),
        headers: {
          origin: 'https://evil.example',
          cookie: owner.cookie,
          'x-dashboard-csrf': owner.csrf,
        },
        payload: {},
      });
      expect(foreign.json(), `${route.method} ${route.url}`).toEqual(
        errorBody('DASHBOARD_CSRF_REFUSED'),
      );
    }
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/dashboard/sign-in/options',
      headers: { origin: 'https://evil.example' },
    });
    expect(signIn.json()).toEqual(errorBody('DASHBOARD_CSRF_REFUSED'));
  });

  it('checks each route’s role on the server', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const { merchantId } = consent.client;
    const viewer = await staffOf(merchantId, 'viewer');
    const developer = await staffOf(merchantId, 'developer');
    const support = await staffOf(merchantId, 'support', 1_000);
    const forbidden = (staff: TStaff, method: string, url: string, payload?: object) =>
      call(staff, { method, url, ...(payload ? { payload } : {}) }).then((answer) =>
        expect(answer.json(), `${method} ${url}`).toEqual(errorBody('DASHBOARD_ROLE_FORBIDDEN')),
      );
    for (const staff of [viewer, developer, support]) {
      await forbidden(staff, 'GET', '/api/dashboard/team');
      await forbidden(staff, 'GET', '/api/dashboard/audit');
      await forbidden(staff, 'POST', '/api/dashboard/team/invitations', {
        phone: testPhone(),
        role: 'owner',
      });
      await forbidden(staff, 'PUT', '/api/dashboard/team/stf_x', {
        role: 'owner',
        refundLimit: null,
      });
      await forbidden(staff, 'DELETE', '/api/dashboard/team/stf_x');
      await forbidden(staff, 'DELETE', '/api/dashboard/team/invitations/inv_x');
    }
    for (const staff of [viewer, support]) {
      await forbidden(staff, 'GET', '/api/dashboard/capabilities');
      await forbidden(staff, 'GET', '/api/dashboard/keys');
      await forbidden(staff, 'POST', `/api/dashboard/keys/${consent.client.clientId}/rotate`, {
        graceHours: 1,
      });
      await forbidden(staff, 'PATCH', `/api/dashboard/keys/${consent.client.clientId}/origins`, {});
      await forbidden(staff, 'GET', '/api/dashboard/webhooks');
      await forbidden(staff, 'GET', '/api/dashboard/webhooks/deliveries');
      await forbidden(staff, 'POST', '/api/dashboard/webhooks/deliveries/1/resend');
      await forbidden(staff, 'POST', '/api/dashboard/webhooks/whk_x/enable');
      await forbidden(staff, 'POST', '/api/dashboard/webhooks/whk_x/rotate-secret');
      await forbidden(staff, 'GET', '/api/dashboard/requests');
    }
    for (const staff of [viewer, developer]) {
      await forbidden(staff, 'POST', `/api/dashboard/payments/${consent.paymentId}/refunds`, {
        amount: 100,
        reason: 'Test',
      });
      await forbidden(staff, 'GET', '/api/dashboard/banks');
    }
    // Every role reads payments.
    for (const staff of [viewer, developer, support]) {
      expect(
        (await call(staff, { method: 'GET', url: '/api/dashboard/payments' })).statusCode,
      ).toBe(200);
    }
  });
});

describe('payments', () => {
  it('finds a payment by its reference, card digits, amount, status and date', async () => {
    const { consent, owner } = await paidMerchant(123_400);
    const search = async (query: string) => {
      const answer = await call(owner, { method: 'GET', url: `/api/dashboard/payments?${query}` });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{
        payments: Array<{ paymentId: string; paidWith: string | null; createdAt: string }>;
      }>().payments;
    };
    // The Lagos day the payment was made, from its own time: the file's clock has moved on.
    const [found] = await search(`q=${consent.paymentId}`);
    const today = new Date(new Date(found?.createdAt ?? 0).getTime() + 3_600_000)
      .toISOString()
      .slice(0, 10);
    for (const query of [
      `q=${consent.paymentId}`,
      `q=${consent.consentId}`,
      'q=0003',
      'amount=123400',
      'status=executed&amount=123400',
      `from=${today}&to=${today}&amount=123400`,
    ]) {
      expect(
        (await search(query)).map((p) => p.paymentId),
        query,
      ).toEqual([consent.paymentId]);
    }
    expect((await search('q=0003'))[0]?.paidWith).toMatch(/^Card .*0003$/);
    expect(await search('status=pending&amount=123400')).toEqual([]);
    expect(await search('from=2001-01-01&to=2001-01-02')).toEqual([]);
  });

  it('says how each payment was paid, and a future one still owed as scheduled by its due date', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, {
      amount: 77_700,
      future: true,
    });
    expect((await payByTransfer(ctx.app, consent)).statusCode).toBeLessThan(300);
    const owner = await staffOf(consent.client.merchantId, 'owner');
    const listed = await call(owner, {
      method: 'GET',
      url: `/api/dashboard/payments?q=${consent.consentId}`,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const rows = listed.json<{
      payments: Array<{ type: string; status: string; paidWith: string | null; dueDate: unknown }>;
    }>().payments;
    await expect
      .poll(async () => {
        const again = await call(owner, {
          method: 'GET',
          url: `/api/dashboard/payments?q=${consent.consentId}`,
        });
        return again
          .json<{ payments: Array<{ type: string; paidWith: string | null }> }>()
          .payments.find((p) => p.type === 'immediate')?.paidWith;
      })
      .toMatch(/^Transfer( from .+)?$/);
    const future = rows.find((p) => p.type === 'future');
    expect(future).toMatchObject({ status: 'pending', paidWith: null });
    expect(future).toHaveProperty('dueDate');
    expect(future).toHaveProperty('frequency', null);
  });

  it('refunds a paid payment, shows it on the timeline and in the audit log', async () => {
    const { consent, owner } = await paidMerchant();
    const refund = await call(owner, {
      method: 'POST',
      url: `/api/dashboard/payments/${consent.paymentId}/refunds`,
      headers: { 'idempotency-key': `dash-${consent.paymentId}` },
      payload: { amount: 50_000, reason: 'Damaged item' },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    expect(refund.json()).toMatchObject({ refund: { amount: 50_000, status: 'processed' } });

    const detail = await call(owner, {
      method: 'GET',
      url: `/api/dashboard/payments/${consent.paymentId}`,
    });
    const read = detail.json<{
      refundable: number;
      timeline: Array<{ kind: string; title: string }>;
    }>();
    expect(read.refundable).toBe(200_000);
    expect(read.timeline.map((t) => t.kind)).toEqual(
      expect.arrayContaining(['created', 'attempt', 'executed', 'refund']),
    );
    expect(read.timeline.find((t) => t.kind === 'refund')?.title).toBe(
      `Refund of ${formatNaira(50_000)}: processed`,
    );

    const audit = await call(owner, { method: 'GET', url: '/api/dashboard/audit' });
    expect(audit.json<{ entries: Array<{ action: string; target: string }> }>().entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'payment.refunded', target: consent.paymentId }),
      ]),
    );
    // The audit log keeps what was written: the database refuses to change it.
    await expect(ctx.database.db.update(dashboardAudit).set({ action: 'x' })).rejects.toThrow();
  });

  it('holds a support member to the refund limit the owner set', async () => {
    const { consent } = await paidMerchant();
    const support = await staffOf(consent.client.merchantId, 'support', 10_000);
    const above = await call(support, {
      method: 'POST',
      url: `/api/dashboard/payments/${consent.paymentId}/refunds`,
      payload: { amount: 10_001, reason: 'Goodwill' },
    });
    expect(above.json()).toEqual(
      errorBody(
        'REFUND_ABOVE_STAFF_LIMIT',
        formatErrorMessage('REFUND_ABOVE_STAFF_LIMIT', { limit: formatNaira(10_000) }),
      ),
    );
    const within = await call(support, {
      method: 'POST',
      url: `/api/dashboard/payments/${consent.paymentId}/refunds`,
      payload: { amount: 10_000, reason: 'Goodwill' },
    });
    expect(within.statusCode, within.body).toBe(201);
  });

  it('asks for the payer’s account to refund a transfer that named no sender, and refunds to it', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    expect((await payByTransfer(ctx.app, consent)).json()).toMatchObject({ outcome: 'credited' });
    const owner = await staffOf(consent.client.merchantId, 'owner');
    const url = `/api/dashboard/payments/${consent.paymentId}/refunds`;
    const asked = await call(owner, {
      method: 'POST',
      url,
      payload: { amount: 100_000, reason: 'Order cancelled' },
    });
    expect(asked.json()).toEqual(errorBody('REFUND_SENDER_UNKNOWN'));
    // The form's choice of bank: the provider's banks, by name.
    const payer = sandboxAccount('links_by_auth_params');
    const banks = await call(owner, { method: 'GET', url: '/api/dashboard/banks' });
    const listed = banks.json<{ banks: Array<{ institutionCode: string; name: string }> }>().banks;
    expect(listed.map((b) => b.institutionCode)).toContain(payer.institutionCode);
    const names = listed.map((b) => b.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const given = await call(owner, {
      method: 'POST',
      url,
      payload: {
        amount: 100_000,
        reason: 'Order cancelled',
        refundTo: { institutionCode: payer.institutionCode, accountNumber: payer.accountNumber },
      },
    });
    expect(given.statusCode, given.body).toBe(201);
    expect(given.json()).toMatchObject({ refund: { amount: 100_000, status: 'processed' } });
  });

  it('shows no merchant another’s payments', async () => {
    const ours = await paidMerchant();
    const theirs = await paidMerchant();
    const list = await call(ours.owner, {
      method: 'GET',
      url: `/api/dashboard/payments?q=${theirs.consent.paymentId}`,
    });
    expect(list.json<{ payments: unknown[] }>().payments).toEqual([]);
    const read = await call(ours.owner, {
      method: 'GET',
      url: `/api/dashboard/payments/${theirs.consent.paymentId}`,
    });
    expect(read.json()).toEqual(errorBody('PAYMENT_NOT_FOUND'));
    const refund = await call(ours.owner, {
      method: 'POST',
      url: `/api/dashboard/payments/${theirs.consent.paymentId}/refunds`,
      payload: { amount: 100, reason: 'Not ours' },
    });
    expect(refund.json()).toEqual(errorBody('PAYMENT_NOT_FOUND'));
  });
});

describe('team', () => {
  it('lets the owner invite by phone, change a role and withdraw an invitation', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const owner = await staffOf(consent.client.merchantId, 'owner');
    const phone = testPhone();
    const invited = await call(owner, {
      method: 'POST',
      url: '/api/dashboard/team/invitations',
      payload: { phone, role: 'support', refundLimit: 50_000 },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    await ctx.app.jobs.drain();
    const sms = await ctx.app.inject({
      method: 'GET',
      url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
    });
    const { invitationUrl } = invited.json<{ invitationUrl: string }>();
    expect(sms.body).toContain(`Open ${invitationUrl}`);

    const accepted = await accept(tokenOf(invitationUrl), phone, 'Chidi Obi');
    expect(accepted.statusCode, accepted.body).toBe(200);
    const team = await call(owner, { method: 'GET', url: '/api/dashboard/team' });
    const member = team
      .json<{
        staff: Array<{ staffId: string; fullName: string; role: string; refundLimit: number }>;
      }>()
      .staff.find((s) => s.fullName === 'Chidi Obi');
    expect(member).toMatchObject({ role: 'support', refundLimit: 50_000 });

    const changed = await call(owner, {
      method: 'PUT',
      url: `/api/dashboard/team/${member?.staffId}`,
      payload: { role: 'viewer', refundLimit: null },
    });
    expect(changed.statusCode).toBe(200);

    const another = await call(owner, {
      method: 'POST',
      url: '/api/dashboard/team/invitations',
      payload: { phone: testPhone(), role: 'viewer' },
    });
    const { invitationId } = another.json<{ invitationId: string }>();
    const withdrawn = await call(owner, {
      method: 'DELETE',
      url: `/api/dashboard/team/invitations/${invitationId}`,
    });
    expect(withdrawn.statusCode).toBe(200);
    const lookup = await call(null, {
      method: 'POST',
      url: '/api/dashboard/invitations/lookup',
      payload: { token: tokenOf(another.json<{ invitationUrl: string }>().invitationUrl) },
    });
    expect(lookup.json()).toEqual(errorBody('INVITATION_INVALID'));
  });

  it('reaches no other merchant’s staff or invitations', async () => {
    const ours = await staffOf(
      (await consentWithPayment(ctx.app, ctx.database)).client.merchantId,
      'owner',
    );
    const theirMerchant = (await consentWithPayment(ctx.app, ctx.database)).client.merchantId;
    const theirs = await staffOf(theirMerchant, 'owner');
    const team = await call(theirs, { method: 'GET', url: '/api/dashboard/team' });
    const { staffId } = team.json<{ staff: Array<{ staffId: string }> }>().staff[0] ?? {};
    const invited = await call(theirs, {
      method: 'POST',
      url: '/api/dashboard/team/invitations',
      payload: { phone: testPhone(), role: 'viewer' },
    });
    const { invitationId } = invited.json<{ invitationId: string }>();
    for (const [method, url, payload] of [
      ['PUT', `/api/dashboard/team/${staffId}`, { role: 'viewer', refundLimit: null }],
      ['DELETE', `/api/dashboard/team/${staffId}`, undefined],
      ['DELETE', `/api/dashboard/team/invitations/${invitationId}`, undefined],
    ] as const) {
      const answer = await call(ours, { method, url, payload });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    const theirTeam = await call(theirs, { method: 'GET', url: '/api/dashboard/team' });
    expect(theirTeam.json<{ staff: Array<{ role: string }> }>().staff[0]?.role).toBe('owner');
  });
});

describe('developers', () => {
  it('lists webhook deliveries with their request, resends one, and reaches no other merchant’s', async () => {
    const { consent, owner } = await paidMerchant();
    const hook = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: consent.client.authorization },
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const refund = await call(owner, {
      method: 'POST',
      url: `/api/dashboard/payments/${consent.paymentId}/refunds`,
      payload: { amount: 1_000, reason: 'Webhook test' },
    });
    expect(refund.statusCode).toBe(201);

    const webhooks = await call(owner, { method: 'GET', url: '/api/dashboard/webhooks' });
    expect(webhooks.json<{ webhooks: Array<{ url: string }> }>().webhooks).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:9/hooks', status: 'active' }),
    ]);
    const deliveries = await call(owner, {
      method: 'GET',
      url: '/api/dashboard/webhooks/deliveries',
    });
    const [delivery] = deliveries.json<{
      deliveries: Array<{ id: number; eventType: string; request: string; status: string }>;
    }>().deliveries;
    expect(delivery?.eventType).toBe('refund.processed');
    expect(JSON.parse(delivery?.request ?? '{}')).toMatchObject({
      type: 'refund.processed',
      data: { paymentId: consent.paymentId, amount: 1_000 },
    });

    const resent = await call(owner, {
      method: 'POST',
      url: `/api/dashboard/webhooks/deliveries/${delivery?.id}/resend`,
    });
    expect(resent.statusCode, resent.body).toBe(200);

    const other = await paidMerchant();
    const theirs = await call(other.owner, {
      method: 'POST',
      url: `/api/dashboard/webhooks/deliveries/${delivery?.id}/resend`,
    });
    expect(theirs.statusCode).toBe(404);
    const theirList = await call(other.owner, {
      method: 'GET',
      url: '/api/dashboard/webhooks/deliveries',
    });
    expect(theirList.json<{ deliveries: unknown[] }>().deliveries).toEqual([]);
    const theirWebhookId = webhooks.json<{ webhooks: Array<{ webhookId: string }> }>().webhooks[0]
      ?.webhookId;
    for (const action of ['enable', 'rotate-secret']) {
      const answer = await call(other.owner, {
        method: 'POST',
        url: `/api/dashboard/webhooks/${theirWebhookId}/${action}`,
      });
      expect(answer.statusCode, action).toBe(404);
    }
  });

  it('rotates an API key with a grace period, and logs the merchant API’s requests', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const developer = await staffOf(consent.client.merchantId, 'developer');
    const keys = await call(developer, { method: 'GET', url: '/api/dashboard/keys' });
    expect(keys.json<{ keys: Array<{ clientId: string }> }>().keys).toEqual([
      expect.objectContaining({ clientId: consent.client.clientId }),
    ]);
    const rotated = await call(developer, {
      method: 'POST',
      url: `/api/dashboard/keys/${consent.client.clientId}/rotate`,
      payload: { graceHours: 24 },
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, previousSecretValidUntil } = rotated.json<{
      secret: string;
      previousSecretValidUntil: string;
    }>();
    expect(previousSecretValidUntil).not.toBeNull();
    const basic = (s: string) =>
      `Basic ${Buffer.from(`${consent.client.clientId}:${s}`).toString('base64')}`;
    // Both secrets work during the grace period.
    for (const s of [consent.client.secret, secret]) {
      const read = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/webhooks',
        headers: { authorization: basic(s), 'idempotency-key': 'not-needed' },
      });
      expect(read.statusCode).toBe(200);
    }
    const log = await call(developer, { method: 'GET', url: '/api/dashboard/requests' });
    const requests = log.json<{
      requests: Array<{ method: string; path: string; status: number }>;
    }>().requests;
    expect(requests.filter((r) => r.path === '/api/v1/webhooks')).toHaveLength(2);
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: '/api/v1/consents', status: 201 }),
      ]),
    );

    const other = await staffOf(
      (await consentWithPayment(ctx.app, ctx.database)).client.merchantId,
      'owner',
    );
    const theirs = await call(other, {
      method: 'POST',
      url: `/api/dashboard/keys/${consent.client.clientId}/rotate`,
      payload: { graceHours: 0 },
    });
    expect(theirs.statusCode).toBe(404);
    const theirLog = await call(other, { method: 'GET', url: '/api/dashboard/requests' });
    expect(
      theirLog
        .json<{ requests: Array<{ clientId: string }> }>()
        .requests.some((r) => r.clientId === consent.client.clientId),
    ).toBe(false);
  });

  it('logs every one of many merchant requests that come at once', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const developer = await staffOf(consent.client.merchantId, 'developer');
    // Written a batch at a time (openRequestLog): none is lost.
    const keys = Array.from({ length: 30 }, (_, i) => `burst-${i}`);
    const answers = await Promise.all(
      keys.map((key) =>
        ctx.app.inject({
          method: 'GET',
          url: '/api/v1/webhooks',
          headers: { authorization: consent.client.authorization, 'idempotency-key': key },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(keys.map(() => 200));
    const log = await call(developer, { method: 'GET', url: '/api/dashboard/requests' });
    const logged = log
      .json<{ requests: Array<{ idempotencyKey: string | null }> }>()
      .requests.map((r) => r.idempotencyKey)
      .filter((key) => key?.startsWith('burst-'));
    expect(logged.sort()).toEqual([...keys].sort());
  });
});

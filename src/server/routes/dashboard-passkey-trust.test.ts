// A dashboard passkey added with an SMS code alone (docs/dashboard.md "Getting in"): a recovery
// by SMS code reads everything at once, but refunds, cancels and changes nothing until the payers'
// own wait (domain/passkey-trust.ts) is over, so a swapped SIM opens no money or settings; a
// member with no passkey left is no exception, and the team's other owners hear of it at once. A
// session is its passkey's: the passkey's removal ends it.
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorBody, formatErrorMessage } from '../../domain/errors';
import { teamPasskeyMessage, UNAPPROVED_PASSKEY_WAIT_MS } from '../../domain/passkey-trust';
import { formatLagosDateTime } from '../../domain/payment-date';
import { formatNigerianPhone, toNigerianE164 } from '../../domain/schemas/auth';
import { dashboardSessions, passkeys } from '../db/schema';
import { operatorActor } from '../services/dashboard/audit';
import { createInvitation } from '../services/dashboard/staff';
import { PASSKEY_ADDED_BY_CODE } from '../services/dashboard/team-passkey-notices';
import {
  acceptInvitation,
  cookieOf,
  csrfOf,
  dashboardCall,
  invitationToken,
  makeStaffPasskey,
  recoverStaffPasskey,
  staffMember,
  type TStaff,
  type TStaffSession,
} from '../testing/dashboard';
import {
  addPasskey,
  codeSession,
  signUp,
  softAuthenticatorFor,
  stepUp,
  testPhone,
} from '../testing/identity';
import { consentWithPayment, payByCard } from '../testing/payments';
import type { SoftAuthenticator } from '../testing/soft-authenticator';
import { useTestApp, testClock } from '../testing/test-app';

const clock = testClock(new Date());

const ctx = useTestApp({ clock });

/** The id of the authenticator's newest passkey, as the server keeps it. */
const credentialOf = (soft: SoftAuthenticator) =>
  soft.credentials.at(-1)?.id.toString('base64url') ?? '';

const call = (staff: TStaffSession | null, options: InjectOptions) =>
  dashboardCall(ctx, staff, options);

const recover = (phone: string) => recoverStaffPasskey(ctx, phone);

async function signIn(soft: SoftAuthenticator): Promise<TStaffSession> {
  const options = await call(null, { method: 'POST', url: '/api/dashboard/sign-in/options' });
  const signedIn = await call(null, {
    method: 'POST',
    url: '/api/dashboard/sign-in',
    payload: {
      response: soft.assert(options.json<{ options: { challenge: string } }>().options.challenge),
    },
  });
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const cookie = cookieOf(signedIn.headers['set-cookie']);
  return { cookie, csrf: await csrfOf(ctx, cookie) };
}

const refund = (staff: TStaffSession, paymentId: string, key: string) =>
  call(staff, {
    method: 'POST',
    url: `/api/dashboard/payments/${paymentId}/refunds`,
    headers: { 'idempotency-key': key },
    payload: { amount: 10_000, reason: 'Damaged item' },
  });

describe('a passkey added with an SMS code', () => {
  it('reads at once, and refunds, invites or rotates nothing until the wait is over', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { amount: 250_000 });
    expect((await payByCard(ctx.app, consent)).json()).toMatchObject({
      message: 'Payment successful',
    });
    const owner = await staffMember(
      ctx,
      { merchantId: consent.client.merchantId, role: 'owner' },
      clock.now(),
    );
    const { session, soft } = await recover(owner.phone);
    const [added] = await ctx.database.db
      .select({ createdAt: passkeys.createdAt, approval: passkeys.approval })
      .from(passkeys)
      .where(eq(passkeys.id, credentialOf(soft)));
    expect(added?.approval).toBe('none');
    const changesFrom = new Date(
      (added?.createdAt ?? clock.now()).getTime() + UNAPPROVED_PASSKEY_WAIT_MS,
    );

    // Reads work, and the session says from when changes will.
    const read = await call(session, { method: 'GET', url: '/api/dashboard/session' });
    expect(read.json()).toMatchObject({
      method: 'passkey',
      changesFrom: changesFrom.toISOString(),
    });
    const payments = await call(session, { method: 'GET', url: '/api/dashboard/payments' });
    expect(payments.statusCode, payments.body).toBe(200);

    // Money, the team and the keys wait, whichever the route.
    const waiting = errorBody(
      'DASHBOARD_PASSKEY_NOT_YET_TRUSTED',
      formatErrorMessage('DASHBOARD_PASSKEY_NOT_YET_TRUSTED', {
        changesFrom: formatLagosDateTime(changesFrom),
      }),
    );
    const refused = await refund(session, consent.paymentId, `trust-${consent.paymentId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(waiting);
    const invite = await call(session, {
      method: 'POST',
      url: '/api/dashboard/team/invitations',
      payload: { phone: '08030000001', role: 'owner' },
    });
    expect(invite.json()).toEqual(waiting);
    const rotate = await call(session, {
      method: 'POST',
      url: `/api/dashboard/keys/${consent.client.clientId}/rotate`,
    });
    expect(rotate.json()).toEqual(waiting);
    // Signing out is no change: it works.
    const out = await call(session, { method: 'POST', url: '/api/dashboard/sign-out' });
    expect(out.statusCode, out.body).toBe(200);

    // After the wait, a sign-in with the same passkey refunds.
    clock.advance(UNAPPROVED_PASSKEY_WAIT_MS + 1_000);
    const later = await signIn(soft);
    const session2 = await call(later, { method: 'GET', url: '/api/dashboard/session' });
    expect(session2.json()).toMatchObject({ changesFrom: null });
    const refunded = await refund(later, consent.paymentId, `trust-later-${consent.paymentId}`);
    expect(refunded.statusCode, refunded.body).toBe(201);
  });

  it('leaves an invited member’s first passkey free to change things at once', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { amount: 250_000 });
    await payByCard(ctx.app, consent);
    const owner = await staffMember(
      ctx,
      { merchantId: consent.client.merchantId, role: 'owner' },
      clock.now(),
    );
    expect(
      (await call(owner, { method: 'GET', url: '/api/dashboard/session' })).json(),
    ).toMatchObject({ changesFrom: null });
    const refunded = await refund(owner, consent.paymentId, `first-${consent.paymentId}`);
    expect(refunded.statusCode, refunded.body).toBe(201);
  });
});

describe('a session and its passkey', () => {
  it('ends when its passkey is removed', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const owner = await staffMember(
      ctx,
      { merchantId: consent.client.merchantId, role: 'owner' },
      clock.now(),
    );
    await ctx.database.db.delete(passkeys).where(eq(passkeys.id, credentialOf(owner.soft)));
    const after = await call(owner, { method: 'GET', url: '/api/dashboard/session' });
    expect(after.json()).toEqual(errorBody('DASHBOARD_SIGN_IN_REQUIRED'));
  });

  it('asks a passkey’s session that names no passkey to sign in again', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const owner = await staffMember(
      ctx,
      { merchantId: consent.client.merchantId, role: 'owner' },
      clock.now(),
    );
    await ctx.database.db
      .update(dashboardSessions)
      .set({ passkeyId: null })
      .where(eq(dashboardSessions.passkeyId, credentialOf(owner.soft)));
    const after = await call(owner, { method: 'GET', url: '/api/dashboard/session' });
    expect(after.json()).toEqual(errorBody('DASHBOARD_SIGN_IN_REQUIRED'));
  });
});

/** What the sandbox sent `phone`, newest first. */
async function messagesTo(phone: string): Promise<string[]> {
  const outbox = await ctx.app.inject({
    method: 'GET',
    url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  });
  return outbox.json<{ messages: Array<{ body: string }> }>().messages.map((m) => m.body);
}

const e164 = (phone: string) => toNigerianE164(phone) ?? phone;

/** A merchant with a paid payment, and an owner with a passkey who is not the member at risk. */
async function merchantWithOwner() {
  const consent = await consentWithPayment(ctx.app, ctx.database, {
    amount: 250_000,
    future: true,
  });
  expect((await payByCard(ctx.app, consent)).json()).toMatchObject({
    message: 'Payment successful',
  });
  const owner = await staffMember(
    ctx,
    { merchantId: consent.client.merchantId, role: 'owner' },
    clock.now(),
  );
  return { consent, owner };
}

/** Accepts an operator's owner invitation to `merchantId` as `phone`, and makes no passkey. */
async function joinWithoutPasskey(merchantId: string, phone: string) {
  const invited = await createInvitation(
    ctx.database.db,
    ctx.config,
    {
      merchantId,
      role: 'owner',
      refundLimit: null,
      phoneNumber: null,
      invitedBy: operatorActor(merchantId),
    },
    clock.now(),
  );
  const accepted = await acceptInvitation(ctx, invitationToken(invited.invitationUrl), phone);
  expect(accepted.statusCode, accepted.body).toBe(200);
}

/** Every changing act of the dashboard an owner may do, as the page asks it. */
function changingActs(consent: Awaited<ReturnType<typeof consentWithPayment>>, otherOwner: string) {
  const { clientId } = consent.client;
  const acts: InjectOptions[] = [
    { method: 'POST', url: `/api/dashboard/keys/${clientId}/rotate`, payload: { graceHours: 0 } },
    {
      method: 'PATCH',
      url: `/api/dashboard/keys/${clientId}/origins`,
      payload: { add: ['https://thief.example'] },
    },
    {
      method: 'POST',
      url: '/api/dashboard/team/invitations',
      payload: { phone: testPhone(), role: 'owner' },
    },
    {
      method: 'PUT',
      url: `/api/dashboard/team/${otherOwner}`,
      payload: { role: 'viewer', refundLimit: null },
    },
    { method: 'DELETE', url: `/api/dashboard/team/${otherOwner}` },
    {
      method: 'POST',
      url: `/api/dashboard/payments/${consent.paymentId}/refunds`,
      headers: { 'idempotency-key': `thief-${consent.paymentId}` },
      payload: { amount: 10_000, reason: 'Damaged item' },
    },
    {
      method: 'POST',
      url: `/api/dashboard/consents/${consent.consentId}/cancel-future-payments`,
      payload: { reason: 'No longer needed' },
    },
    {
      method: 'POST',
      url: '/api/dashboard/webhooks',
      payload: { clientId, url: 'https://thief.example/hooks', events: null },
    },
    {
      method: 'PATCH',
      url: '/api/dashboard/webhooks/whk_any',
      payload: { url: 'https://thief.example/hooks' },
    },
    { method: 'POST', url: '/api/dashboard/webhooks/whk_any/disable' },
    { method: 'DELETE', url: '/api/dashboard/webhooks/whk_any' },
    { method: 'POST', url: '/api/dashboard/webhooks/whk_any/enable' },
    { method: 'POST', url: '/api/dashboard/webhooks/whk_any/rotate-secret' },
    { method: 'POST', url: '/api/dashboard/webhooks/deliveries/dlv_any/resend' },
  ];
  return acts;
}

/**
 * The member's new passkey (`passkeyId`, in `session`) was added with an SMS code alone: it reads,
 * changes nothing for 24 hours, and the team's other owner hears of it by SMS and in the audit log.
 */
async function expectHeldAndTold(input: {
  consent: Awaited<ReturnType<typeof consentWithPayment>>;
  owner: TStaff;
  member: { phone: string; fullName: string };
  session: TStaffSession;
  passkeyId: string;
}) {
  const { consent, owner, member, session, passkeyId } = input;
  const [added] = await ctx.database.db
    .select({ createdAt: passkeys.createdAt, approval: passkeys.approval })
    .from(passkeys)
    .where(eq(passkeys.id, passkeyId));
  expect(added?.approval).toBe('none');
  const addedAt = added?.createdAt ?? clock.now();
  const changesFrom = new Date(addedAt.getTime() + UNAPPROVED_PASSKEY_WAIT_MS);

  // Reading works, and the session says from when changes will.
  const read = await call(session, { method: 'GET', url: '/api/dashboard/session' });
  expect(read.json()).toMatchObject({ method: 'passkey', changesFrom: changesFrom.toISOString() });
  expect((await call(session, { method: 'GET', url: '/api/dashboard/payments' })).statusCode).toBe(
    200,
  );
  const team = await call(session, { method: 'GET', url: '/api/dashboard/team' });
  expect(team.statusCode, team.body).toBe(200);
  const otherOwner = team
    .json<{ staff: Array<{ staffId: string; phoneNumber: string }> }>()
    .staff.find((s) => s.phoneNumber === formatNigerianPhone(e164(owner.phone)));
  expect(otherOwner).toBeDefined();

  // No changing act goes through.
  const waiting = errorBody(
    'DASHBOARD_PASSKEY_NOT_YET_TRUSTED',
    formatErrorMessage('DASHBOARD_PASSKEY_NOT_YET_TRUSTED', {
      changesFrom: formatLagosDateTime(changesFrom),
    }),
  );
  for (const act of changingActs(consent, otherOwner?.staffId ?? '')) {
    const refused = await call(session, act);
    expect({ url: act.url, status: refused.statusCode, body: refused.json() }).toEqual({
      url: act.url,
      status: 409,
      body: waiting,
    });
  }

  // The member's number is told as any payer's, and the other owner by SMS, at once.
  expect((await messagesTo(member.phone)).some((m) => m.startsWith('A new device'))).toBe(true);
  const told = teamPasskeyMessage({
    productName: ctx.config.productName,
    memberName: member.fullName,
    memberPhone: formatNigerianPhone(e164(member.phone)),
    merchantName: 'Tola Stores',
    addedAt,
    changesFrom,
    teamPageUrl: `${ctx.config.publicUrl}/dashboard/team`,
  });
  await expect.poll(async () => messagesTo(owner.phone)).toContain(told);

  // And the team's audit log keeps it, under the member's name.
  const audit = await call(owner, { method: 'GET', url: '/api/dashboard/audit' });
  expect(audit.json<{ entries: unknown[] }>().entries).toContainEqual(
    expect.objectContaining({
      actor: `${member.fullName} (${formatNigerianPhone(e164(member.phone))})`,
      action: PASSKEY_ADDED_BY_CODE,
      target: passkeyId,
      data: { changesFrom: changesFrom.toISOString() },
    }),
  );
}

describe('a member with no passkey, recovered by an SMS code', () => {
  it('who removed their last passkey: the new one changes nothing for 24 h, and the team is told', async () => {
    const { consent, owner } = await merchantWithOwner();
    const member = await staffMember(
      ctx,
      { merchantId: consent.client.merchantId, role: 'owner' },
      clock.now(),
    );
    // On their account page, proven by that passkey, the member removes it: their last.
    const token = await codeSession(ctx.app, member.phone);
    expect((await stepUp(ctx.app, token, member.soft)).statusCode).toBe(200);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/auth/passkeys/${credentialOf(member.soft)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(removed.json()).toEqual({ success: true, passkeyCount: 0 });

    const { session, soft } = await recover(member.phone);
    await expectHeldAndTold({
      consent,
      owner,
      member: { phone: member.phone, fullName: 'Bisi Adeyemi' },
      session,
      passkeyId: credentialOf(soft),
    });
  });

  it('who accepted an invitation and never made one: the same', async () => {
    const { consent, owner } = await merchantWithOwner();
    const phone = testPhone();
    await joinWithoutPasskey(consent.client.merchantId, phone);

    const { session, soft } = await recover(phone);
    await expectHeldAndTold({
      consent,
      owner,
      member: { phone, fullName: 'Bisi Adeyemi' },
      session,
      passkeyId: credentialOf(soft),
    });
  });

  it('who is a payer with nothing: a passkey made on the payer’s page waits on the dashboard too', async () => {
    const { consent, owner } = await merchantWithOwner();
    const phone = testPhone();
    await signUp(ctx.app, phone, 'Adaeze Okonkwo');
    await joinWithoutPasskey(consent.client.merchantId, phone);

    // A code on the payer's page, a passkey there, and with it a dashboard sign-in.
    const soft = softAuthenticatorFor(ctx.config);
    const added = await addPasskey(ctx.app, await codeSession(ctx.app, phone), soft);
    expect(added.approval).toBe('none');
    await expectHeldAndTold({
      consent,
      owner,
      member: { phone, fullName: 'Adaeze Okonkwo' },
      session: await signIn(soft),
      passkeyId: added.passkeyId,
    });
  });

  it('on another merchant’s team: joining one more team with a new passkey waits too', async () => {
    const { consent, owner } = await merchantWithOwner();
    const phone = testPhone();
    await joinWithoutPasskey(consent.client.merchantId, phone);
    const other = await consentWithPayment(ctx.app, ctx.database);

    const invited = await createInvitation(
      ctx.database.db,
      ctx.config,
      {
        merchantId: other.client.merchantId,
        role: 'viewer',
        refundLimit: null,
        phoneNumber: null,
        invitedBy: operatorActor(other.client.merchantId),
      },
      clock.now(),
    );
    const accepted = await acceptInvitation(ctx, invitationToken(invited.invitationUrl), phone);
    const cookie = cookieOf(accepted.headers['set-cookie']);
    const soft = await makeStaffPasskey(ctx, { cookie, csrf: await csrfOf(ctx, cookie) });
    const [added] = await ctx.database.db
      .select({ approval: passkeys.approval })
      .from(passkeys)
      .where(eq(passkeys.id, credentialOf(soft)));
    expect(added?.approval).toBe('none');
    // The first team's owner hears of it.
    await expect
      .poll(async () => (await messagesTo(owner.phone)).some((m) => m.includes('Bisi Adeyemi')))
      .toBe(true);
  });
});

// A dashboard passkey added with an SMS code alone (docs/dashboard.md "Sessions"): a recovery
// by SMS code reads everything at once, but refunds, cancels and changes nothing until the payers'
// own wait (domain/passkey-trust.ts) is over, so a swapped SIM opens no money or settings. A
// session is its passkey's: the passkey's removal ends it.
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, formatErrorMessage } from '../../domain/errors';
import { UNAPPROVED_PASSKEY_WAIT_MS } from '../../domain/passkey-trust';
import { formatLagosDateTime } from '../../domain/payment-date';
import { dashboardSessions, passkeys } from '../db/schema';
import {
  cookieOf,
  csrfOf,
  dashboardCall,
  makeStaffPasskey,
  staffMember,
  type TStaffSession,
} from '../testing/dashboard';
import { latestCode } from '../testing/identity';
import { consentWithPayment, payByCard } from '../testing/payments';
import type { SoftAuthenticator } from '../testing/soft-authenticator';
import { startTestApp, testClock } from '../testing/test-app';

const clock = testClock(new Date());
let ctx: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  ctx = await startTestApp({ clock });
});
afterAll(async () => {
  await ctx.close();
});

/** The id of the authenticator's newest passkey, as the server keeps it. */
const credentialOf = (soft: SoftAuthenticator) =>
  soft.credentials.at(-1)?.id.toString('base64url') ?? '';

const call = (staff: TStaffSession | null, options: InjectOptions) =>
  dashboardCall(ctx, staff, options);

/** Recovers `phone`'s dashboard access with an SMS code and makes a new passkey. */
async function recover(phone: string) {
  const sent = await call(null, {
    method: 'POST',
    url: '/api/dashboard/recovery/code',
    payload: { phone },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const recovered = await call(null, {
    method: 'POST',
    url: '/api/dashboard/recovery',
    payload: { phone, code: await latestCode(ctx.app, phone) },
  });
  expect(recovered.statusCode, recovered.body).toBe(200);
  const cookie = cookieOf(recovered.headers['set-cookie']);
  const session = { cookie, csrf: await csrfOf(ctx, cookie) };
  const soft = await makeStaffPasskey(ctx, session);
  return { session, soft };
}

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

// SMS pumping (docs/security.md "Rate limits"): every SMS a call makes us send, whatever it says,
// counts against the limits of its number, of the payer or staff member whose call it is, and
// of its address, then the overall ceiling; notices of one kind to one person within a few
// minutes are one SMS. The server trusts X-Forwarded-For here (TRUST_PROXY=true) and each call
// names a new address in it, as an attacker behind such a set-up can: the number's and the
// person's limits hold all the same. An SMS to the signed-in person's own number is not counted
// by the number, and a team's notices to its owners are counted against no one's limits. The
// app's clock stands still, so notices coalesced within one window never straddle two.
import { count, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TWebAuthnOptions } from '../../domain/schemas/auth';
import { toNigerianE164 } from '../../domain/schemas/auth';
import { smsQueue } from '../db/schema';
import { DEFAULT_RATE_LIMITS } from '../rate-limits';
import {
  cookieOf,
  csrfOf,
  dashboardCall,
  staffMember,
  type TStaffSession,
} from '../testing/dashboard';
import {
  addPasskey,
  codeSession,
  latestCode,
  provenPayer,
  signUp,
  softAuthenticatorFor,
  testPhone,
} from '../testing/identity';
import { expectRateLimited } from '../testing/rate-limits';
import { createTestClient, startTestApp, useTestApp, testClock } from '../testing/test-app';

const { smsPerNumber, smsPerAccount, smsPerAddress, smsOverall } = DEFAULT_RATE_LIMITS;

const ctx = useTestApp({
  // A real clock could cross a notice window's boundary mid-test: two SMS where one is meant.
  clock: testClock(new Date()),
  env: { TRUST_PROXY: 'true' },
  rateLimits: { smsPerNumber, smsPerAccount, smsPerAddress, smsOverall },
});

let addressSeq = 0;
/** An X-Forwarded-For naming an address no other call named. */
const newAddress = () => {
  addressSeq += 1;
  return { 'x-forwarded-for': `10.9.${addressSeq >> 8}.${addressSeq & 255}` };
};

/** The SMS queued so far to `phone` (by the app `on`). */
async function smsTo(phone: string, on: { database: typeof ctx.database } = ctx): Promise<number> {
  const [row] = await on.database.db
    .select({ n: count() })
    .from(smsQueue)
    .where(eq(smsQueue.phoneNumber, toNigerianE164(phone) ?? phone));
  return row?.n ?? 0;
}

/** A passkey made on a new authenticator for the payer of `token`, from a new address. */
async function newPayerPasskey(token: string) {
  const authorization = `Bearer ${token}`;
  const options = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/passkeys/registration-options',
    headers: { authorization, ...newAddress() },
  });
  expect(options.statusCode, options.body).toBe(200);
  const soft = softAuthenticatorFor(ctx.config);
  const response = soft.register(options.json<{ options: TWebAuthnOptions }>().options);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/passkeys',
    headers: { authorization, ...newAddress() },
    payload: { response },
  });
}

describe('a payer adding passkeys', () => {
  it('is told once by SMS of the passkeys added within a few minutes, whatever address asks', async () => {
    const phone = testPhone();
    const { token } = await signUp(ctx.app, phone);
    await addPasskey(ctx.app, token, softAuthenticatorFor(ctx.config));
    const before = await smsTo(phone);

    for (let i = 0; i < 12; i += 1) {
      const saved = await newPayerPasskey(token);
      expect(saved.statusCode, saved.body).toBe(201);
    }
    // Queued with each passkey, before its call answered: twelve passkeys kept, one SMS.
    expect((await smsTo(phone)) - before).toBe(1);
  });
});

describe('a passkey removal scheduled and cancelled again and again', () => {
  it('sends its SMS up to the payer’s limit, then refuses the removal with 429', async () => {
    const phone = testPhone();
    const { token: proven } = await signUp(ctx.app, phone);
    const soft = softAuthenticatorFor(ctx.config);
    const { passkeyId } = await addPasskey(ctx.app, proven, soft);
    const byCode = await codeSession(ctx.app, phone);
    const before = await smsTo(phone);

    const statuses: number[] = [];
    for (let round = 0; round < 15; round += 1) {
      const scheduled = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/auth/passkeys/${passkeyId}`,
        headers: { authorization: `Bearer ${byCode}`, ...newAddress() },
      });
      statuses.push(scheduled.statusCode);
      if (scheduled.statusCode === 429) {
        expectRateLimited(scheduled, smsPerAccount.windowMs);
        continue;
      }
      const cancelled = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/auth/passkeys/${passkeyId}/removal`,
        headers: { authorization: `Bearer ${proven}`, ...newAddress() },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
    }
    expect(statuses).toEqual([
      ...Array<number>(smsPerAccount.max).fill(202),
      ...Array<number>(15 - smsPerAccount.max).fill(429),
    ]);
    expect((await smsTo(phone)) - before).toBe(smsPerAccount.max);
  });
});

describe('a payer whose number strangers fill with sign-in codes', () => {
  it('still has a passkey removal scheduled, its SMS sent to their own number', async () => {
    // The number's limit below its own code limit, so that sign-in codes alone fill it.
    const small = await startTestApp({
      env: { TRUST_PROXY: 'true' },
      rateLimits: {
        smsPerNumber: { ...smsPerNumber, max: 5 },
        smsPerAccount,
        smsPerAddress,
        smsOverall,
      },
    });
    try {
      const phone = testPhone();
      const { token: proven } = await signUp(small.app, phone);
      const { passkeyId } = await addPasskey(small.app, proven, softAuthenticatorFor(small.config));
      const byCode = await codeSession(small.app, phone);
      const asks = [];
      for (let i = 0; i < 5; i += 1) {
        asks.push(
          await small.app.inject({
            method: 'POST',
            url: '/api/auth/phone-codes',
            headers: newAddress(),
            payload: { phone },
          }),
        );
      }
      // The number is full: codes for it are refused, whoever asks.
      expect(asks.at(-1)?.statusCode).toBe(429);
      const before = await smsTo(phone, small);

      const scheduled = await small.app.inject({
        method: 'DELETE',
        url: `/api/auth/passkeys/${passkeyId}`,
        headers: { authorization: `Bearer ${byCode}`, ...newAddress() },
      });
      expect(scheduled.statusCode, scheduled.body).toBe(202);
      expect((await smsTo(phone, small)) - before).toBe(1);
    } finally {
      await small.close();
    }
  });
});

describe('the dashboard', () => {
  const dashboardPost = (staff: TStaffSession | null, options: InjectOptions) =>
    dashboardCall(ctx, staff, {
      method: 'POST',
      ...options,
      headers: { ...(options.headers as object), ...newAddress() },
    });

  it('tells each owner once of a viewer’s passkeys added by SMS code within a few minutes', async () => {
    const { merchantId } = await createTestClient(ctx.database, { name: 'Buka Hut' });
    const now = new Date();
    const owners = [
      await staffMember(ctx, { merchantId, role: 'owner' }, now),
      await staffMember(ctx, { merchantId, role: 'owner' }, now),
      await staffMember(ctx, { merchantId, role: 'owner' }, now),
    ];
    const viewer = await staffMember(ctx, { merchantId, role: 'viewer' }, now);
    const sent = await dashboardPost(null, {
      url: '/api/dashboard/recovery/code',
      payload: { phone: viewer.phone },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const recovered = await dashboardPost(null, {
      url: '/api/dashboard/recovery',
      payload: { phone: viewer.phone, code: await latestCode(ctx.app, viewer.phone) },
    });
    expect(recovered.statusCode, recovered.body).toBe(200);
    const cookie = cookieOf(recovered.headers['set-cookie']);
    const session = { cookie, csrf: await csrfOf(ctx, cookie) };
    const before = await Promise.all([viewer, ...owners].map((s) => smsTo(s.phone)));

    for (let i = 0; i < 10; i += 1) {
      const options = await dashboardPost(session, { url: '/api/dashboard/passkeys/options' });
      expect(options.statusCode, options.body).toBe(200);
      const soft = softAuthenticatorFor(ctx.config);
      const response = soft.register(options.json<{ options: TWebAuthnOptions }>().options);
      const saved = await dashboardPost(session, {
        url: '/api/dashboard/passkeys',
        payload: { response },
      });
      expect(saved.statusCode, saved.body).toBe(201);
    }
    const after = await Promise.all([viewer, ...owners].map((s) => smsTo(s.phone)));
    // One "new device" SMS to the viewer, one notice to each owner: 4, not 40.
    expect(after.map((n, i) => n - (before[i] ?? 0))).toEqual([1, 1, 1, 1]);
  });

  it('lets a viewer add a passkey whose team has more owners than the viewer’s SMS limit', async () => {
    const { merchantId } = await createTestClient(ctx.database, { name: 'Suya Spot' });
    const now = new Date();
    const owners = [];
    for (let i = 0; i <= smsPerAccount.max; i += 1) {
      owners.push(await staffMember(ctx, { merchantId, role: 'owner' }, now));
    }
    const viewer = await staffMember(ctx, { merchantId, role: 'viewer' }, now);
    await dashboardPost(null, {
      url: '/api/dashboard/recovery/code',
      payload: { phone: viewer.phone },
    });
    const recovered = await dashboardPost(null, {
      url: '/api/dashboard/recovery',
      payload: { phone: viewer.phone, code: await latestCode(ctx.app, viewer.phone) },
    });
    expect(recovered.statusCode, recovered.body).toBe(200);
    const cookie = cookieOf(recovered.headers['set-cookie']);
    const session = { cookie, csrf: await csrfOf(ctx, cookie) };
    const before = await Promise.all(owners.map((s) => smsTo(s.phone)));

    const options = await dashboardPost(session, { url: '/api/dashboard/passkeys/options' });
    expect(options.statusCode, options.body).toBe(200);
    const response = softAuthenticatorFor(ctx.config).register(
      options.json<{ options: TWebAuthnOptions }>().options,
    );
    const saved = await dashboardPost(session, {
      url: '/api/dashboard/passkeys',
      payload: { response },
    });
    // The owners' notices count against none of the viewer's limits: every owner is told.
    expect(saved.statusCode, saved.body).toBe(201);
    const after = await Promise.all(owners.map((s) => smsTo(s.phone)));
    expect(after.map((n, i) => n - (before[i] ?? 0))).toEqual(owners.map(() => 1));
  });

  it('sends an owner’s invitations up to the owner’s limit, then refuses them with 429', async () => {
    const { merchantId } = await createTestClient(ctx.database, { name: 'Jollof Corner' });
    const owner = await staffMember(ctx, { merchantId, role: 'owner' }, new Date());
    const phones = Array.from({ length: 30 }, () => testPhone());
    const answers = [];
    for (const phone of phones) {
      answers.push(
        await dashboardPost(owner, {
          url: '/api/dashboard/team/invitations',
          payload: { phone, role: 'viewer' },
        }),
      );
    }
    expect(answers.map((a) => a.statusCode)).toEqual([
      ...Array<number>(smsPerAccount.max).fill(201),
      ...Array<number>(30 - smsPerAccount.max).fill(429),
    ]);
    const refused = answers.at(-1);
    if (refused) expectRateLimited(refused, smsPerAccount.windowMs);
    const sent = await Promise.all(phones.map((phone) => smsTo(phone)));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(smsPerAccount.max);
  });
});

describe('the overall SMS ceiling', () => {
  /** An app whose ceiling is 20 SMS, the other SMS limits their defaults. */
  const smallCeiling = () =>
    startTestApp({
      env: { TRUST_PROXY: 'true' },
      rateLimits: {
        smsPerNumber,
        smsPerAccount,
        smsPerAddress,
        smsOverall: { ...smsOverall, max: 20 },
      },
    });

  it('is not spent by codes asked for one number from address after address', async () => {
    const small = await smallCeiling();
    try {
      const victim = testPhone();
      const asks = [];
      for (let i = 0; i < 40; i += 1) {
        asks.push(
          await small.app.inject({
            method: 'POST',
            url: '/api/auth/phone-codes',
            headers: newAddress(),
            payload: { phone: victim },
          }),
        );
      }
      // The number's own limit refuses all but its first codes; none of the refused ones counts.
      expect(asks.filter((a) => a.statusCode === 200)).toHaveLength(10);
      expect(asks.slice(10).every((a) => a.statusCode === 429)).toBe(true);

      // Another payer still gets a code.
      const other = await small.app.inject({
        method: 'POST',
        url: '/api/auth/phone-codes',
        headers: newAddress(),
        payload: { phone: testPhone() },
      });
      expect(other.statusCode, other.body).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('is not spent by one payer asking codes for number after number', async () => {
    const small = await smallCeiling();
    try {
      const payer = await provenPayer(small.app, small.config);
      const asks = [];
      for (let i = 0; i < 30; i += 1) {
        asks.push(
          await small.app.inject({
            method: 'POST',
            url: '/api/identity/phone-number',
            headers: { ...payer.headers, ...newAddress() },
            payload: { phone: testPhone() },
          }),
        );
      }
      expect(asks.map((a) => a.statusCode)).toEqual([
        ...Array<number>(smsPerAccount.max).fill(200),
        ...Array<number>(30 - smsPerAccount.max).fill(429),
      ]);
      const other = await small.app.inject({
        method: 'POST',
        url: '/api/auth/phone-codes',
        headers: newAddress(),
        payload: { phone: testPhone() },
      });
      expect(other.statusCode, other.body).toBe(200);
    } finally {
      await small.close();
    }
  });
});

// A lost dashboard passkey's SMS code (docs/dashboard.md "Getting in"), against the probe that
// told a staff number from any other: the send's limit answered a staff number 3 × 429 where any
// other got 200 for ever. Now asking answers the same for both (status, body, the number's own
// limit, and the same work: nothing looked up, stored or sent before the answer), a wrong code
// reads the same for both, and only whoever proved the code learns that a number is on no team.
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorBody, formatErrorMessage } from '../../domain/errors';
import { toNigerianE164 } from '../../domain/schemas/auth';
import { randomId } from '../crypto/secret-hash';
import { SMS_JOB } from '../jobs/sms-job';
import { dashboardStaff, payers, phoneCodes } from '../db/schema';
import { DEFAULT_RATE_LIMITS } from '../rate-limits';
import { RECOVERY_CODE_JOB } from '../services/dashboard/staff-sign-in';
import { dashboardCall, staffMember } from '../testing/dashboard';
import { latestCode, signUp, testPhone } from '../testing/identity';
import { expectRateLimited } from '../testing/rate-limits';
import { createTestClient, testClock, useTestApp } from '../testing/test-app';

const clock = testClock('2027-05-10T09:00:00Z');
// The number's own limit as deployed; the per-address ones relaxed (each test names addresses).
const ctx = useTestApp({
  clock,
  rateLimits: { recoveryCodesPerNumber: DEFAULT_RATE_LIMITS.recoveryCodesPerNumber },
});

const call = (options: InjectOptions) => dashboardCall(ctx, null, options);

/** Asks for a recovery code for `phone` from `remoteAddress`. */
const askCode = (phone: string, remoteAddress = '127.0.0.1') =>
  call({ method: 'POST', url: '/api/dashboard/recovery/code', payload: { phone }, remoteAddress });

const recover = (phone: string, code: string) =>
  call({ method: 'POST', url: '/api/dashboard/recovery', payload: { phone, code } });

/** The phone of a new staff member of a new merchant (an invitation accepted, a passkey made). */
async function staffPhone(): Promise<string> {
  const { merchantId } = await createTestClient(ctx.database, { name: 'Kemi Fabrics' });
  return (await staffMember(ctx, { merchantId, role: 'support' }, clock.now())).phone;
}

/**
 * What an answer tells, less what the caller typed (the number, in its digits) and the seconds a
 * 429 names (its window began at the number's first ask).
 */
const shown = (answer: LightMyRequestResponse) =>
  answer.statusCode === 429
    ? { status: 429, error: answer.json<{ error: { code: string } }>().error.code }
    : { status: answer.statusCode, body: answer.body.replace(/\d/g, '#') };

describe('asking for a recovery code', () => {
  it('probe: answers a staff number, a payer’s and an unknown one alike, 429s included, from any address', async () => {
    const { max, windowMs } = DEFAULT_RATE_LIMITS.recoveryCodesPerNumber;
    const payer = testPhone();
    await signUp(ctx.app, payer);
    const numbers = [await staffPhone(), payer, testPhone()];
    // Past the per-number SMS limit of the code machinery (10 an hour), which a staff number
    // alone used to reach.
    const asks = 13;
    const seen = [];
    for (const [n, phone] of numbers.entries()) {
      const answers = [];
      for (let i = 0; i < asks; i += 1) answers.push(await askCode(phone, `10.52.${n}.${i}`));
      expect(answers.map((a) => a.statusCode)).toEqual([
        ...Array<number>(max).fill(200),
        ...Array<number>(asks - max).fill(429),
      ]);
      expectRateLimited(answers[max]!, windowMs);
      expect(answers[0]?.json()).toEqual({
        success: true,
        phoneNumber: expect.stringMatching(/^\+234\d{10}$/),
        message: expect.stringMatching(/^We sent a 6-digit code to /),
      });
      seen.push(answers.map(shown));
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  it('reads a wrong code alike for a staff number and any other; only a proven code says a number is on no team', async () => {
    const staff = await staffPhone();
    const payer = testPhone();
    await signUp(ctx.app, payer);
    const wrongAt = async (phone: string) => {
      expect((await askCode(phone, '10.54.0.1')).statusCode).toBe(200);
      // Every SMS asked for has gone: the staff number's code, none for the payer's.
      const right = await latestCode(ctx.app, phone);
      return recover(phone, right === '000000' ? '111111' : '000000');
    };
    for (const phone of [staff, payer]) {
      const tried = await wrongAt(phone);
      expect(tried.statusCode, phone).toBe(400);
      expect(tried.json()).toEqual(
        errorBody(
          'PHONE_CODE_INCORRECT',
          formatErrorMessage('PHONE_CODE_INCORRECT', { tries: '4 tries' }),
        ),
      );
    }
    // The payer's phone held: a sign-in code proves the number, and the recovery says why not.
    expect(
      (await call({ method: 'POST', url: '/api/auth/phone-codes', payload: { phone: payer } }))
        .statusCode,
    ).toBe(200);
    const proven = await recover(payer, await latestCode(ctx.app, payer));
    expect(proven.json()).toEqual(errorBody('DASHBOARD_NOT_STAFF'));
  });
});

describe('the work of the answer', () => {
  // A process that runs no jobs, so that what the call itself did is seen alone: whatever is
  // done for one number and not another must wait for the job, after the answer.
  const quiet = useTestApp({ clock, env: { JOBS_WORK: 'off' } });

  /** A member of a new merchant's team, written as an accepted invitation leaves one. */
  async function staffNumber(): Promise<string> {
    const { db } = quiet.database;
    const { merchantId } = await createTestClient(quiet.database, { name: 'Ada Prints' });
    const phoneNumber = toNigerianE164(testPhone()) ?? '';
    const payerId = randomId('usr');
    await db.insert(payers).values({ id: payerId, phoneNumber, fullName: 'Ada Okafor' });
    await db
      .insert(dashboardStaff)
      .values({ id: randomId('stf'), merchantId, payerId, role: 'owner' });
    return phoneNumber;
  }

  const codesOf = (phoneNumber: string) =>
    quiet.database.db.select().from(phoneCodes).where(eq(phoneCodes.phoneNumber, phoneNumber));

  it('is the same for a staff number and any other: no code stored, no SMS, one job each', async () => {
    const numbers = [await staffNumber(), toNigerianE164(testPhone()) ?? ''];
    for (const phone of numbers) {
      const asked = await dashboardCall(quiet, null, {
        method: 'POST',
        url: '/api/dashboard/recovery/code',
        payload: { phone },
      });
      expect(asked.statusCode, asked.body).toBe(200);
      expect(await codesOf(phone)).toEqual([]);
    }
    const backlog = await quiet.app.jobs.backlog();
    expect(backlog.find(({ kind }) => kind === RECOVERY_CODE_JOB)?.states.created).toBe(2);
    expect(backlog.find(({ kind }) => kind === SMS_JOB)?.states.created).toBe(0);

    // The job, after: the staff number gets its code by SMS, the other a code nobody is sent.
    await quiet.app.jobs.drain();
    const [staff, other] = numbers as [string, string];
    expect(await codesOf(staff)).toHaveLength(1);
    expect(await codesOf(other)).toHaveLength(1);
    const recovered = await dashboardCall(quiet, null, {
      method: 'POST',
      url: '/api/dashboard/recovery',
      payload: { phone: staff, code: await latestCode(quiet.app, staff) },
    });
    expect(recovered.statusCode, recovered.body).toBe(200);
    await expect(latestCode(quiet.app, other)).rejects.toThrow(/No code was sent/);
  });
});

// No SMS secret is kept in clear (docs/security.md "What is never stored or logged"): once a
// sign-up code, a BVN's code, a staff member's code and an owner's invitation by phone were sent,
// and while a code the provider refused waits for its retry, no row of any table of the database
// (ours, and pg-boss's jobs with their data) holds a code or the invitation link's token. An SMS
// job's data names its queued row and nothing else; a sent message's text is erased from the
// queue. Each secret is then used, to prove it was the live one searched for.
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { toNigerianE164 } from '../domain/schemas/auth';
import { JOBS_SCHEMA } from './jobs/engine';
import { SMS_JOB } from './jobs/sms-job';
import { listOutbox } from './services/identity/sms-outbox';
import { requestBvnCode, submitBvnCode, mintPerson } from './testing/bvn';
import { everyRow, tablesHolding } from './testing/database-rows';
import { dashboardCall, invitationToken, staffMember } from './testing/dashboard';
import { latestCode, loginWithCode, sendCode, testPhone } from './testing/identity';
import { consentWithPayment } from './testing/payments';
import { retrySmsNow } from './testing/sms-jobs';
import { useTestApp } from './testing/test-app';

const ctx = useTestApp();

/** How a code would read were its message kept: its text, and the WebOTP line's `#code`. */
const codeForms = (code: string) => [`is ${code}`, `#${code}`];

/** Both drivers answer raw SQL with `{ rows }`. */
async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await ctx.database.db.execute(query);
  return (result as { rows: T[] }).rows;
}

/** Every message the sandbox "sent" to `phone` (as a payer writes it), opened: what reached it. */
const bodiesTo = async (phone: string) =>
  (await listOutbox(ctx.database.db, { phoneNumber: e164(phone), limit: 100 })).map(
    (sms) => sms.body,
  );

const e164 = (phone: string) => toNigerianE164(phone) ?? phone;

describe('SMS secrets', () => {
  it('are in no row of any table, pg-boss’s jobs included, once sent or while a retry waits', async () => {
    // A sign-up code, used: the payer is signed in.
    const payerPhone = testPhone();
    expect((await sendCode(ctx.app, payerPhone)).statusCode).toBe(200);
    const signUpCode = await latestCode(ctx.app, payerPhone);
    const login = await loginWithCode(ctx.app, {
      phone: payerPhone,
      code: signUpCode,
      fullName: 'Bisi Ade',
    });
    expect(login.statusCode, login.body).toBe(200);
    const { token } = login.json<{ token: string }>();

    // A BVN's code, sent to the BVN's registered phone and left unused.
    const person = await mintPerson(ctx.app);
    const bvnSent = await requestBvnCode(ctx.app, token, person.bvn);
    expect(bvnSent.statusCode, bvnSent.body).toBe(200);
    const bvnCode = await latestCode(ctx.app, person.phoneNumber);

    // An owner (invited by the operator, their dashboard code used), who invites by phone: the
    // link goes by SMS and is left unused.
    const { client } = await consentWithPayment(ctx.app, ctx.database);
    const owner = await staffMember(
      ctx,
      { merchantId: client.merchantId, role: 'owner' },
      new Date(),
    );
    const invitedPhone = testPhone();
    const invited = await dashboardCall(ctx, owner, {
      method: 'POST',
      url: '/api/dashboard/team/invitations',
      payload: { phone: invitedPhone, role: 'viewer' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const { invitationUrl } = invited.json<{ invitationUrl: string }>();
    const invitation = invitationToken(invitationUrl);
    expect(await bodiesTo(invitedPhone)).toEqual([expect.stringContaining(invitationUrl)]);

    // A code the provider refused: its message waits, queued, for the retry.
    const refusedPhone = testPhone();
    const send = vi
      .spyOn(ctx.context.providers.sms.senderOf('sandbox'), 'send')
      .mockRejectedValueOnce(new Error('the SMS provider refused the message'));
    expect((await sendCode(ctx.app, refusedPhone)).statusCode).toBe(200);
    const refusedBody = String(send.mock.calls[0]?.[1]);
    send.mockRestore();
    const refusedCode = /code is (\d{6})/.exec(refusedBody)?.[1] ?? '';
    expect(refusedCode).toMatch(/^\d{6}$/);
    expect(await bodiesTo(refusedPhone)).toEqual([]);

    const sent = [
      ...(await bodiesTo(payerPhone)),
      ...(await bodiesTo(person.phoneNumber)),
      ...(await bodiesTo(owner.phone)),
      ...(await bodiesTo(invitedPhone)),
      refusedBody,
    ];
    const staffCode = /code is (\d{6})/.exec((await bodiesTo(owner.phone))[0] ?? '')?.[1] ?? '';
    expect(staffCode).toMatch(/^\d{6}$/);
    const secrets = [
      // As written, and as a JSON column would hold it (its line breaks escaped).
      ...sent.flatMap((body) => [body, JSON.stringify(body).slice(1, -1)]),
      ...[signUpCode, bvnCode, staffCode, refusedCode].flatMap(codeForms),
      invitation,
      invitationUrl,
    ];

    const rows = await everyRow(ctx.database.db);
    expect([...rows.keys()]).toEqual(
      expect.arrayContaining([`${JOBS_SCHEMA}.job`, 'public.sms_outbox']),
    );
    for (const secret of secrets) {
      expect(tablesHolding(rows, secret), `a table holds ${JSON.stringify(secret)}`).toEqual([]);
    }

    // Every SMS job names its queued row, and nothing else.
    const jobs = await rowsOf<{ data: Record<string, unknown> }>(
      sql`SELECT data FROM ${sql.raw(JOBS_SCHEMA)}.job WHERE name = ${SMS_JOB}`,
    );
    expect(jobs.length).toBeGreaterThanOrEqual(sent.length);
    for (const job of jobs) expect(Object.keys(job.data)).toEqual(['smsId']);
    // The sent messages' texts are erased; the refused one waits sealed.
    const queued = await rowsOf<{ phone: string; sealed: string | null }>(
      sql`SELECT phone_number AS phone, sealed_body AS sealed FROM sms_queue`,
    );
    expect(queued.filter((row) => row.sealed !== null)).toEqual([
      { phone: e164(refusedPhone), sealed: expect.stringMatching(/^v1\./) },
    ]);

    // Each secret searched for was the live one.
    const verified = await submitBvnCode(ctx.app, token, bvnCode);
    expect(verified.statusCode, verified.body).toBe(200);
    const lookedUp = await dashboardCall(ctx, null, {
      method: 'POST',
      url: '/api/dashboard/invitations/lookup',
      payload: { token: invitation },
    });
    expect(lookedUp.statusCode, lookedUp.body).toBe(200);
    await retrySmsNow(ctx.app, ctx.database.db);
    await expect.poll(() => bodiesTo(refusedPhone)).toEqual([refusedBody]);
    const refusedLogin = await loginWithCode(ctx.app, {
      phone: refusedPhone,
      code: refusedCode,
      fullName: 'Kemi Bello',
    });
    expect(refusedLogin.statusCode, refusedLogin.body).toBe(200);
  });
});

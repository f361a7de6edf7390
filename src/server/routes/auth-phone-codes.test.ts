import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PHONE_CODE_MAX_WRONG_TRIES,
  PHONE_CODES_PER_PHONE_PER_HOUR,
  toNigerianE164,
} from '../../domain/schemas/auth';
import { useTestApp } from '../testing/test-app';
import { latestCode, loginWithCode, sendCode, testPhone } from '../testing/identity';
import { retrySmsNow, smsJobsTo } from '../testing/sms-jobs';
import { SmsNotSent } from '../providers/sms';

const ctx = useTestApp();
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The SMS the sandbox sent `phone`, newest first. */
const messagesTo = async (phone: string) => {
  const outbox = await ctx.app.inject({
    method: 'GET',
    url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  });
  return outbox.json<{ messages: Array<{ body: string }> }>().messages.map((m) => m.body);
};

/** A code that is certainly not the one sent. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /api/auth/phone-codes', () => {
  it('sends a 6-digit code to the sandbox outbox and answers the number in E.164', async () => {
    const phone = testPhone();
    const response = await sendCode(ctx.app, phone);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.phoneNumber).toBe(toNigerianE164(phone));
    expect(body.message).toMatch(/^We sent a 6-digit code to 080/);
    expect(await latestCode(ctx.app, phone)).toMatch(/^\d{6}$/);
  });

  it('refuses a number that is not a Nigerian mobile with a clear 400', async () => {
    const response = await sendCode(ctx.app, '+44 20 7946 0000');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'PHONE_NUMBER_INVALID',
      message: 'Enter a valid Nigerian mobile number, such as 0803 123 4567',
    });
  });

  it('sends at most 10 codes per number per hour, then says when to come back', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-01T09:00:00Z'));
    const phone = testPhone();
    for (let i = 0; i < PHONE_CODES_PER_PHONE_PER_HOUR; i += 1) {
      vi.setSystemTime(new Date(Date.UTC(2031, 2, 1, 9, i)));
      expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    }
    vi.setSystemTime(new Date('2031-03-01T09:30:00Z'));
    const refused = await sendCode(ctx.app, phone);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({
      code: 'PHONE_CODE_RATE_LIMITED',
      message: 'Too many codes for this number. Please try again in 30 minutes.',
    });
    // An hour after the first one, a slot is free again.
    vi.setSystemTime(new Date('2031-03-01T10:00:30Z'));
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
  });

  it('keeps a code whose SMS the provider refused, and sends it once, on the retry', async () => {
    const phone = testPhone();
    const send = vi
      .spyOn(ctx.context.providers.sms.senderOf('sandbox'), 'send')
      .mockRejectedValueOnce(new Error('the SMS provider refused the message'));
    // The code and its SMS are committed together: the call answers, the SMS waits its retry.
    const sent = await sendCode(ctx.app, phone);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(send).toHaveBeenCalledTimes(1);
    const e164 = toNigerianE164(phone) ?? '';
    expect(await smsJobsTo(ctx.database.db, e164)).toMatchObject([{ state: 'retry' }]);
    await expect(latestCode(ctx.app, phone)).rejects.toThrow(/No code was sent/);

    send.mockRestore();
    await retrySmsNow(ctx.app, ctx.database.db);
    await expect.poll(() => messagesTo(phone)).toHaveLength(1);
    expect(await smsJobsTo(ctx.database.db, e164)).toMatchObject([{ state: 'completed' }]);
    const login = await loginWithCode(ctx.app, {
      phone,
      code: await latestCode(ctx.app, phone),
      fullName: 'Ngozi Eze',
    });
    expect(login.statusCode, login.body).toBe(200);
  });

  it('tells the payer at once when the provider refuses the code for good, and lets them retry', async () => {
    const phone = testPhone();
    const send = vi
      .spyOn(ctx.context.providers.sms.senderOf('sandbox'), 'send')
      .mockRejectedValueOnce(new SmsNotSent('Termii: the number is not reachable', false, 'number'))
      .mockRejectedValueOnce(new SmsNotSent('Termii refused the API key (HTTP 401)', false));
    // A number it will never reach: the payer's to check (4xx).
    const unreachable = await sendCode(ctx.app, phone);
    expect(unreachable.statusCode, unreachable.body).toBe(422);
    expect(unreachable.json().error).toEqual({
      code: 'PHONE_NUMBER_UNREACHABLE',
      message: 'We could not send the code. Please check the number and try again.',
    });
    // Any other refusal is the server's (5xx): the payer may try again later.
    const refused = await sendCode(ctx.app, phone);
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json().error).toEqual({
      code: 'CODE_NOT_SENT',
      message: 'We could not send the code. Please try again later.',
    });
    const e164 = toNigerianE164(phone) ?? '';
    // Erased unsent, its job done: no retry brings the refused code later.
    expect(await smsJobsTo(ctx.database.db, e164)).toMatchObject([
      { state: 'completed', body: null },
      { state: 'completed', body: null },
    ]);

    // Asked again, the next code goes.
    send.mockRestore();
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    await expect.poll(() => messagesTo(phone)).toHaveLength(1);
  });

  it('withdraws the SMS of a code replaced before it went: a late retry never brings it', async () => {
    const phone = testPhone();
    const send = vi
      .spyOn(ctx.context.providers.sms.senderOf('sandbox'), 'send')
      .mockRejectedValueOnce(new Error('the SMS provider timed out'));
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    const e164 = toNigerianE164(phone) ?? '';
    expect(await smsJobsTo(ctx.database.db, e164)).toMatchObject([{ state: 'retry' }]);
    send.mockRestore();

    // A new code replaces it before its retry: the first one's text is gone.
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    await expect.poll(() => messagesTo(phone)).toHaveLength(1);
    expect((await smsJobsTo(ctx.database.db, e164))[0]).toMatchObject({ body: null });
    await retrySmsNow(ctx.app, ctx.database.db);
    expect(await smsJobsTo(ctx.database.db, e164)).toMatchObject([
      { state: 'completed' },
      { state: 'completed' },
    ]);
    const sentBodies = await messagesTo(phone);
    expect(sentBodies).toHaveLength(1);
    expect(sentBodies[0]).toContain(await latestCode(ctx.app, phone));
  });
});

describe('phone codes at login', () => {
  it('accepts a code once only', async () => {
    const phone = testPhone();
    await sendCode(ctx.app, phone);
    const code = await latestCode(ctx.app, phone);
    const first = await loginWithCode(ctx.app, { phone, code, fullName: 'Tunde Bakare' });
    expect(first.statusCode).toBe(200);
    const again = await loginWithCode(ctx.app, { phone, code });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('PHONE_CODE_NOT_FOUND');
  });

  it('counts wrong tries and refuses even the right code after 5', async () => {
    const phone = testPhone();
    await sendCode(ctx.app, phone);
    const code = await latestCode(ctx.app, phone);
    const messages: string[] = [];
    for (let i = 0; i < PHONE_CODE_MAX_WRONG_TRIES; i += 1) {
      const response = await loginWithCode(ctx.app, {
        phone,
        code: wrong(code),
        fullName: 'Ngozi Eze',
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      messages.push(response.json().error.message);
    }
    expect(messages.slice(0, 4)).toEqual([
      'That code is not correct. 4 tries left.',
      'That code is not correct. 3 tries left.',
      'That code is not correct. 2 tries left.',
      'That code is not correct. 1 try left.',
    ]);
    expect(messages[4]).toBe('Too many wrong tries. Please request a new code.');
    const right = await loginWithCode(ctx.app, { phone, code, fullName: 'Ngozi Eze' });
    expect(right.statusCode).toBe(429);
    expect(right.json().error.code).toBe('PHONE_CODE_LOCKED');
  });

  it('expires a code after 5 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-04-01T09:00:00Z'));
    const phone = testPhone();
    await sendCode(ctx.app, phone);
    const code = await latestCode(ctx.app, phone);
    vi.setSystemTime(new Date('2031-04-01T09:05:01Z'));
    const response = await loginWithCode(ctx.app, { phone, code, fullName: 'Kemi Adeyemi' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'PHONE_CODE_EXPIRED',
      message: 'This code has expired. Please request a new code.',
    });
  });

  it('honours only the newest code of a number', async () => {
    const phone = testPhone();
    await sendCode(ctx.app, phone);
    const older = await latestCode(ctx.app, phone);
    await sendCode(ctx.app, phone);
    const newer = await latestCode(ctx.app, phone);
    if (older !== newer) {
      const stale = await loginWithCode(ctx.app, { phone, code: older, fullName: 'Ife Ojo' });
      expect(stale.json().error.code).toBe('PHONE_CODE_INCORRECT');
    }
    const fresh = await loginWithCode(ctx.app, { phone, code: newer, fullName: 'Ife Ojo' });
    expect(fresh.statusCode).toBe(200);
  });

  it('refuses a code that is not 6 digits without counting a try', async () => {
    const phone = testPhone();
    await sendCode(ctx.app, phone);
    const response = await loginWithCode(ctx.app, { phone, code: '12ab', fullName: 'Ada Obi' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Enter the 6-digit code we sent you');
    const code = await latestCode(ctx.app, phone);
    expect((await loginWithCode(ctx.app, { phone, code, fullName: 'Ada Obi' })).statusCode).toBe(
      200,
    );
  });

  it('asks for a name when the number has no account yet, and keeps the code for it', async () => {
    const phone = testPhone();
    await sendCode(ctx.app, phone);
    const code = await latestCode(ctx.app, phone);
    const nameless = await loginWithCode(ctx.app, { phone, code });
    expect(nameless.statusCode).toBe(404);
    expect(nameless.json().error).toEqual({
      code: 'PAYER_NOT_FOUND',
      message: 'No account uses this number yet. Enter your name to create one.',
    });
    const named = await loginWithCode(ctx.app, { phone, code, fullName: 'Chika Nwosu' });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toMatchObject({
      success: true,
      newAccount: true,
      passkeyCount: 0,
      user: { fullName: 'Chika Nwosu', phoneNumber: toNigerianE164(phone), email: null },
    });
  });
});

describe('sandbox outbox', () => {
  it('lists what was sent on a page and never a 500 for a bad filter', async () => {
    const phone = testPhone();
    await sendCode(ctx.app, phone);
    const page = await ctx.app.inject({ method: 'GET', url: `/sandbox/messages?phone=${phone}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Sandbox SMS messages');
    expect(page.body).toMatch(/your code is \d{6}/);
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/sandbox/messages?phone=abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('PHONE_NUMBER_INVALID');
  });
});

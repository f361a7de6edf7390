// Changing the sign-in number (docs/identity.md "Changing the phone number"): only a session a
// trusted passkey proved asks; the code goes to the new number; on it the number changes, the old
// number is told, and the sessions the old number's SMS codes signed in end.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLagosDateTime } from '../../domain/payment-date';
import { toNigerianE164 } from '../../domain/schemas/auth';
import { payers } from '../db/schema';
import {
  addPasskey,
  codeSession,
  latestCode,
  signUp,
  softAuthenticatorFor,
  stepUp,
  testPhone,
} from '../testing/identity';
import { retrySmsNow, smsJobsTo } from '../testing/sms-jobs';
import { testClock, useTestApp } from '../testing/test-app';

const clock = testClock('2031-05-04T09:00:00Z');
const ctx = useTestApp({ clock });
afterEach(() => vi.restoreAllMocks());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A payer signed up on a number, with their first (trusted) passkey, in a proven session. */
async function payer() {
  const phone = testPhone();
  const device = softAuthenticatorFor(ctx.config);
  const { token } = await signUp(ctx.app, phone);
  await addPasskey(ctx.app, token, device);
  return { phone, token, device };
}

const askChange = (token: string, phone: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/identity/phone-number',
    headers: bearer(token),
    payload: { phone },
  });

const confirmChange = (token: string, phone: string, code: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/identity/phone-number/verify',
    headers: bearer(token),
    payload: { phone, code },
  });

const messagesTo = async (phone: string) => {
  const outbox = await ctx.app.inject({
    method: 'GET',
    url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  });
  return outbox.json<{ messages: Array<{ body: string }> }>().messages.map((m) => m.body);
};

const me = (token: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });

/** The SMS provider throws at the next message it is handed. */
const smsProviderFailsOnce = () =>
  vi
    .spyOn(ctx.context.providers.sms.senderOf('sandbox'), 'send')
    .mockRejectedValueOnce(new Error('the SMS provider refused the message'));

/** A code that is not `code`: one of its digits moved on. */
const wrong = (code: string) => `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;

describe('changing the sign-in number', () => {
  it('sends a code to the new number, and on it the number changes and the old one is told', async () => {
    const { phone, token } = await payer();
    const next = testPhone();
    const asked = await askChange(token, next);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({
      success: true,
      phoneNumber: toNigerianE164(next),
      message: expect.stringMatching(/^We sent a 6-digit code to 080/),
    });
    const [codeSms] = await messagesTo(next);
    expect(codeSms).toMatch(
      /^Oya Money: your code is \d{6}, to make this number your sign-in number\. It expires in 5 minutes\./,
    );

    const changed = await confirmChange(token, next, await latestCode(ctx.app, next));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      success: true,
      user: { phoneNumber: toNigerianE164(next) },
      message: `You now sign in with ${next.slice(0, 4)} ${next.slice(4, 7)} ${next.slice(7)}`,
    });
    expect((await me(token)).json()).toMatchObject({ user: { phoneNumber: toNigerianE164(next) } });
    const [notice] = await messagesTo(phone);
    expect(notice).toBe(
      `The sign-in number of your Oya Money account was changed from this number to ` +
        `${next.slice(0, 4)} *** **${next.slice(-2)} on ${formatLagosDateTime(clock.now())}. ` +
        `If it was not you, sign in with your passkey at ` +
        `${ctx.config.publicUrl.replace(/\/$/, '')}/consents#devices, change the number back and ` +
        `remove any device you do not know, and ask your mobile network whether your SIM was swapped.`,
    );
    // The code is used up.
    const again = await confirmChange(token, next, await latestCode(ctx.app, next));
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('PHONE_CODE_NOT_FOUND');
    const same = await askChange(token, next);
    expect(same.statusCode).toBe(400);
    expect(same.json().error.code).toBe('PHONE_NUMBER_UNCHANGED');
  });

  it('is refused to a session signed in by an SMS code alone, with the passkey-required error', async () => {
    const { phone, device } = await payer();
    const attacker = await codeSession(ctx.app, phone);
    const next = testPhone();
    const before = await messagesTo(next);
    const refused = await askChange(attacker, next);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      success: false,
      error: {
        code: 'PASSKEY_PROOF_REQUIRED',
        message:
          'Confirm it is you with your passkey to do this. A code sent by SMS is not enough.',
      },
    });
    expect(await messagesTo(next)).toEqual(before);
    // A code the new number got some other way does not change it either.
    expect((await confirmChange(attacker, next, '123456')).statusCode).toBe(403);

    // Proven by the step-up, the same session may.
    expect((await stepUp(ctx.app, attacker, device)).statusCode).toBe(200);
    expect((await askChange(attacker, next)).statusCode).toBe(200);
  });

  it(
    'refuses a number another payer signs in with, when asked and when confirmed',
    { tags: ['postgres'] },
    async () => {
      const { token } = await payer();
      const other = testPhone();
      await signUp(ctx.app, other, 'Bola Ade');
      const asked = await askChange(token, other);
      expect(asked.statusCode).toBe(409);
      expect(asked.json()).toEqual({
        success: false,
        error: {
          code: 'PHONE_NUMBER_TAKEN',
          message: 'This number signs in to another account. Choose another number.',
        },
      });

      // Taken between the code and its use: the change's UPDATE refuses it.
      const next = testPhone();
      expect((await askChange(token, next)).statusCode).toBe(200);
      const code = await latestCode(ctx.app, next);
      // Another account is made on that number meanwhile (here straight in the table: a sign-up
      // would replace the code by its own).
      await ctx.database.db.insert(payers).values({
        id: 'usr_phone_taken',
        phoneNumber: toNigerianE164(next) ?? next,
        fullName: 'Chidi Obi',
      });
      const late = await confirmChange(token, next, code);
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe('PHONE_NUMBER_TAKEN');
    },
  );

  it('limits wrong codes: 5 tries, then even the right code is refused', async () => {
    const { phone, token } = await payer();
    const next = testPhone();
    expect((await askChange(token, next)).statusCode).toBe(200);
    const code = await latestCode(ctx.app, next);
    for (let left = 4; left >= 1; left -= 1) {
      const tried = await confirmChange(token, next, wrong(code));
      expect(tried.statusCode).toBe(400);
      expect(tried.json().error.message).toBe(
        `That code is not correct. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
      );
    }
    const fifth = await confirmChange(token, next, wrong(code));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error.code).toBe('PHONE_CODE_LOCKED');
    const right = await confirmChange(token, next, code);
    expect(right.statusCode).toBe(429);
    expect((await me(token)).json()).toMatchObject({
      user: { phoneNumber: toNigerianE164(phone) },
    });
  });

  it('limits codes sent to the new number as sign-in codes are', async () => {
    const { token } = await payer();
    const next = testPhone();
    for (let sent = 0; sent < 10; sent += 1) {
      const asked = await askChange(token, next);
      expect(asked.statusCode, asked.body).toBe(200);
    }
    const eleventh = await askChange(token, next);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().error.code).toBe('PHONE_CODE_RATE_LIMITED');
  });

  it('ends the sessions the old number’s SMS codes signed in, and keeps the one that asked', async () => {
    const { phone, token } = await payer();
    const byCode = await codeSession(ctx.app, phone);
    expect((await me(byCode)).statusCode).toBe(200);
    const next = testPhone();
    expect((await askChange(token, next)).statusCode).toBe(200);
    const changed = await confirmChange(token, next, await latestCode(ctx.app, next));
    expect(changed.statusCode, changed.body).toBe(200);

    const ended = await me(byCode);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().error.code).toBe('TOKEN_EXPIRED');
    expect((await me(token)).statusCode).toBe(200);
  });

  it('changes the number while the SMS provider refuses, and tells the old number once, on the retry', async () => {
    const { phone, token } = await payer();
    const byCode = await codeSession(ctx.app, phone);
    const next = testPhone();
    expect((await askChange(token, next)).statusCode).toBe(200);
    const code = await latestCode(ctx.app, next);
    const send = smsProviderFailsOnce();
    // The change and the SMS to the old number are one transaction: both stand.
    const changed = await confirmChange(token, next, code);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(send).toHaveBeenCalledWith(toNigerianE164(phone), expect.stringMatching(/was changed/));
    expect((await me(token)).json()).toMatchObject({ user: { phoneNumber: toNigerianE164(next) } });
    expect((await me(byCode)).statusCode).toBe(401);
    expect(await messagesTo(phone)).not.toContainEqual(expect.stringMatching(/was changed/));
    expect(await smsJobsTo(ctx.database.db, toNigerianE164(phone) ?? '')).toContainEqual(
      expect.objectContaining({ state: 'retry', body: expect.stringMatching(/was changed/) }),
    );

    send.mockRestore();
    await retrySmsNow(ctx.app, ctx.database.db);
    const told = async () =>
      (await messagesTo(phone)).filter((body) => body.includes('was changed')).length;
    await expect.poll(told).toBe(1);
    // The code is used up: it changes nothing again, and tells nobody again.
    const again = await confirmChange(token, next, code);
    expect(again.statusCode).toBe(400);
    expect(await told()).toBe(1);
  });

  it('sends the new number’s code on the retry when the provider refused it, and that code works', async () => {
    const { token } = await payer();
    const next = testPhone();
    smsProviderFailsOnce();
    const asked = await askChange(token, next);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(await messagesTo(next)).toEqual([]);

    vi.restoreAllMocks();
    await retrySmsNow(ctx.app, ctx.database.db);
    await expect.poll(() => messagesTo(next)).toHaveLength(1);
    const changed = await confirmChange(token, next, await latestCode(ctx.app, next));
    expect(changed.statusCode, changed.body).toBe(200);
  });
});

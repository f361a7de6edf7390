// A server with SMS_PROVIDER=africastalking, on the Africa's Talking simulator: a payer's sign-in
// code, asked for through the route the page uses, reaches Africa's Talking with the payer's
// number and the code's text, and signs the payer in; the `sms.send` job ends a message Africa's
// Talking refused without a retry, and sends again one it failed to take
// (docs/providers/africastalking.md "What is retried").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInCodeMessage } from '../../../domain/phone-code-texts';
import { PHONE_CODE_TTL_MS } from '../../../domain/schemas/auth';
import {
  startAfricasTalkingSimulator,
  type TAfricasTalkingSimulator,
} from '../../testing/africastalking-simulator/africastalking-simulator';
import { loginWithCode, sendCode, testPhone } from '../../testing/identity';
import { queueSmsNow, retrySmsNow, smsJobOf } from '../../testing/sms-jobs';
import { startTestApp } from '../../testing/test-app';

let at: TAfricasTalkingSimulator;
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  at = await startAfricasTalkingSimulator({ username: 'oyamoney' });
  ctx = await startTestApp({
    env: {
      SMS_PROVIDER: 'africastalking',
      AFRICASTALKING_USERNAME: at.username,
      AFRICASTALKING_API_KEY: at.apiKey,
      AFRICASTALKING_SENDER_ID: at.senderId,
      AFRICASTALKING_BASE_URL: at.url,
    },
  });
});
afterAll(async () => {
  await ctx?.close();
  await at?.close();
});

let seq = 0;
/** A number in E.164 that no other test of this file writes to. */
const freshNumber = () => {
  seq += 1;
  return `+2348090001${String(seq).padStart(3, '0')}`;
};

/** What Africa's Talking sent to a number, as texts, oldest first. */
const textsTo = (phoneNumber: string) =>
  at.messages.filter((message) => message.to === phoneNumber).map((m) => m.message);

/** How many calls Africa's Talking got for a number, sent or not. */
const callsFor = (phoneNumber: string) =>
  at.requests.filter((request) => (request.body as { to?: string }).to === phoneNumber).length;

const queued = (change: string, phoneNumber: string, body: string) =>
  queueSmsNow(ctx.app, ctx.database.db, { change, phoneNumber, body });
const jobOf = (change: string) => smsJobOf(ctx.database.db, change);

describe('SMS_PROVIDER=africastalking', () => {
  it("sends a payer's sign-in code through Africa's Talking: their number, the code's text, a code that signs in", async () => {
    const phone = testPhone();
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    const to = `+234${phone.slice(1)}`;
    const [message, ...more] = at.messages.filter((sent) => sent.to === to);
    expect(more).toEqual([]);
    expect(message?.from).toBe(at.senderId);
    const code = /your code is (\d{6})\./.exec(message?.message ?? '')?.[1] ?? '';
    expect(message?.message).toBe(
      signInCodeMessage({
        productName: ctx.context.config.productName,
        code,
        minutes: PHONE_CODE_TTL_MS / 60_000,
        host: new URL(ctx.context.config.publicUrl).hostname,
      }),
    );
    const request = at.requests.find((r) => (r.body as { to?: string }).to === to);
    expect(request?.headers.apikey).toBe(at.apiKey);
    expect(request?.body).toMatchObject({ username: at.username, from: at.senderId });
    const login = await loginWithCode(ctx.app, { phone, code, fullName: 'Adaeze Okonkwo' });
    expect(login.statusCode, login.body).toBe(200);
  });

  it('lists SMS on readiness as served by africastalking', async () => {
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    const { capabilities } = ready.json<{
      capabilities: { capability: string; state: string; adapter: string | null }[];
    }>();
    expect(capabilities.find((c) => c.capability === 'sms')).toMatchObject({
      state: 'on',
      adapter: 'africastalking',
    });
  });
});

describe("the SMS job on Africa's Talking", () => {
  it('ends a message Africa’s Talking refused unsent, without a retry, a dead letter', async () => {
    const phoneNumber = freshNumber();
    at.refuseNext(405);
    await queued('at-test:refused', phoneNumber, 'Refused once, refused always');
    await expect
      .poll(() => jobOf('at-test:refused'))
      .toEqual({
        state: 'completed',
        output: {
          refused: "Africa's Talking refused the message (statusCode 405: InsufficientBalance)",
        },
      });
    await retrySmsNow(ctx.app, ctx.database.db);
    expect(callsFor(phoneNumber)).toBe(1);
    expect(textsTo(phoneNumber)).toEqual([]);
  });

  it('sends again a message Africa’s Talking failed to send (statusCode 500), once its retry is due', async () => {
    const phoneNumber = freshNumber();
    at.refuseNext(500);
    await queued('at-test:failed', phoneNumber, 'Sent on the second try');
    await expect.poll(async () => (await jobOf('at-test:failed'))?.state).toBe('retry');
    await retrySmsNow(ctx.app, ctx.database.db);
    await expect.poll(() => textsTo(phoneNumber)).toEqual(['Sent on the second try']);
    await expect.poll(async () => (await jobOf('at-test:failed'))?.state).toBe('completed');
    expect(callsFor(phoneNumber)).toBe(2);
  });
});

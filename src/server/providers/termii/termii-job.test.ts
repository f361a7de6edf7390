// A server with SMS_PROVIDER=termii, on the Termii simulator: a payer's code reaches Termii, and
// the `sms.send` job ends a message Termii refused without a retry (a refusal would only come
// again), and sends again one Termii failed to take or whose answer was lost (docs/providers/termii.md
// "What is retried").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_JOB } from '../../jobs/sms-job';
import { sendCode, testPhone } from '../../testing/identity';
import { queueSmsNow, retrySmsNow, smsJobOf, smsJobsTo } from '../../testing/sms-jobs';
import {
  startTermiiSimulator,
  type TTermiiSimulator,
} from '../../testing/termii-simulator/termii-simulator';
import { startTestApp } from '../../testing/test-app';

let termii: TTermiiSimulator;
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  termii = await startTermiiSimulator();
  ctx = await startTestApp({
    env: {
      SMS_PROVIDER: 'termii',
      TERMII_API_KEY: termii.apiKey,
      TERMII_SENDER_ID: termii.senderId,
      TERMII_BASE_URL: termii.url,
    },
  });
});
afterAll(async () => {
  await ctx?.close();
  await termii?.close();
});

let seq = 0;
/** A number in E.164 that no other test of this file writes to. */
const freshNumber = () => {
  seq += 1;
  return `+2348090000${String(seq).padStart(3, '0')}`;
};

/** What Termii took for a number, as texts, oldest first. */
const textsTo = (phoneNumber: string) =>
  termii.messages.filter((message) => `+${message.to}` === phoneNumber).map((m) => m.sms);

/** How many calls Termii got for a number, taken or not. */
const callsFor = (phoneNumber: string) =>
  termii.requests.filter((request) => (request.body as { to?: string }).to === phoneNumber.slice(1))
    .length;

const queued = (change: string, phoneNumber: string, body: string) =>
  queueSmsNow(ctx.app, ctx.database.db, { change, phoneNumber, body });
const jobOf = (change: string) => smsJobOf(ctx.database.db, change);

describe('SMS_PROVIDER=termii', () => {
  it("hands a payer's code to Termii by the time the call that asked for it answers", async () => {
    const phone = testPhone();
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    const to = `234${phone.slice(1)}`;
    const [message] = termii.messages.filter((taken) => taken.to === to);
    expect(message).toMatchObject({ from: termii.senderId, channel: 'dnd', type: 'plain' });
    expect(message?.sms).toMatch(/\b\d{6}\b/);
  });
});

describe('the SMS job on Termii', () => {
  it('ends a message Termii refused unsent, without a retry, its text erased, a dead letter', async () => {
    const phoneNumber = freshNumber();
    termii.failNext(400, 'Invalid Sender Id');
    await queued('termii-test:refused', phoneNumber, 'Refused once, refused always');
    await expect
      .poll(() => jobOf('termii-test:refused'))
      .toEqual({
        state: 'completed',
        output: { refused: 'Termii refused the message (HTTP 400: Invalid Sender Id)' },
      });
    // Where an operator looks: the kind's dead letters, and readiness names the kind.
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.json<{ failingKinds: string[] }>().failingKinds).toContain(SMS_JOB);
    // Nothing waits for a retry: making retries due calls Termii no more.
    await retrySmsNow(ctx.app, ctx.database.db);
    expect(callsFor(phoneNumber)).toBe(1);
    expect(textsTo(phoneNumber)).toEqual([]);
    expect(await smsJobsTo(ctx.database.db, phoneNumber)).toEqual([
      expect.objectContaining({ state: 'completed', body: null }),
    ]);
  });

  it('sends again a message Termii failed to take, once its retry is due', async () => {
    const phoneNumber = freshNumber();
    termii.failNext(503);
    await queued('termii-test:failed', phoneNumber, 'Sent on the second try');
    await expect.poll(async () => (await jobOf('termii-test:failed'))?.state).toBe('retry');
    // Still sealed while it waits for its retry.
    expect(await smsJobsTo(ctx.database.db, phoneNumber)).toEqual([
      expect.objectContaining({ body: 'Sent on the second try' }),
    ]);
    await retrySmsNow(ctx.app, ctx.database.db);
    await expect.poll(() => textsTo(phoneNumber)).toEqual(['Sent on the second try']);
    await expect.poll(async () => (await jobOf('termii-test:failed'))?.state).toBe('completed');
    expect(callsFor(phoneNumber)).toBe(2);
  });

  it('sends again a message whose answer was lost, so the payer may get it twice', async () => {
    const phoneNumber = freshNumber();
    termii.loseNextAnswer();
    await queued('termii-test:lost', phoneNumber, 'Maybe twice');
    await expect.poll(async () => (await jobOf('termii-test:lost'))?.state).toBe('retry');
    await retrySmsNow(ctx.app, ctx.database.db);
    await expect.poll(() => textsTo(phoneNumber)).toEqual(['Maybe twice', 'Maybe twice']);
  });
});

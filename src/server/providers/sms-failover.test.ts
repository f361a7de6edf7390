// SMS_PROVIDERS=termii,africastalking, on both simulators: each message goes to the first
// provider health routing names, and moves to the next when that one refuses it for a fault of
// its own or gives no answer, with the same text (one code per ask, never two). A refusal of the
// number is the payer's: it moves nowhere and counts against no provider. Each try's outcome is
// recorded for its provider, and the queue's row names the provider that took the message
// (docs/providers/termii.md "What is retried").
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smsQueue } from '../db/schema';
import { jobIdFor } from '../jobs/engine';
import {
  startAfricasTalkingSimulator,
  type TAfricasTalkingSimulator,
} from '../testing/africastalking-simulator/africastalking-simulator';
import { loginWithCode, sendCode, testPhone } from '../testing/identity';
import { queueSmsNow, retrySmsNow, smsJobOf } from '../testing/sms-jobs';
import {
  startTermiiSimulator,
  type TTermiiSimulator,
} from '../testing/termii-simulator/termii-simulator';
import { outcomesOf, recordingHealth } from '../testing/recording-health';
import { startTestApp } from '../testing/test-app';

let termii: TTermiiSimulator;
let at: TAfricasTalkingSimulator;
let ctx: Awaited<ReturnType<typeof startTestApp>>;

const health = recordingHealth();

beforeAll(async () => {
  termii = await startTermiiSimulator();
  at = await startAfricasTalkingSimulator({ username: 'oyamoney' });
  ctx = await startTestApp({
    env: {
      SMS_PROVIDERS: 'termii,africastalking',
      TERMII_API_KEY: termii.apiKey,
      TERMII_SENDER_ID: termii.senderId,
      TERMII_BASE_URL: termii.url,
      AFRICASTALKING_USERNAME: at.username,
      AFRICASTALKING_API_KEY: at.apiKey,
      AFRICASTALKING_SENDER_ID: at.senderId,
      AFRICASTALKING_BASE_URL: at.url,
    },
    providers: { health },
  });
});
afterAll(async () => {
  await ctx?.close();
  await termii?.close();
  await at?.close();
});
beforeEach(() => health.reset());

let seq = 0;
/** A number in E.164 that no other test of this file writes to. */
const freshNumber = () => {
  seq += 1;
  return `+2348090002${String(seq).padStart(3, '0')}`;
};

/** What each provider took for a number (E.164), as texts, oldest first. */
const atTexts = (to: string) => at.messages.filter((m) => m.to === to).map((m) => m.message);
const termiiTexts = (to: string) =>
  termii.messages.filter((m) => `+${m.to}` === to).map((m) => m.sms);
/** How many calls each provider got for a number, taken or not. */
const atCalls = (to: string) =>
  at.requests.filter((r) => (r.body as { to?: string }).to === to).length;
const termiiCalls = (to: string) =>
  termii.requests.filter((r) => `+${(r.body as { to?: string }).to}` === to).length;

/** Each SMS try recorded, as provider and health, oldest first. */
const tries = () => outcomesOf(health, 'sms');

/** The provider the queue's row of `change` names, and whose refusal it kept. */
async function rowOf(change: string) {
  const [row] = await ctx.database.db
    .select({ provider: smsQueue.provider, refusal: smsQueue.refusal, sentAt: smsQueue.sentAt })
    .from(smsQueue)
    .where(eq(smsQueue.id, jobIdFor(change)));
  return row;
}

const queued = (change: string, phoneNumber: string, body: string) =>
  queueSmsNow(ctx.app, ctx.database.db, { change, phoneNumber, body });

/** The payer asks for a sign-in code; the one message holding it, at Africa's Talking, signs in. */
async function signsInThroughAfricasTalking(phone: string): Promise<string> {
  expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
  const to = `+234${phone.slice(1)}`;
  await expect.poll(() => atTexts(to), { timeout: 30_000 }).toHaveLength(1);
  expect(termiiTexts(to)).toEqual([]);
  const code = /your code is (\d{6})\./.exec(atTexts(to)[0] ?? '')?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);
  const login = await loginWithCode(ctx.app, { phone, code, fullName: 'Chidi Nwosu' });
  expect(login.statusCode, login.body).toBe(200);
  // Sent once: a retry of the job would find the text erased.
  await retrySmsNow(ctx.app, ctx.database.db);
  expect(atTexts(to)).toHaveLength(1);
  return to;
}

describe('a sign-in code when Termii fails', () => {
  it("arrives through Africa's Talking, once, when Termii refuses it for a fault of its own", async () => {
    termii.failNext(400, 'Insufficient balance');
    const to = await signsInThroughAfricasTalking(testPhone());
    expect(termiiCalls(to)).toBe(1);
    expect(tries()).toEqual([
      { provider: 'termii', health: 'failed' },
      { provider: 'africastalking', health: 'answered' },
    ]);
  });

  it("arrives through Africa's Talking, once, when Termii does not answer", async () => {
    termii.hangNext();
    const to = await signsInThroughAfricasTalking(testPhone());
    expect(termiiCalls(to)).toBe(1);
    expect(tries()).toEqual([
      { provider: 'termii', health: 'failed' },
      { provider: 'africastalking', health: 'answered' },
    ]);
    // The wait counted is the time limit's, not a made-up figure.
    expect(health.recorded[0]?.latencyMs).toBeGreaterThanOrEqual(9_000);
  }, 60_000);
});

describe('the SMS job over two providers', () => {
  it('sends through the first provider routing names, naming it on the queue row', async () => {
    const to = freshNumber();
    await queued('failover:first', to, 'Through Termii');
    await expect.poll(() => termiiTexts(to)).toEqual(['Through Termii']);
    expect(atCalls(to)).toBe(0);
    await expect
      .poll(() => rowOf('failover:first'))
      .toMatchObject({ provider: 'termii', refusal: null });
    expect(tries()).toEqual([{ provider: 'termii', health: 'answered' }]);
  });

  it('follows the order routing gives, not the list’s', async () => {
    health.routeAs('sms', ['africastalking', 'termii']);
    const to = freshNumber();
    await queued('failover:routed', to, 'Termii passed over');
    await expect.poll(() => atTexts(to)).toEqual(['Termii passed over']);
    expect(termiiCalls(to)).toBe(0);
    await expect.poll(() => rowOf('failover:routed')).toMatchObject({ provider: 'africastalking' });
  });

  it("moves a message Termii failed to take (a 5xx) to Africa's Talking, the same text", async () => {
    const to = freshNumber();
    termii.failNext(503);
    await queued('failover:5xx', to, 'Your code is 123456.');
    await expect.poll(() => atTexts(to)).toEqual(['Your code is 123456.']);
    expect(termiiTexts(to)).toEqual([]);
    await expect.poll(() => rowOf('failover:5xx')).toMatchObject({ provider: 'africastalking' });
    await expect
      .poll(() => smsJobOf(ctx.database.db, 'failover:5xx'))
      .toMatchObject({
        state: 'completed',
        output: { sent: true },
      });
  });

  it('ends a message whose number was refused, moving it nowhere and counting it against no one', async () => {
    // Not a number in international format: Termii's adapter refuses it as the number's.
    const to = '+234 803 000 0000';
    await queued('failover:number', to, 'Nowhere to go');
    await expect
      .poll(async () => (await smsJobOf(ctx.database.db, 'failover:number'))?.state)
      .toBe('completed');
    expect(atCalls(to)).toBe(0);
    await expect
      .poll(() => rowOf('failover:number'))
      .toMatchObject({ provider: null, refusal: 'number' });
    expect(tries()).toEqual([{ provider: 'termii', health: 'answered' }]);
  });

  it('dead-letters a message every provider refused, once at each', async () => {
    const to = freshNumber();
    termii.failNext(400, 'Invalid Sender Id');
    at.refuseNext(405);
    await queued('failover:refused', to, 'Refused twice');
    await expect
      .poll(() => smsJobOf(ctx.database.db, 'failover:refused'))
      .toEqual({
        state: 'completed',
        output: { refused: 'Termii refused the message (HTTP 400: Invalid Sender Id)' },
      });
    await retrySmsNow(ctx.app, ctx.database.db);
    expect([termiiCalls(to), atCalls(to)]).toEqual([1, 1]);
    await expect
      .poll(() => rowOf('failover:refused'))
      .toMatchObject({ provider: null, refusal: 'service' });
    expect(tries().map((tried) => tried.health)).toEqual(['failed', 'failed']);
  });

  it('tries again later a message no provider took while one gave no answer', async () => {
    const to = freshNumber();
    termii.failNext(400, 'Insufficient balance');
    at.failNext(500);
    await queued('failover:later', to, 'On the retry');
    await expect
      .poll(async () => (await smsJobOf(ctx.database.db, 'failover:later'))?.state)
      .toBe('retry');
    await expect
      .poll(() => rowOf('failover:later'))
      .toMatchObject({ provider: null, sentAt: null });
    // The retry routes again: Termii, mended, takes it.
    await retrySmsNow(ctx.app, ctx.database.db);
    await expect.poll(() => termiiTexts(to)).toEqual(['On the retry']);
    expect(atTexts(to)).toEqual([]);
    await expect.poll(() => rowOf('failover:later')).toMatchObject({ provider: 'termii' });
  });
});

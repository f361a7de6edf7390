// Every SMS goes through the outbox (docs/jobs.md "The outbox"): queued in the transaction of its
// change as one `sms.send` job, sent by the engine. Nothing else under src/server hands a message
// to the SMS port; one change is one SMS however often it is queued; a code's SMS is in the
// sandbox outbox when the call that asked for it answers, and is not sent once the code expired.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsOutbox } from '../db/schema';
import { recordingSmsSender } from '../providers/sms-recording';
import { codeInOutbox, latestCode, loginWithCode, sendCode, testPhone } from '../testing/identity';
import { secondServer } from '../testing/second-server';
import { smsJobsTo } from '../testing/sms-jobs';
import { startTestApp, testClock } from '../testing/test-app';
import { jobIdFor } from './engine';
import { SMS_ASKED_BY_NO_CALL, SMS_JOB, openSmsOutbox, type TSmsMessage } from './sms-job';

const SERVER = fileURLToPath(new URL('..', import.meta.url));

const withoutComments = (source: string): string =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

/**
 * The ways a module hands a message to the SMS port itself: a call of `send` on it (whatever
 * holds it: `sms`, `ctx.providers.sms`), or the port taken off the providers under another name.
 */
const DIRECT_SENDS: [string, RegExp][] = [
  ['calls the SMS port', /\bsms\s*\??\.\s*send\s*\(/gi],
  ['takes the SMS port off the providers', /=\s*[\w.?]*\bproviders\s*\??\.\s*sms\b/g],
  ['takes the SMS port off the providers', /\{[^{}]*\bsms\b[^{}]*\}\s*=\s*[\w.?]*\bproviders\b/g],
];

/** Each direct send in a source, as `what (line n)`. */
function directSends(source: string): string[] {
  const code = withoutComments(source);
  return DIRECT_SENDS.flatMap(([what, pattern]) =>
    [...code.matchAll(pattern)].map(
      (match) => `${what} (line ${code.slice(0, match.index).split('\n').length})`,
    ),
  );
}

/** The server's own modules: no tests, test helpers or SMS adapters (the port's other side). */
function serverModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['testing', 'providers'].includes(entry.name) && dir === SERVER
        ? []
        : serverModules(path);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the SMS port', () => {
  it('is called by the SMS job alone: no module under src/server sends an SMS itself', () => {
    const found = serverModules(SERVER).flatMap((path) =>
      directSends(readFileSync(path, 'utf8')).map((send) => `${relative(SERVER, path)}: ${send}`),
    );
    expect(found).toEqual([expect.stringMatching(/^jobs\/sms-job\.ts: calls the SMS port/)]);
  });

  it('finds the direct sends this server used to make', () => {
    expect(directSends('await ctx.providers.sms.send(payer.phoneNumber, body);')).toHaveLength(1);
    expect(directSends('await sms.send(phoneNumber, body);')).toHaveLength(1);
    expect(directSends('const sender = ctx.providers.sms;')).toHaveLength(1);
    expect(directSends('const { sms, payments } = ctx.providers;')).toHaveLength(1);
    expect(directSends('// sms.send(phone, body) in a comment\nconst SMS = 1;')).toEqual([]);
    expect(directSends('await jobs.enqueue(tx, SMS_JOB, { phoneNumber, body });')).toEqual([]);
  });
});

describe('the SMS job kind', () => {
  it('is queued by the SMS outbox alone: no other module queues an SMS job, so each text is sealed', () => {
    const found = serverModules(SERVER).filter((path) =>
      /\bSMS_JOB\b|['"`]sms\.send['"`]/.test(withoutComments(readFileSync(path, 'utf8'))),
    );
    expect(found.map((path) => relative(SERVER, path))).toEqual(['jobs/sms-job.ts']);
  });
});

describe('the SMS job', () => {
  const sms = recordingSmsSender();
  const clock = testClock('2031-04-01T09:00:00Z');
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    ctx = await startTestApp({ clock, providers: { sms } });
  });
  afterAll(() => ctx.close());

  /** Queues one message and waits until it was tried, here or by the app's worker. */
  async function queuedAndTried(change: string, message: TSmsMessage): Promise<void> {
    const outbox = await openSmsOutbox({
      db: ctx.database.db,
      jobs: ctx.app.jobs,
      smsGate: SMS_ASKED_BY_NO_CALL,
    });
    await ctx.database.db.transaction((tx) => outbox.queue(tx, change, message));
    await ctx.app.jobs.drain([SMS_JOB]);
    await expect
      .poll(async () => (await smsJobsTo(ctx.database.db, message.phoneNumber)).at(-1)?.state)
      .toBe('completed');
  }

  it('does not send a code whose time is up: the message is worth nothing then', async () => {
    const phoneNumber = '+2348030000001';
    const notAfter = new Date('2031-04-01T09:05:00.000Z');
    await queuedAndTried('test-code:first', { phoneNumber, body: 'first', notAfter });
    clock.advance(5 * 60_000);
    await queuedAndTried('test-code:late', { phoneNumber, body: 'late', notAfter });
    await queuedAndTried('test-code:no-end', { phoneNumber, body: 'no end' });
    expect(sms.sent.map((message) => message.body)).toEqual(['first', 'no end']);
    // Sent or not, no text is kept once the job ran.
    expect(await smsJobsTo(ctx.database.db, phoneNumber)).toEqual([
      expect.objectContaining({ body: null }),
      expect.objectContaining({ body: null }),
      expect.objectContaining({ body: null }),
    ]);
  });
});

describe('an SMS queued with its change', () => {
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx.close());

  it('is one SMS for one change, however often the change is queued', async () => {
    const phoneNumber = '+2348031110001';
    const outbox = await openSmsOutbox({
      db: ctx.database.db,
      jobs: ctx.app.jobs,
      smsGate: SMS_ASKED_BY_NO_CALL,
    });
    for (let queued = 0; queued < 2; queued += 1) {
      await ctx.database.db.transaction((tx) =>
        outbox.queue(tx, 'test-change:1', { phoneNumber, body: 'Once only' }),
      );
    }
    await ctx.app.jobs.drain([SMS_JOB]);
    await expect
      .poll(async () => (await smsJobsTo(ctx.database.db, phoneNumber)).map((job) => job.state))
      .toEqual(['completed']);
    expect((await smsJobsTo(ctx.database.db, phoneNumber))[0]?.id).toBe(jobIdFor('test-change:1'));
    const sent = await ctx.database.db.select().from(smsOutbox);
    expect(sent.filter((message) => message.phoneNumber === phoneNumber)).toHaveLength(1);
  });

  it('is in the sandbox outbox when the call that asked for a code answers, every time', async () => {
    for (let asked = 0; asked < 5; asked += 1) {
      const phone = testPhone();
      expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
      // Read once, at the answer: no wait.
      const code = await codeInOutbox(ctx.app, phone);
      const login = await loginWithCode(ctx.app, { phone, code, fullName: 'Bisi Ade' });
      expect(login.statusCode, login.body).toBe(200);
    }
  });
});

describe('a code asked of a process that works on no jobs', () => {
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  let worker: Awaited<ReturnType<typeof secondServer>>;
  beforeAll(async () => {
    ctx = await startTestApp({ env: { JOBS_WORK: 'off' } });
    // Another process on the database that works on SMS jobs.
    worker = await secondServer(
      { database: ctx.database, config: { ...ctx.config, jobsWork: true } },
      ctx.context.clock,
    );
  });
  afterAll(async () => {
    await worker?.close();
    await ctx?.close();
  });

  it('is sent by the process that works on SMS jobs, woken by the queued job', async () => {
    const phone = testPhone();
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    await expect.poll(() => latestCode(ctx.app, phone).catch(() => null)).toMatch(/^\d{6}$/);
    const login = await loginWithCode(ctx.app, {
      phone,
      code: await latestCode(ctx.app, phone),
      fullName: 'Bisi Ade',
    });
    expect(login.statusCode, login.body).toBe(200);
  });
});

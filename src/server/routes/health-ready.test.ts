// GET /api/health/ready (docs/jobs.md "Readiness"): 503 with the reason while the database,
// Redis (when configured) or the job engine is not ready; every job kind's backlog, and the
// kinds that fail while the others run.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { TNotReadyResponse, TReadyResponse } from '../../domain/schemas/health';
import { SMS_ASKED_BY_NO_CALL, SMS_JOB, openSmsOutbox } from '../jobs/sms-job';
import { TEST_REDIS_URL, testRedisReachable } from '../testing/redis';
import { startTestApp, useTestApp } from '../testing/test-app';

const OPERATOR_TOKEN = 'operator-token-of-the-readiness-tests';
let refusing = true;
const ctx = useTestApp({
  operatorToken: OPERATOR_TOKEN,
  webhookDelivery: 'manual',
  providers: {
    sms: {
      send: async () => {
        if (refusing) throw new Error('the SMS provider refused');
      },
    },
  },
});

const ready = async (app = ctx.app) => {
  const answer = await app.inject({ method: 'GET', url: '/api/health/ready' });
  return { status: answer.statusCode, body: answer.json<TReadyResponse | TNotReadyResponse>() };
};

describe('GET /api/health/ready', () => {
  it('is ready with every job kind and its backlog; /api/health stays liveness', async () => {
    const { status, body } = await ready();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ready',
      database: ctx.database.kind,
      redis: 'not_configured',
      jobEngine: 'ready',
      failingKinds: [],
    });
    expect(body.jobs.map((kind) => kind.kind)).toEqual(
      expect.arrayContaining([
        'sms.send',
        'webhooks.deliver',
        'collections.collect',
        'reconcile.payouts',
        'expire.three-ds-challenges',
        'expire.transfer-accounts',
      ]),
    );
    const live = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(live.json()).toEqual({ status: 'ok', database: ctx.database.kind });
  });

  it('shows a failing kind, its job waiting to be tried again, while the others run', async () => {
    const outbox = await openSmsOutbox({
      db: ctx.database.db,
      jobs: ctx.app.jobs,
      smsGate: SMS_ASKED_BY_NO_CALL,
    });
    await ctx.database.db.transaction((tx) =>
      outbox.queue(tx, 'health-ready:refused', { phoneNumber: '+2348030000001', body: 'hello' }),
    );
    // Tried at once (by this process's worker, or here), refused, and waiting to be tried again.
    await ctx.app.jobs.drain([SMS_JOB]);
    await expect
      .poll(async () => (await ready()).body.jobs.find((kind) => kind.kind === SMS_JOB)?.retrying)
      .toBe(1);
    const { status, body } = await ready();
    expect(status).toBe(200);
    expect(body.failingKinds).toEqual([SMS_JOB]);
    expect(body.jobs.find((kind) => kind.kind === SMS_JOB)).toMatchObject({
      waiting: 0,
      retrying: 1,
      oldestWaitingSeconds: null,
    });
    // The operator's scrape shows it too: the kind's job waiting to be tried again.
    const scrape = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toMatch(
      /^oya_jobs\{(?=[^}]*kind="sms\.send")(?=[^}]*state="retry")[^}]*\} 1$/m,
    );
    // Every other kind runs meanwhile.
    await expect(ctx.app.reconciler.runDue()).resolves.toMatchObject({ payoutsEnded: 0 });
    await expect(ctx.app.collections.runDue()).resolves.toMatchObject({ collected: 0 });
    const after = (await ready()).body;
    expect(after.failingKinds).toEqual([SMS_JOB]);
    expect(
      after.jobs.filter((kind) => kind.kind.startsWith('reconcile.')).map((kind) => kind.failed),
    ).not.toContain(1);
    refusing = false;
  });

  it('answers 503 with the reason once the job engine stops', async () => {
    await ctx.app.jobs.stop();
    const { status, body } = await ready();
    expect(status).toBe(503);
    expect(body).toMatchObject({
      status: 'not_ready',
      jobEngine: 'not_ready',
      reasons: ['the job engine is stopped'],
    });
  });
});

const reachable = await testRedisReachable();

describe.skipIf(!reachable)('with REDIS_URL', () => {
  it('is ready while Redis answers, and 503 naming Redis once it does not', async () => {
    // A relay in front of the tests' Redis, cut to make the outage.
    const target = new URL(TEST_REDIS_URL);
    const sockets = new Set<Socket>();
    const relay: Server = createServer((socket) => {
      const upstream = connect({ host: target.hostname, port: Number(target.port || 6379) });
      for (const end of [socket, upstream]) {
        sockets.add(end);
        end.on('error', () => undefined);
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const { port } = relay.address() as { port: number };
    const own = await startTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: 'ready-test:' },
    });
    try {
      expect(await ready(own.app)).toMatchObject({
        status: 200,
        body: { status: 'ready', redis: 'ready' },
      });
      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      const down = await ready(own.app);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'not_ready', redis: 'not_ready' });
      expect((down.body as TNotReadyResponse).reasons).toEqual([
        expect.stringMatching(/^Redis does not answer: /),
      ]);
    } finally {
      await own.close();
    }
  });
});

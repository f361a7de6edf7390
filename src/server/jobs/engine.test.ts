// The job engine's contract (docs/jobs.md), on the database the test run uses: in-memory PGlite
// through pg-boss's PGlite client in `npm test`, and PostgreSQL in its pass
// (scripts/test-postgres.sh): one engine, the same tests on both.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../db/database';
import { openTestDatabase } from '../testing/test-app';
import { JOBS_SCHEMA, jobEngine, jobIdFor, type TJobKind, type TJobs } from './engine';

const ran: string[] = [];
/** What a failing test.flaky job waits for before it throws (a receiver that takes its time). */
let failing: Promise<void> = Promise.resolve();
const kinds: TJobKind[] = [
  {
    name: 'test.works',
    retry: { limit: 2, delaySeconds: 60, maxDelaySeconds: 600 },
    run: async (data) => {
      ran.push(`works:${(data as { n: number }).n}`);
      return { done: true };
    },
  },
  {
    name: 'test.retries',
    retry: { limit: 3, delaySeconds: 60, maxDelaySeconds: 600 },
    run: async () => {
      ran.push('retries');
      throw new Error('the provider refused');
    },
  },
  {
    name: 'test.dies',
    retry: { limit: 0, delaySeconds: 1, maxDelaySeconds: 1 },
    run: async () => {
      ran.push('dies');
      throw new Error('never works');
    },
  },
  {
    // Takes a while, as an SMS provider may: a nudge meanwhile waits for it.
    name: 'test.slow',
    retry: { limit: 1, delaySeconds: 60, maxDelaySeconds: 60 },
    run: async () => {
      ran.push('slow:started');
      await new Promise((resolve) => setTimeout(resolve, 300));
      ran.push('slow:ran');
      return { done: true };
    },
  },
  {
    // Fails while `failing` holds it back; runs otherwise.
    name: 'test.flaky',
    retry: { limit: 3, delaySeconds: 60, maxDelaySeconds: 600 },
    run: async (data) => {
      const { fails, n } = data as { fails?: boolean; n?: number };
      if (!fails) {
        ran.push(`flaky:${n}`);
        return { done: true };
      }
      ran.push('flaky:failing');
      await failing;
      throw new Error('the receiver never answered');
    },
  },
  {
    name: 'test.many',
    retry: { limit: 1, delaySeconds: 60, maxDelaySeconds: 60 },
    run: async () => ({ done: true }),
  },
  {
    name: 'test.periodic',
    retry: { limit: 1, delaySeconds: 1, maxDelaySeconds: 1 },
    everyMs: 60_000,
    run: async () => {
      ran.push('periodic');
      return { counted: 1 };
    },
  },
];

let database: TDatabase;
let jobs: TJobs;
const errors: unknown[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
  jobs = jobEngine({
    database,
    kinds,
    works: () => false,
    onError: (error) => errors.push(error),
  });
  await jobs.start();
});
afterAll(async () => {
  await jobs?.stop();
  await database?.close();
});

const jobsNamed = async (name: string) => {
  const result = await database.db.execute(
    sql`select id::text as id, state::text as state, retry_count,
               extract(epoch from start_after - now())::float8 as starts_in
        from ${sql.raw(JOBS_SCHEMA)}.job where name = ${name} order by created_on`,
  );
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    id: string;
    state: string;
    retry_count: number;
    starts_in: number;
  }[];
};

describe('the job engine', { tags: ['postgres'] }, () => {
  it('queues a job in the transaction of its change: none when it rolls back', async () => {
    await database.db
      .transaction(async (tx) => {
        await jobs.enqueue(tx, 'test.works', { n: 1 });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    expect(await jobsNamed('test.works')).toEqual([]);
    await database.db.transaction(async (tx) => {
      await jobs.enqueue(tx, 'test.works', { n: 2 }, { id: jobIdFor('change:2') });
      // The same change queued again is the one job.
      await jobs.enqueue(tx, 'test.works', { n: 2 }, { id: jobIdFor('change:2') });
    });
    expect(await jobsNamed('test.works')).toMatchObject([{ id: jobIdFor('change:2') }]);
    expect(await jobs.drain(['test.works'])).toBe(1);
    expect(ran).toEqual(['works:2']);
    expect(await jobsNamed('test.works')).toMatchObject([{ state: 'completed' }]);
    expect(await jobs.drain(['test.works'])).toBe(0);
  });

  it('retries a failed job with backoff, a dead letter once its retries are used, and one failing kind stops no other', async () => {
    ran.length = 0;
    await database.db.transaction(async (tx) => {
      await jobs.enqueue(tx, 'test.retries', {});
      await jobs.enqueue(tx, 'test.dies', {});
      await jobs.enqueue(tx, 'test.works', { n: 3 });
    });
    // The failing kinds run first, and the working one still runs after them.
    await jobs.drain(['test.retries', 'test.dies', 'test.works']);
    expect(ran).toEqual(['retries', 'dies', 'works:3']);
    const [retrying] = await jobsNamed('test.retries');
    expect(retrying?.state).toBe('retry');
    // Not before its delay: a minute, doubling (at most ten) for each retry after.
    expect(retrying?.starts_in).toBeGreaterThan(30);
    expect(retrying?.starts_in).toBeLessThanOrEqual(600);
    expect(await jobsNamed('test.dies')).toMatchObject([{ state: 'failed' }]);
    expect(await jobsNamed('test.dies.dead')).toMatchObject([{ state: 'created' }]);

    const backlog = await jobs.backlog();
    expect(backlog.find((kind) => kind.kind === 'test.retries')?.states).toMatchObject({
      retry: 1,
    });
    expect(backlog.find((kind) => kind.kind === 'test.dies')?.states).toMatchObject({
      failed: 1,
      dead: 1,
    });
    expect(backlog.find((kind) => kind.kind === 'test.works')?.states).toMatchObject({
      created: 0,
      completed: 2,
    });
    expect(await jobs.readiness()).toEqual({ ready: true });
  });

  it('keeps retries in a lane of their own: a kind whose jobs keep failing runs its new jobs', async () => {
    ran.length = 0;
    // Jobs that fail, each tried once and waiting for its retry...
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < 8; i += 1) await jobs.enqueue(tx, 'test.flaky', { fails: true });
    });
    await jobs.drain(['test.flaky']);
    expect((await jobsNamed('test.flaky')).map((job) => job.state)).toEqual(Array(8).fill('retry'));
    // ...whose retries are due now, as after their backoff, and fail again only after a while.
    await database.db.execute(
      sql`update ${sql.raw(JOBS_SCHEMA)}.job set start_after = now()
          where name = 'test.flaky' and state = 'retry'`,
    );
    let answer = () => {};
    failing = new Promise((resolve) => (answer = resolve));
    const working = jobEngine({
      database,
      kinds,
      works: (name) => name === 'test.flaky',
      onError: () => {},
    });
    await working.start();
    try {
      await expect.poll(() => ran.includes('flaky:failing')).toBe(true);
      // New jobs of the kind, queued while its retries run: none waits behind them.
      const fresh = [1, 2, 3].map((n) => jobIdFor(`flaky:${n}`));
      await database.db.transaction(async (tx) => {
        for (const [n, id] of fresh.entries()) {
          await jobs.enqueue(tx, 'test.flaky', { n: n + 1 }, { id });
        }
      });
      await expect
        .poll(
          async () =>
            (await jobsNamed('test.flaky')).filter(
              (job) => fresh.includes(job.id) && job.state === 'completed',
            ).length,
          { timeout: 20_000 },
        )
        .toBe(3);
      expect(
        ran.filter((entry) => entry.startsWith('flaky:') && entry !== 'flaky:failing').sort(),
      ).toEqual(['flaky:1', 'flaky:2', 'flaky:3']);
    } finally {
      answer();
      await working.stop();
    }
  });

  it('takes several jobs a fetch and fetches again at once while they come, not one a poll', async () => {
    const working = jobEngine({
      database,
      kinds,
      works: (name) => name === 'test.many',
      onError: () => {},
    });
    await working.start();
    try {
      const ids = Array.from({ length: 12 }, (_, n) => jobIdFor(`many:${n}`));
      await database.db.transaction(async (tx) => {
        for (const id of ids) await jobs.enqueue(tx, 'test.many', {}, { id });
      });
      await expect
        .poll(
          async () =>
            (await jobsNamed('test.many')).filter((job) => job.state === 'completed').length,
          { timeout: 20_000 },
        )
        .toBe(12);
      // Jobs taken by one fetch start at the same instant: twelve jobs, three fetches at most.
      const result = await database.db.execute(
        sql`select count(distinct started_on)::int as fetches
            from ${sql.raw(JOBS_SCHEMA)}.job where name = 'test.many'`,
      );
      const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
        fetches: number;
      }[];
      expect(row?.fetches).toBeLessThanOrEqual(3);
    } finally {
      await working.stop();
    }
  });

  it('reports how long the oldest job that may run has waited', async () => {
    await database.db.transaction(async (tx) => {
      await jobs.enqueue(tx, 'test.works', { n: 4 });
    });
    const [works] = (await jobs.backlog()).filter((kind) => kind.kind === 'test.works');
    expect(works?.states.created).toBe(1);
    expect(works?.oldestWaitingSeconds).toBeGreaterThanOrEqual(0);
    await jobs.drain(['test.works']);
    const [drained] = (await jobs.backlog()).filter((kind) => kind.kind === 'test.works');
    expect(drained?.oldestWaitingSeconds).toBeNull();
  });

  it('nudges: runs a waiting job here, and answers once a job another took first was tried', async () => {
    // A process that works on the kind (its worker is woken by NOTIFY; `jobs` works on none).
    const working = jobEngine({
      database,
      kinds,
      works: (name) => name === 'test.slow',
      onError: (error) => errors.push(error),
    });
    await working.start();
    try {
      ran.length = 0;
      const first = jobIdFor('slow:1');
      await database.db.transaction((tx) => jobs.enqueue(tx, 'test.slow', {}, { id: first }));
      // Taken by another first (a drain elsewhere, or the worker woken by the job): the nudge
      // finds nothing to run here, and waits for that run to end.
      const elsewhere = jobs.drain(['test.slow']);
      await expect.poll(() => ran).toContain('slow:started');
      await working.nudge('test.slow', [first]);
      ran.push('answered');
      expect(ran).toEqual(['slow:started', 'slow:ran', 'answered']);
      expect(await jobsNamed('test.slow')).toMatchObject([{ id: first, state: 'completed' }]);
      await elsewhere;

      const second = jobIdFor('slow:2');
      await database.db.transaction((tx) => jobs.enqueue(tx, 'test.slow', {}, { id: second }));
      await working.nudge('test.slow', [second]);
      expect(await jobsNamed('test.slow')).toMatchObject([
        { id: first, state: 'completed' },
        { id: second, state: 'completed' },
      ]);
      // A process that works on none only queues: its nudge runs nothing.
      await working.stop();
      const third = jobIdFor('slow:3');
      await database.db.transaction((tx) => jobs.enqueue(tx, 'test.slow', {}, { id: third }));
      await jobs.nudge('test.slow', [third]);
      expect((await jobsNamed('test.slow'))[2]).toMatchObject({ id: third, state: 'created' });
      await jobs.drain(['test.slow']);
    } finally {
      await working.stop();
    }
  });

  it("starts on queues that exist: leaves each that matches its kind, and brings one whose options changed to its kind's", async () => {
    const queues = async () => {
      const result = await database.db.execute(
        sql`select name, retry_limit, retry_delay, retry_delay_max, expire_seconds, dead_letter,
                   updated_on::text as updated_on
            from ${sql.raw(JOBS_SCHEMA)}.queue where name like 'test.%' order by name`,
      );
      return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
        name: string;
        retry_limit: number;
        retry_delay: number;
        retry_delay_max: number;
        expire_seconds: number;
        dead_letter: string | null;
        updated_on: string;
      }[];
    };
    const before = await queues();
    expect(before.length).toBeGreaterThan(0);
    const changed = kinds.map((kind) =>
      kind.name === 'test.works'
        ? { ...kind, retry: { limit: 5, delaySeconds: 7, maxDelaySeconds: 70 }, expireSeconds: 30 }
        : kind,
    );
    const again = jobEngine({ database, kinds: changed, works: () => false, onError: () => {} });
    await again.start();
    await again.stop();
    const after = await queues();
    expect(after.map((queue) => queue.name)).toEqual(before.map((queue) => queue.name));
    for (const queue of after) {
      if (queue.name === 'test.works') continue;
      expect(queue).toEqual(before.find((was) => was.name === queue.name));
    }
    expect(after.find((queue) => queue.name === 'test.works')).toMatchObject({
      retry_limit: 5,
      retry_delay: 7,
      retry_delay_max: 70,
      expire_seconds: 30,
      dead_letter: 'test.works.dead',
    });
    // Started again as it was, the queue is the kind's again.
    const restored = jobEngine({ database, kinds, works: () => false, onError: () => {} });
    await restored.start();
    await restored.stop();
    expect((await queues()).map(({ updated_on: _, ...queue }) => queue)).toEqual(
      before.map(({ updated_on: _, ...queue }) => queue),
    );
  });

  it('runs a periodic kind here at once, through its queue, and answers what it answered', async () => {
    ran.length = 0;
    expect(await jobs.runNow('test.periodic')).toEqual({ counted: 1 });
    expect(ran).toEqual(['periodic']);
    expect(await jobsNamed('test.periodic')).toMatchObject([{ state: 'completed' }]);
  });
});

// @module-tag postgres
// The database adapter of the EventBus port passes the port's contract (on PGlite, and on
// PostgreSQL where DATABASE_URL names one), and on PostgreSQL delivers an event published by one
// server's bus to the subscribers of another's: two database handles, each with its own pool and
// its own LISTEN connection, as two processes behind a load balancer have.
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseOfTwoServers, openTestDatabase } from '../testing/test-app';
import { databaseEventBus, eventOf } from './database-event-bus';
import type { TEvent } from './event-bus';
import { eventBusContract } from './event-bus.contract';

// One database for the contract's tests: each test's bus listens and stops on its own.
let contractDatabase: ReturnType<typeof openTestDatabase> | null = null;
afterAll(async () => {
  await (await contractDatabase)?.close();
});
eventBusContract('database (NOTIFY)', async (options) => {
  contractDatabase ??= openTestDatabase();
  return { bus: databaseEventBus({ database: await contractDatabase, ...options }) };
});

describe('the database event bus across servers', () => {
  const servers = databaseOfTwoServers();

  it('delivers an event published through one server to the subscribers of both', async () => {
    const { first, second } = servers;
    const failures: unknown[] = [];
    const onError = (error: unknown) => failures.push(error);
    const busA = databaseEventBus({ database: first, onError });
    const busB = databaseEventBus({ database: second, onError });
    try {
      const heard = (bus: typeof busA) =>
        new Promise<TEvent<'consent.granted'>>((resolve) => {
          const stop = bus.subscribe('consent.granted', (event) => {
            stop();
            resolve(event);
          });
        });
      const onA = heard(busA);
      const onB = heard(busB);
      const data = { consentId: 'cns_across', clientId: 'cli_a', merchantId: 'mer_a' };
      // A bus listens once its LISTEN connection is open; a publish waits for that, so B's
      // publish of an event nobody here waits for means B listens before A sends: a slow
      // connection of B's cannot make it miss the event under test.
      await busB.publish({ type: 'consent.created', data, id: 'evt_b_listens' });
      const sent = await busA.publish({ type: 'consent.granted', data, id: 'evt_across' });
      expect(await onB).toEqual(sent);
      expect(await onA).toEqual(sent);
      expect(sent).toEqual({ type: 'consent.granted', data, id: 'evt_across' });
      expect(failures).toEqual([]);
    } finally {
      await busA.close();
      await busB.close();
    }
  });
});

describe('the database event bus when the database refuses the NOTIFY', () => {
  it('resolves the publish with the event and tells onError: the change it reports has committed', async () => {
    const failures: unknown[] = [];
    const refused = new Error('connection terminated');
    const bus = databaseEventBus({
      database: {
        db: { execute: () => Promise.reject(refused) } as never,
        listen: () => Promise.resolve(async () => {}),
      },
      onError: (error) => failures.push(error),
    });
    const data = { consentId: 'cns_refused', clientId: 'cli_a', merchantId: 'mer_a' };
    await expect(
      bus.publish({ type: 'consent.created', data, id: 'evt_refused' }),
    ).resolves.toEqual({ type: 'consent.created', data, id: 'evt_refused' });
    expect(failures).toEqual([refused]);
    await bus.close();
  });
});

describe('the database event bus, its notice sent inside a change', () => {
  it('delivers the notice of a change that commits, and none of one that rolls back', async () => {
    const database = await openTestDatabase();
    const bus = databaseEventBus({ database, onError: (error) => expect.fail(String(error)) });
    try {
      const received: string[] = [];
      let heardLast: () => void = () => {};
      const last = new Promise<void>((resolve) => (heardLast = resolve));
      bus.subscribe('consent.created', (event) => {
        received.push(event.id);
        if (event.id === 'evt_last') heardLast();
      });
      const channel = await bus.notifyChannel!();
      const data = { consentId: 'cns_inside', clientId: 'cli_a', merchantId: 'mer_a' };
      const notice = (id: string) =>
        sql`SELECT pg_notify(${channel}, ${JSON.stringify(eventOf({ type: 'consent.created', data, id }))})`;
      await database.db.transaction(async (tx) => {
        await tx.execute(notice('evt_committed'));
      });
      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(notice('evt_rolled_back'));
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      // Notices arrive in commit order: once this one is heard, any sent before it has been.
      await bus.publish({ type: 'consent.created', data, id: 'evt_last' });
      await last;
      expect(received).toEqual(['evt_committed', 'evt_last']);
    } finally {
      await bus.close();
      await database.close();
    }
    await expect(bus.notifyChannel!()).rejects.toThrow('The event bus is closed');
  });
});

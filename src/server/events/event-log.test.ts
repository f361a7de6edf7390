// @module-tag postgres
// A stream's events reach its watchers whatever order their transactions commit in: a watcher
// resumes after the highest id it was handed, so an event of the stream must never commit after
// one with a higher id (docs/payments.md "Events"). On PostgreSQL two transactions run at once,
// each on its own connection; PGlite is one session, whose transactions run one after another.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TDb } from '../db/database';
import { statementsWaitingForALock } from '../testing/lock-waits';
import { databaseOfTwoServers } from '../testing/test-app';
import { eventHub } from './event-hub';
import { appendEvent, eventStreams } from './event-log';

const servers = databaseOfTwoServers();

describe('the event log', () => {
  it('hands a watcher the event whose transaction began first, even when a later one commits before it', async () => {
    const { first, second } = servers;
    const stream = eventStreams.payment(randomUUID());
    const append = (tx: TDb, type: string) => appendEvent(tx, { stream, type, data: {} });

    // The first transaction appends, then stays open until released.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let appended = () => {};
    const firstAppended = new Promise<void>((resolve) => (appended = resolve));
    const firstCommit = first.db.transaction(async (tx) => {
      await append(tx, 'first');
      appended();
      await held;
    });
    await firstAppended;

    // The second, begun after it, commits at once unless something orders it after the first.
    let secondCommitted = false;
    const secondCommit = first.db
      .transaction(async (tx) => {
        await append(tx, 'second');
      })
      .then(() => {
        secondCommitted = true;
      });

    const hub = eventHub(second);
    const seen: string[] = [];
    try {
      if (first.url) {
        await expect
          .poll(async () => secondCommitted || (await statementsWaitingForALock(second.db)) > 0)
          .toBe(true);
        // A watcher reads the stream while the first transaction is still open.
        await hub.watch(stream, 0, (event) => seen.push(event.type));
        release();
      } else {
        // One session: the watcher's read waits for the open transaction, as the second does.
        const watching = hub.watch(stream, 0, (event) => seen.push(event.type));
        release();
        await watching;
      }
      await Promise.all([firstCommit, secondCommit]);
      await expect.poll(() => seen).toEqual(['first', 'second']);
    } finally {
      release();
      await hub.close();
    }
  });
});

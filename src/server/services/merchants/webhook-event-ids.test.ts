// A merchant event's public id (docs/webhooks.md, "Events"): what a receiver deduplicates on, so
// it must not repeat across databases (a reset, a second server) nor count anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../../db/database';
import { merchantEvents } from '../../db/schema';
import { createTestClient, openTestDatabase } from '../../testing/test-app';
import { recordMerchantEvent } from '../change-records';

/** The clients here have no endpoint: an event makes no delivery, so nothing is queued. */
const NO_ENDPOINTS_QUEUE = {
  enqueue: () => Promise.reject(new Error('An event of a client without endpoints queued a job')),
};

let first: TDatabase;
let second: TDatabase;
beforeAll(async () => {
  [first, second] = await Promise.all([openTestDatabase(), openTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

async function recordEvents(database: TDatabase, count: number): Promise<string[]> {
  const { clientId } = await createTestClient(database);
  for (let n = 0; n < count; n += 1) {
    await database.db.transaction((tx) =>
      recordMerchantEvent(NO_ENDPOINTS_QUEUE, tx, {
        clientId,
        consentId: null,
        type: 'consent.granted',
        data: { n },
        now: new Date('2026-11-23T10:00:00Z'),
      }),
    );
  }
  const rows = await database.db
    .select({ publicId: merchantEvents.publicId })
    .from(merchantEvents)
    .orderBy(merchantEvents.id);
  return rows.map((row) => row.publicId);
}

describe('merchant event ids', () => {
  it('differ between two fresh databases from the first event, and are no number sequence', async () => {
    const [ours, theirs] = await Promise.all([recordEvents(first, 3), recordEvents(second, 3)]);
    expect(ours[0]).not.toBe(theirs[0]);
    expect(new Set([...ours, ...theirs]).size).toBe(6);
    for (const id of [...ours, ...theirs]) {
      // evt_ and 16 random bytes, base64url: nothing of a counter in it.
      expect(id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
      expect(id).not.toMatch(/^evt_\d+$/);
    }
  });
});

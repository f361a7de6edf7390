// @module-tag postgres
// The outbox survives a crash between commit and send (docs/jobs.md "Crash tests"), on
// PostgreSQL: a real server process (`src/server/main.ts`) that commits and never sends
// (JOBS_WORK=off) registers a webhook, grants a consent whose future payment falls due, and adds
// a passkey the payer must hear of; it is killed (SIGKILL) before anything goes out. Another
// server on the same database sends each once: the webhook with its one event id, the SMS once,
// the payment collected once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../db/database';
import { commitWithoutSending, expectEachSentOnce, webhookReceiver } from '../testing/crash-outbox';
import {
  scratchDatabase,
  startServerProcess,
  stopServerProcess,
  type TServerProcess,
} from '../testing/server-process';
import { createTestClient } from '../testing/test-app';

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: TDatabase;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
const servers: TServerProcess[] = [];
beforeAll(async () => {
  scratch = await scratchDatabase('test_outbox');
  database = await openDatabase({ kind: 'postgres', url: scratch.url });
  receiver = await webhookReceiver();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => stopServerProcess(server.child, 'SIGKILL')));
  await receiver?.close();
  await database?.close();
  await scratch?.drop();
});

const start = async (env: Record<string, string>) => {
  const server = await startServerProcess(scratch.url, {
    WEBHOOKS_ALLOW_PRIVATE: 'on',
    COLLECTION_INTERVAL_MS: '1000',
    ...env,
  });
  servers.push(server);
  return server;
};

describe('a server killed between commit and send', () => {
  it('leaves a webhook, an SMS and a collection that another server sends once each', async () => {
    const client = await createTestClient(database, { name: 'Tola Stores' });
    const first = await start({ JOBS_WORK: 'off' });
    const committed = await commitWithoutSending(first.base, client.authorization, receiver.url);
    await stopServerProcess(first.child, 'SIGKILL');
    // Nothing went out before the kill.
    expect(receiver.received).toEqual([]);

    const second = await start({});
    await expectEachSentOnce(second.base, committed, receiver.received);
  }, 600_000);
});

// @module-tag postgres
// The outbox survives a crash between commit and send (docs/jobs.md "Crash tests"), on
// PostgreSQL: a payer is made on a server that sends; then a real server process
// (`src/server/main.ts`) that commits and never sends (JOBS_WORK=off) registers a webhook, grants
// a consent whose future payment falls due (its SMS receipt too), adds a passkey the payer must
// hear of, and is asked a sign-up code; it is killed (SIGKILL) before anything goes out. Another
// server on the same database sends each once: the webhook with its one event id, each SMS once
// (and the code signs its number up), the payment collected once.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openDatabase, type TDatabase } from '../db/database';
import { crashBetweenCommitAndSend, webhookReceiver } from '../testing/crash-outbox';
import {
  freePort,
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

/** A server at `port`: every server of the test at one address (the passkeys' origin). */
const start = async (port: number, env: Record<string, string>) => {
  const base = `http://localhost:${port}`;
  const server = await startServerProcess(scratch.url, {
    PORT: String(port),
    PUBLIC_URL: base,
    WEBHOOKS_ALLOW_PRIVATE: 'on',
    COLLECTION_INTERVAL_MS: '1000',
    ...env,
  });
  servers.push(server);
  return { ...server, base };
};

describe('a server killed between commit and send', () => {
  it('leaves a webhook, each SMS and a collection that another server sends once each', async () => {
    const client = await createTestClient(database, { name: 'Tola Stores' });
    const port = await freePort();
    await crashBetweenCommitAndSend(
      (env) => start(port, env),
      async () => client.authorization,
      receiver,
    );
  }, 900_000);
});

// The outbox survives a crash between commit and send (docs/jobs.md "Crash tests"), on the
// embedded default: a payer is made on a server that sends; then a real server process (the
// build of `src/server/main.ts`, as `npm start` runs it) on PGlite in the same DATA_DIR that
// commits and never sends (JOBS_WORK=off) registers a webhook, grants a consent whose future
// payment falls due (its SMS receipt too), adds a passkey the payer must hear of, and is asked a
// sign-up code; it is killed (SIGKILL) before anything goes out. Another server on the same
// DATA_DIR sends each once: the webhook with its one event id, each SMS once (and the code signs
// its number up), the payment collected once. (On PostgreSQL: crash-outbox.postgres.test.ts.)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOperatorFile } from '../operator-file';
import { crashBetweenCommitAndSend, webhookReceiver } from '../testing/crash-outbox';
import {
  freePort,
  printedOnceReady,
  serverBuild,
  stopServerProcess,
  type TServerProcess,
} from '../testing/server-process';

let dataDir: string;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
const servers: TServerProcess[] = [];
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'consent-outbox-'));
  receiver = await webhookReceiver();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => stopServerProcess(server.child, 'SIGKILL')));
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The server on PGlite in the test's DATA_DIR, with `env` added, at `port`: every server of the
 * test listens at one address, since the payer's passkeys are bound to its origin.
 */
async function start(port: number, env: Record<string, string>): Promise<TServerProcess> {
  const base = `http://localhost:${port}`;
  const { DATABASE_URL: _none, ...inherited } = process.env;
  const child = spawn(process.execPath, [await serverBuild()], {
    env: {
      ...inherited,
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEBHOOKS_ALLOW_PRIVATE: 'on',
      COLLECTION_INTERVAL_MS: '1000',
      ...env,
    },
  });
  const lines = await printedOnceReady(child, (output) => output.includes('Sign in: '));
  const server = { child, base, lines };
  servers.push(server);
  return server;
}

/** A merchant client made by the operator's call of the running server (npm run client:create). */
async function operatorClient(): Promise<string> {
  const operator = readOperatorFile(dataDir);
  if (!operator) throw new Error('the server wrote no operator file');
  const answer = await fetch(`${operator.url}/api/operator/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Tola Stores' }),
  });
  expect(answer.status).toBe(201);
  const { clientId, secret } = (await answer.json()) as { clientId: string; secret: string };
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

describe('a server on PGlite killed between commit and send', () => {
  it('leaves a webhook, each SMS and a collection that the next server sends once each', async () => {
    const port = await freePort();
    await crashBetweenCommitAndSend((env) => start(port, env), operatorClient, receiver);
  }, 900_000);
});

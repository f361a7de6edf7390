// @module-tag postgres
// A deployment's processes apart (docs/deploy.md): ROLE=api serves every route and works on no
// job; ROLE=worker works on the jobs and answers only its health and metrics. Side by side on one
// PostgreSQL, a payment paid through the API process is told to the merchant by a worker; and when
// that worker dies while its delivery waits for an answer, another worker sends it again, with the
// same webhook-id, within 30 s of the death (docs/jobs.md "A process that dies").
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from './db/database';
import {
  payByTransfer,
  scratchDatabase,
  startServerProcess,
  stopServerProcess,
  type TServerProcess,
} from './testing/server-process';
import { createTestClient } from './testing/test-app';

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: TDatabase;
const servers: TServerProcess[] = [];

/**
 * A merchant's webhook endpoint that holds its first request unanswered (as an endpoint that
 * hangs), and answers every later one.
 */
async function holdingReceiver() {
  const received: { id: string; at: number }[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), at: Date.now() });
      if (received.length === 1) held.push(response);
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let receiver: Awaited<ReturnType<typeof holdingReceiver>>;
beforeAll(async () => {
  scratch = await scratchDatabase('test_roles');
  database = await openDatabase({ kind: 'postgres', url: scratch.url });
  receiver = await holdingReceiver();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => stopServerProcess(server.child, 'SIGKILL')));
  await receiver?.close();
  await database?.close();
  await scratch?.drop();
});

const start = async (role: 'api' | 'worker') => {
  const server = await startServerProcess(scratch.url, {
    ROLE: role,
    WEBHOOKS_ALLOW_PRIVATE: 'on',
  });
  servers.push(server);
  return server;
};

describe('ROLE=api and ROLE=worker side by side on one PostgreSQL', () => {
  it('serve and work apart, and a dead worker’s delivery goes again from another within 30 s', async () => {
    const client = await createTestClient(database, { name: 'Tola Stores' });
    const api = await start('api');
    const [first, second] = [await start('worker'), await start('worker')];

    // The worker answers its health and nothing a payer or merchant asks.
    expect((await fetch(`${first.base}/api/health`)).status).toBe(200);
    const refused = await fetch(`${first.base}/api/openapi.json`);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await fetch(`${api.base}/api/openapi.json`)).status).toBe(200);

    // The second worker stands still while the first takes the delivery.
    second.child.kill('SIGSTOP');
    const hook = await fetch(`${api.base}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: client.authorization },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(hook.status, await hook.clone().text()).toBe(201);
    await payByTransfer(api.base, client);

    // The first worker's delivery reaches the endpoint, which holds it; the worker dies there.
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(1);
    await stopServerProcess(first.child, 'SIGKILL');
    const died = Date.now();
    second.child.kill('SIGCONT');

    // The held delivery goes again with its webhook-id; the payment's other events may come
    // after it, so the count is no measure.
    const [held] = receiver.received;
    const redelivered = () => receiver.received.slice(1).find((r) => r.id === held?.id);
    await expect.poll(redelivered, { timeout: 60_000 }).toBeDefined();
    const pickedUp = (redelivered()?.at ?? Infinity) - died;
    console.info(`The dead worker's delivery went again ${pickedUp} ms after its death`);
    expect(pickedUp).toBeLessThan(30_000);
  }, 900_000);
});

// @module-tag postgres
// DATABASE_POOL_URL (docs/deploy.md "Connections"): the request pool through PgBouncer in
// transaction mode, where each transaction may run on another server connection, while
// migrations, locks, LISTEN and the job engine keep sessions on DATABASE_URL. Consents are read
// at once over the pooler's few connections, the way a statement prepared by name on one of them
// would be missing on another, and a payment completes with its ledger and its event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZConsentReadResponse } from '../domain/schemas/consent';
import { ZCreateConsentResponse } from '../domain/schemas/merchant-api';
import { openDatabase, type TDatabase } from './db/database';
import { startPgBouncer, type TPgBouncer } from './testing/pgbouncer';
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
let bouncer: TPgBouncer;
let server: TServerProcess | undefined;

beforeAll(async () => {
  scratch = await scratchDatabase('test_pooled');
  database = await openDatabase({ kind: 'postgres', url: scratch.url });
  bouncer = await startPgBouncer(scratch.url, 3);
});
afterAll(async () => {
  if (server) await stopServerProcess(server.child, 'SIGKILL');
  await bouncer?.stop();
  await database?.close();
  await scratch?.drop();
});

describe('DATABASE_POOL_URL through PgBouncer in transaction mode', () => {
  it('reads consents at once and completes a payment through the pooler', async () => {
    const client = await createTestClient(database, { name: 'Tola Stores' });
    server = await startServerProcess(scratch.url, { DATABASE_POOL_URL: bouncer.url });
    const { base } = server;
    const before = await bouncer.transactions();

    const created = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const response = await fetch(`${base}/api/v1/consents`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: client.authorization },
          body: JSON.stringify({
            payments: [{ type: 'immediate', amount: 100_000 + index, narration: `Order ${index}` }],
          }),
        });
        expect(response.status, await response.clone().text()).toBe(201);
        return ZCreateConsentResponse.parse(await response.json()).consentId;
      }),
    );
    const read = async (consentId: string) => {
      const response = await fetch(`${base}/api/consent/${consentId}?clientId=${client.clientId}`);
      expect(response.status, await response.clone().text()).toBe(200);
      return ZConsentReadResponse.parse(await response.json()).consent;
    };
    for (let round = 0; round < 3; round += 1) await Promise.all(created.map(read));

    const paid = await payByTransfer(base, client);
    await expect
      .poll(async () => (await read(paid)).payments[0]?.status, { timeout: 60_000 })
      .toBe('executed');
    // The requests' transactions went through the pooler (its counts come once a second).
    await expect
      .poll(async () => (await bouncer.transactions()) - before, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(created.length * 4);
  }, 600_000);
});

// @module-tag postgres
// Several server processes on one PostgreSQL, as a deployment at scale runs them (ARCHITECTURE.md):
// two real processes of `src/server/main.ts`, started at the same moment on an empty database,
// migrate and seed it once between them, and a payment paid through one is heard on a stream opened
// on the other. PostgreSQL only: PGlite is one process's database (vitest.config.ts runs this file
// when DATABASE_URL is set, as `npm run test:postgres` does).
import { type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZConsentReadResponse } from '../domain/schemas/consent';
import { ZTransferDetailsResponse } from '../domain/schemas/payment';
import { scratchDatabase, startServerProcess, stopServerProcess } from './testing/server-process';

let database: Awaited<ReturnType<typeof scratchDatabase>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = await scratchDatabase('test_procs');
});
afterAll(async () => {
  await Promise.all(children.map((child) => stopServerProcess(child)));
  await database.drop();
});

/** Starts `src/server/main.ts` on the test database; resolves with its base URL and demo lines. */
async function start(): Promise<{ base: string; demo: string[] }> {
  const server = await startServerProcess(database.url);
  children.push(server.child);
  return {
    base: server.base,
    demo: server.lines.filter((line) => line.startsWith('Demo consent')),
  };
}

describe('two server processes on one PostgreSQL', () => {
  it('start together on an empty database, and either hears a payment paid through the other', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    // One migration, one seed: both name the same demo consents.
    const path = (line: string) => new URL(line.split(': ').pop() ?? '').pathname;
    expect(a.demo.map(path)).toEqual(b.demo.map(path));
    const line = a.demo.find((l) => l.includes('immediate payment only')) ?? '';
    const consentId = path(line).split('/').pop() ?? '';
    const clientId = new URL(line.split(': ').pop() ?? '').searchParams.get('clientId') ?? '';

    const read = ZConsentReadResponse.parse(
      await (await fetch(`${b.base}/api/consent/${consentId}?clientId=${clientId}`)).json(),
    );
    const payment = read.consent.payments[0];
    expect(payment?.status).toBe('pending');

    // The transfer is issued through A, its page follows it on B with the account's token, and
    // it is paid through A.
    const issued = await fetch(
      `${a.base}/api/payments/${payment?.paymentId}/transfer?consentId=${consentId}`,
      { method: 'POST' },
    );
    const { transferDetails: details, chargeToken } = ZTransferDetailsResponse.parse(
      await issued.json(),
    );
    const abort = new AbortController();
    const stream = await fetch(
      `${b.base}/api/events/payments/${payment?.paymentId}?consentId=${consentId}&clientId=${clientId}&chargeToken=${chargeToken}`,
      { headers: { accept: 'text/event-stream' }, signal: abort.signal },
    );
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const heard = (async () => {
      while (!text.includes('"status":"completed"')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    })();
    await expect.poll(() => text).toContain('event: ready');

    const sent = await fetch(`${a.base}/api/sandbox/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountNumber: details.accountNumber, amount: details.amount }),
    });
    expect(sent.status).toBe(200);
    await heard;
    abort.abort();
    expect(text).toContain('"status":"completed"');

    const after = ZConsentReadResponse.parse(
      await (await fetch(`${b.base}/api/consent/${consentId}?clientId=${clientId}`)).json(),
    );
    expect(after.consent.payments[0]?.status).toBe('executed');
  }, 600_000);
});

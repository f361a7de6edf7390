// @module-tag postgres
// Any server process delivers any event: two apps, each with its own database connections and its
// own event hub, as two processes behind a load balancer have. On PostgreSQL each opens its own
// pool and LISTEN connection to the one database, so the event crosses connections by NOTIFY; on
// PGlite, one process's database, the two apps share it.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestClient, databaseOfTwoServers, testConfig } from '../testing/test-app';
import { eventHub } from './event-hub';
import { appendEvent, eventStreams } from './event-log';

const servers = databaseOfTwoServers();

describe('event delivery across servers', () => {
  it('a payment completed through one server reaches a stream watched on the other', async () => {
    const { first, second } = servers;
    const appA = await buildApp({ config: testConfig(), database: first, logger: false });
    const appB = await buildApp({ config: testConfig(), database: second, logger: false });
    await Promise.all([appA.ready(), appB.ready()]);
    const base = await appA.listen({ port: 0, host: '127.0.0.1' });
    try {
      const client = await createTestClient(first, { name: 'Tola Stores' });
      const created = await appB.inject({
        method: 'POST',
        url: '/api/v1/consents',
        headers: { authorization: client.authorization },
        payload: {
          payments: [{ type: 'immediate', amount: 50_000, narration: 'Order 7' }],
          requirements: { requiresAuth: false },
        },
      });
      const { consentId } = created.json<{ consentId: string }>();
      const read = await appB.inject({
        method: 'GET',
        url: `/api/consent/${consentId}?clientId=${client.clientId}`,
      });
      const paymentId = read.json<{ consent: { payments: Array<{ paymentId: string }> } }>().consent
        .payments[0]?.paymentId;

      // Paid entirely through server B: the transfer account (whose token the page follows the
      // payment with), then the bank's credit.
      const opened = await appB.inject({
        method: 'POST',
        url: `/api/payments/${paymentId}/transfer?consentId=${consentId}`,
      });
      const { transferDetails, chargeToken } = opened.json<{
        transferDetails: { accountNumber: string };
        chargeToken: string;
      }>();
      const { accountNumber } = transferDetails;

      const abort = new AbortController();
      const stream = await fetch(
        `${base}/api/events/payments/${paymentId}?consentId=${consentId}&clientId=${client.clientId}&chargeToken=${chargeToken}`,
        { headers: { accept: 'text/event-stream' }, signal: abort.signal },
      );
      expect(stream.status).toBe(200);
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      const readUntil = async (needle: string) => {
        const deadline = Date.now() + 10_000;
        while (!text.includes(needle) && Date.now() < deadline) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
      };
      await readUntil('event: ready');

      const sent = await appB.inject({
        method: 'POST',
        url: '/api/sandbox/transfers',
        payload: { accountNumber, amount: 50_000 },
      });
      expect(sent.json()).toMatchObject({ outcome: 'credited' });

      await readUntil('"status":"completed"');
      abort.abort();
      expect(text).toContain('"status":"completed"');
      expect(text).toContain('"paymentType":"bank_transfer"');
    } finally {
      await appA.close();
      await appB.close();
    }
  });

  it('a hub hands each watcher every event once, in order, however the notices arrive', async () => {
    const { first, second } = servers;
    const hub = eventHub(second);
    const stream = eventStreams.payment(`pay_hub_${Date.now()}`);
    const seen: number[] = [];
    const stop = await hub.watch(stream, 0, (event) => seen.push(event.id));
    const ids: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      ids.push(
        await first.db.transaction((tx) =>
          appendEvent(tx as never, { stream, type: 'payment_status', data: { i } }),
        ),
      );
    }
    const deadline = Date.now() + 10_000;
    while (seen.length < ids.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    stop();
    await hub.close();
    expect(seen).toEqual(ids);
  });
});

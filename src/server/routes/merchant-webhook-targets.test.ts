// Where a webhook may go (docs/webhooks.md, "Where a webhook may go"), with the default
// configuration: only https URLs whose host resolves, every answer of it, to public unicast
// addresses. Every spelling of an internal address is refused at registration, by the merchant's
// call and the operator's, and the name is checked again before each delivery. The tests' DNS
// (testing/host-resolver.ts) answers instead of the network.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../domain/errors';
import { webhookDeliverer } from '../services/merchants/webhooks';
import { PUBLIC_TEST_ADDRESS, testHostResolver } from '../testing/host-resolver';
import { consentWithPayment, payByCard } from '../testing/payments';
import { createTestClient, startTestApp, testClock } from '../testing/test-app';

const OPERATOR_TOKEN = 'operator-token-for-webhook-targets-0123456789';
const clock = testClock('2026-11-23T10:00:00Z');
const dns = testHostResolver();
dns.answer('127.0.0.1.nip.io', ['127.0.0.1']);
dns.answer('10.0.0.1.nip.io', ['10.0.0.1']);
dns.answer('metadata.shop.example', ['169.254.169.254']);
dns.answer('mixed.shop.example', [PUBLIC_TEST_ADDRESS, '10.0.0.7']);
dns.answer('ipv6-loopback.shop.example', ['::1']);
dns.answer('mapped.shop.example', ['::ffff:192.168.0.10']);
dns.answer('cloudflare-dns.shop.example', ['2606:4700:4700::1111']);

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let merchant: Awaited<ReturnType<typeof createTestClient>>;
beforeAll(async () => {
  ctx = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    operatorToken: OPERATOR_TOKEN,
    providers: { dns },
  });
  merchant = await createTestClient(ctx.database, { name: 'Tola Stores' });
});
afterAll(async () => {
  await ctx.close();
});

const register = (url: string, authorization: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { authorization },
    payload: { url },
  });

/** Internal addresses in the spellings that once reached inside, and plain http. */
const REFUSED: Array<[string, string]> = [
  ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
  ['10.0.0.0/8', 'https://10.0.0.1/hooks'],
  ['172.16.0.0/12', 'https://172.16.0.1/hooks'],
  ['the top of 172.16.0.0/12', 'https://172.31.255.254/hooks'],
  ['192.168.0.0/16', 'https://192.168.1.1/hooks'],
  ['loopback', 'https://127.0.0.1/hooks'],
  ["loopback, a database's port", 'https://127.0.0.1:5432/'],
  ['loopback elsewhere in 127/8', 'https://127.8.9.10/hooks'],
  ['localhost', 'https://localhost/hooks'],
  ['localhost with a trailing dot', 'https://LOCALHOST./hooks'],
  ['loopback in decimal', 'https://2130706433/hooks'],
  ['loopback in hex', 'https://0x7f000001/hooks'],
  ['loopback in octal', 'https://0177.0.0.1/hooks'],
  ['loopback, short form', 'https://127.1/hooks'],
  ['loopback, percent-encoded dots', 'https://127%2e0%2e0%2e1/hooks'],
  ['IPv6 loopback', 'https://[::1]/hooks'],
  ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hooks'],
  ['IPv4-mapped IPv6 loopback in hex', 'https://[::ffff:7f00:1]/hooks'],
  ['IPv4-mapped IPv6 private', 'https://[::ffff:10.0.0.1]/hooks'],
  ['IPv4-compatible IPv6 loopback', 'https://[::127.0.0.1]/hooks'],
  ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/hooks'],
  ['unique local IPv6', 'https://[fd00::1]/hooks'],
  ['link-local IPv6', 'https://[fe80::1]/hooks'],
  ['unspecified', 'https://0.0.0.0/hooks'],
  ['unspecified, short form', 'https://0/hooks'],
  ['IPv6 unspecified', 'https://[::]/hooks'],
  ['carrier-grade NAT', 'https://100.64.0.1/hooks'],
  ['broadcast', 'https://255.255.255.255/hooks'],
  ['multicast', 'https://224.0.0.1/hooks'],
  ['documentation range', 'https://192.0.2.1/hooks'],
  ['a nip.io name resolving to loopback', 'https://127.0.0.1.nip.io/hooks'],
  ['a nip.io name resolving to 10.0.0.1', 'https://10.0.0.1.nip.io:8080/hooks'],
  ['a name resolving to cloud metadata', 'https://metadata.shop.example/hooks'],
  ['a name with one private answer among public ones', 'https://mixed.shop.example/hooks'],
  ['a name resolving to IPv6 loopback', 'https://ipv6-loopback.shop.example/hooks'],
  ['a name resolving to IPv4-mapped private', 'https://mapped.shop.example/hooks'],
  ['a name that does not resolve', 'https://nowhere.invalid/hooks'],
  ['http to a public name', 'http://shop.example/hooks'],
  ['a user and password in a public https URL', 'https://hooks:secret@shop.example/hooks'],
  ['a user alone in a public https URL', `https://hooks@${PUBLIC_TEST_ADDRESS}/hooks`],
  ['http to a public address', `http://${PUBLIC_TEST_ADDRESS}/hooks`],
  ['http to localhost', 'http://localhost:4000/hooks'],
  ['http to 127.0.0.1', 'http://127.0.0.1:4000/hooks'],
];

describe('registering a webhook', () => {
  // A client of its own for each URL: the 10 endpoints a client may have never stand in the way.
  it.each(REFUSED)(
    'refuses %s (%s) with 400 WEBHOOK_URL_REFUSED, and keeps nothing',
    async (_what, url) => {
      const client = await createTestClient(ctx.database, { name: 'Tola Stores' });
      const response = await register(url, client.authorization);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(errorBody('WEBHOOK_URL_REFUSED'));
      const listed = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/webhooks',
        headers: { authorization: client.authorization },
      });
      expect(listed.json().webhooks).toEqual([]);
    },
  );

  it.each([
    ['a name resolving to a public address', 'https://shop.example/hooks'],
    ['a name resolving to a public IPv6 address', 'https://cloudflare-dns.shop.example/hooks'],
    ['a public IPv4 address', `https://${PUBLIC_TEST_ADDRESS}/hooks`],
    ['a public IPv6 address', 'https://[2606:4700:4700::1111]/hooks'],
    ['a port of its own', 'https://shop.example:8443/hooks'],
  ])('accepts %s (%s)', async (_what, url) => {
    const client = await createTestClient(ctx.database, { name: 'Public Shop' });
    expect((await register(url, client.authorization)).statusCode).toBe(201);
  });

  it("holds the operator's registration (npm run client:webhook) to the same rule", async () => {
    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    for (const [url, status] of [
      ['https://169.254.169.254/latest/meta-data/', 400],
      ['http://localhost:4000/hooks', 400],
      ['https://shop.example/hooks', 201],
    ] as const) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/operator/clients/${merchant.clientId}/webhooks`,
        headers: operator,
        payload: { url },
      });
      expect(response.statusCode, url).toBe(status);
      if (status === 400) expect(response.json()).toEqual(errorBody('WEBHOOK_URL_REFUSED'));
    }
  });
});

/** A TCP listener on this machine that counts the connections it is offered. */
async function connectionCounter(): Promise<{
  port: number;
  count(): number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    count: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('delivering a webhook', () => {
  it('checks the name again before each delivery: once it resolves to a private address, nothing is sent', async () => {
    const inside = await connectionCounter();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    // Public when registered...
    dns.answer('rebind.shop.example', [PUBLIC_TEST_ADDRESS]);
    const url = `https://rebind.shop.example:${inside.port}/hooks`;
    expect((await register(url, consent.client.authorization)).statusCode).toBe(201);
    // ...this machine by the time of the delivery.
    dns.answer('rebind.shop.example', ['127.0.0.1']);
    expect((await payByCard(ctx.app, consent)).statusCode).toBe(200);

    const deliverer = webhookDeliverer(ctx.context, { timeoutMs: 300 });
    await deliverer.runDue();
    expect(inside.count()).toBe(0);
    expect(dns.asked.filter((name) => name === 'rebind.shop.example')).toHaveLength(2);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/webhooks/deliveries',
      headers: { authorization: consent.client.authorization },
    });
    // The payment also granted the consent (it asked for nothing else): consent.granted is owed too.
    const deliveries: { eventType: string }[] = listed.json().deliveries;
    expect(deliveries.filter((d) => d.eventType === 'payment.completed')).toEqual([
      expect.objectContaining({
        eventType: 'payment.completed',
        status: 'pending',
        attempts: 1,
        lastStatus: null,
        lastError: 'not sent: the host does not resolve to addresses webhooks may reach',
      }),
    ]);
    await inside.close();
  });
});

// A closing server ends a kept-alive connection whose request was under way when the close began:
// its answer says `connection: close` and the connection ends with it, so the close does not wait
// out KEEP_ALIVE_TIMEOUT_MS (here longer than the test may run). Over a real socket.
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { startTestApp } from './testing/test-app';

it('answers a request under way at the close with connection: close, and closes without waiting out the keep-alive', async () => {
  const ctx = await startTestApp({ env: { KEEP_ALIVE_TIMEOUT_MS: '3600000' } });
  const base = new URL(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
  const body = JSON.stringify({ paymentId: 'not-a-payment' });
  const arrived = new Promise((resolve) => ctx.app.server.once('request', resolve));

  const socket = connect(Number(base.port), base.hostname);
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  const ended = new Promise((resolve) => socket.once('close', resolve));
  // The headers and half the body: the request is under way, its connection not idle.
  socket.write(
    `POST /api/payments/card/public HTTP/1.1\r\nhost: ${base.host}\r\nconnection: keep-alive\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body.slice(0, 10),
  );
  await arrived;

  const closed = ctx.close();
  socket.write(body.slice(10));
  await ended;
  await closed;

  const [head = ''] = answer.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 400 /);
  expect(head.toLowerCase()).toContain('\r\nconnection: close');
});

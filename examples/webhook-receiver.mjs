// A merchant's webhook receiver, as small as one can be (README, "Quickstart"): it checks each
// delivery's Oya-Signature on the raw body with the snippet of docs/webhooks.md, answers 200 once
// the event is stored (here: printed), and ignores an event id it has seen (deliveries may come
// twice).
//
//   WEBHOOK_SECRET=whsec_… PORT=4000 node examples/webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

export function verifyOyaWebhook(secret, header, rawBody, now = Date.now()) {
  const t = Number(/(?:^|,)t=(\d+)/.exec(header)?.[1]);
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
  if (!t || !v1 || Math.abs(now / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

const secret = process.env.WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  console.error('Set WEBHOOK_SECRET to the whsec_… secret that client:webhook printed.');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4000);
const seen = new Set();

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const rawBody = Buffer.concat(chunks).toString('utf8');
    if (!verifyOyaWebhook(secret, String(request.headers['oya-signature'] ?? ''), rawBody)) {
      console.log('refused: the signature does not verify');
      response.writeHead(400).end();
      return;
    }
    const event = JSON.parse(rawBody);
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(`verified ${event.type} ${event.id} ${JSON.stringify(event.data)}`);
    }
    response.writeHead(200).end();
  });
}).listen(port, '127.0.0.1', () =>
  console.log(`Receiving webhooks on http://localhost:${port}/hooks`),
);

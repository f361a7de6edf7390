// A merchant's webhook receiver, as small as one can be (README, "Quickstart"): it verifies each
// delivery with the `standardwebhooks` package (the Standard Webhooks reference verifier; any
// library of https://www.standardwebhooks.com does the same) on the raw body, answers 200 once
// the event is stored (here: printed), and ignores an event id it has seen (deliveries may come
// twice).
//
//   WEBHOOK_SECRET=whsec_… PORT=4000 node examples/webhook-receiver.mjs
//
// During a secret rotation deliveries carry a signature of the old and of the new secret, so
// this receiver keeps verifying whichever of the two it holds.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  console.error('Set WEBHOOK_SECRET to the whsec_… secret that client:webhook printed.');
  process.exit(2);
}
const webhook = new Webhook(secret);
const port = Number(process.env.PORT ?? 4000);
const seen = new Set();

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let event;
    try {
      // Checks webhook-id, webhook-timestamp (within 5 minutes) and webhook-signature.
      event = webhook.verify(rawBody, request.headers);
    } catch {
      console.log('refused: the signature does not verify');
      response.writeHead(400).end();
      return;
    }
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(`verified ${event.type} ${event.id} ${JSON.stringify(event.data)}`);
    }
    response.writeHead(200).end();
  });
}).listen(port, '127.0.0.1', () =>
  console.log(`Receiving webhooks on http://localhost:${port}/hooks`),
);

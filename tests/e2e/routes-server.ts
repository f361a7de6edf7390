// The server of the Routes screen's browser test (dashboard-routes.spec.ts): the real app on an
// in-memory PGlite database with cards on `sandbox,paystack` (Paystack's simulator, started
// here), whose provider health is a test's own in which Paystack was eliminated for cards 12
// minutes ago after 5 timeouts. Health is handed in as the server tests hand it in
// (testing/provider-health.ts): the recorded store is another part of the product. One merchant
// has one payment recovered by failover: Paystack could not open its one-time account (the
// attempt ended 'provider_error'), and the sandbox's took the money, by the sandbox bank's own
// transfer and notice. It prints the owner's invitation and the port's origin once ready.
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/database';
import { paymentAttempts, payments } from '../../src/server/db/schema';
import { operatorActor } from '../../src/server/services/dashboard/audit';
import { createInvitation } from '../../src/server/services/dashboard/staff';
import { createMerchantClient } from '../../src/server/services/merchants/merchant-clients';
import { startPaystackSimulator } from '../../src/server/testing/paystack-simulator/paystack-simulator';
import { eliminatingHealth } from '../../src/server/testing/provider-health';

const PAYSTACK_KEY = 'sk_test_e2eroutes00000000000000000000000';
const port = Number(process.env.PORT);
const paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY });
const config = loadConfig({
  ...process.env,
  PORT: String(port),
  LOG_LEVEL: 'warn',
  CARD_PROVIDERS: 'sandbox,paystack',
  PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
  PAYSTACK_BASE_URL: paystack.url,
});
const database = await openDatabase({ kind: 'pglite' });
const eliminatedAt = new Date(Date.now() - 12 * 60_000);
const reason = 'after 5 timeouts';
const app = await buildApp({
  config,
  database,
  webDir: path.resolve('dist/web'),
  providers: {
    health: eliminatingHealth({
      capability: 'cards',
      provider: 'paystack',
      since: eliminatedAt,
      reason,
      lines: [
        {
          capability: 'cards',
          provider: 'paystack',
          calls: 20,
          failures: 6,
          timeouts: 5,
          p95LatencyMs: 30_000,
          eliminated: { since: eliminatedAt, reason },
        },
        {
          capability: 'cards',
          provider: 'sandbox',
          calls: 41,
          failures: 0,
          timeouts: 0,
          p95LatencyMs: 420,
          eliminated: null,
        },
      ],
    }),
  },
});

const merchant = await createMerchantClient(database.db, { name: 'Kemi Fabrics' });
const authorization = `Basic ${Buffer.from(`${merchant.clientId}:${merchant.secret}`).toString('base64')}`;

/** A call to the app that must answer `status`. */
async function ask<T>(method: 'GET' | 'POST', url: string, payload?: object, status = 200) {
  // The merchant's credentials on its own API; the payer's calls go without them.
  const headers = url.startsWith('/api/v1/') ? { authorization } : {};
  const answer = await app.inject({ method, url, payload, headers });
  if (answer.statusCode !== status) throw new Error(`${method} ${url}: ${answer.body}`);
  return answer.json<T>();
}

const { consentId } = await ask<{ consentId: string }>(
  'POST',
  '/api/v1/consents',
  { payments: [{ type: 'immediate', amount: 250_000, narration: 'Order KF-7' }] },
  201,
);
const read = await ask<{ consent: { payments: Array<{ paymentId: string }> } }>(
  'GET',
  `/api/consent/${consentId}?clientId=${merchant.clientId}`,
);
const paymentId = read.consent.payments[0]?.paymentId ?? '';
const failedAt = new Date(Date.now() - 60_000);
await database.db.insert(paymentAttempts).values({
  id: `att_e2e_routes_${paymentId}`,
  paymentId,
  consentId,
  method: 'bank_transfer',
  status: 'failed',
  amount: 250_000,
  provider: 'paystack',
  failureCode: 'PAYMENT_FAILED',
  failureReason: 'provider_error',
  createdAt: failedAt,
  updatedAt: failedAt,
});
const { transferDetails } = await ask<{ transferDetails: { accountNumber: string } }>(
  'POST',
  `/api/payments/${paymentId}/transfer?consentId=${consentId}`,
);
await ask('POST', '/api/sandbox/transfers', {
  accountNumber: transferDetails.accountNumber,
  amount: 250_000,
});
for (let tries = 0; ; tries += 1) {
  const [payment] = await database.db
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (payment?.status === 'executed') break;
  if (tries > 600) throw new Error('The sandbox transfer did not pay the payment');
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const invited = await createInvitation(
  database.db,
  config,
  {
    merchantId: merchant.merchantId,
    role: 'owner',
    refundLimit: null,
    phoneNumber: null,
    invitedBy: operatorActor(merchant.merchantId),
  },
  new Date(),
);
await app.listen({ port, host: '0.0.0.0' });
console.log(`Invitation: ${invited.invitationUrl}`);

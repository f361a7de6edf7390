// The real server on an in-memory PGlite database, with the merchant clients the tests use.
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/database';
import { consents, payments } from '../../src/server/db/schema';
import { createConsent } from '../../src/server/services/consents';
import { seedDemo } from '../../src/server/services/demo-seed';
import { createMerchantClient } from '../../src/server/services/merchant-clients';
import { E2E } from './e2e-env';
import { GRANTED_CONSENT_KEY } from './fixtures';

const config = loadConfig({
  ...process.env,
  PORT: String(E2E.appPort),
  LOG_LEVEL: 'warn',
  AUTH_TOKEN_SECRET: E2E.tokenSecret,
});
const database = await openDatabase({ kind: 'pglite' });
await createMerchantClient(database.db, {
  merchantId: 'mer_e2e',
  clientId: E2E.clientId,
  secret: E2E.clientSecret,
  name: 'Tola Stores',
  image: '/demo/merchant-logo.svg',
  origins: [E2E.hostOrigin],
  colours: { primaryColour: '#0E7C66', secondaryColour: '#123B52' },
});
await createMerchantClient(database.db, {
  clientId: E2E.otherClientId,
  secret: E2E.otherClientSecret,
  name: 'Other Merchant',
});
await seedDemo(database.db, config);

// A consent already granted, with a collected payment: the granted screen has no other way in
// until the grant flow exists. Tests find it by re-posting with its idempotency key.
const granted = await createConsent(
  database.db,
  {
    payments: [
      { type: 'immediate', amount: 750_000, narration: 'Order #88' },
      ...[1, 2, 3].map((month) => ({
        type: 'future' as const,
        amount: 300_000,
        amountType: 'fixed' as const,
        narration: 'Weekly delivery',
        frequency: 'monthly' as const,
        interval: 1,
        dueDate: new Date(Date.UTC(2027, month, 1, 9)).toISOString(),
      })),
    ],
    dataSharing: { bvnData: true, bankAccounts: true },
    requirements: { requiresAuth: false, requiresAccount: false },
  },
  { clientId: E2E.clientId, merchantId: 'mer_e2e', idempotencyKey: GRANTED_CONSENT_KEY },
);
const grantedAt = new Date('2026-11-20T14:30:00Z');
await database.db
  .update(consents)
  .set({ status: 'granted', grantedAt })
  .where(eq(consents.id, granted.consentId));
await database.db
  .update(payments)
  .set({
    status: 'executed',
    executedAt: grantedAt,
    origin: { paymentMethod: 'bank_transfer', bankName: 'Sandbox Bank' },
  })
  .where(and(eq(payments.consentId, granted.consentId), eq(payments.type, 'immediate')));
const app = await buildApp({ config, database, webDir: path.resolve('dist/web') });
await app.listen({ port: E2E.appPort, host: '0.0.0.0' });

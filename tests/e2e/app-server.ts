// The real server on an in-memory PGlite database, with the merchant clients the tests use.
import path from 'node:path';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/database';
import { seedDemo } from '../../src/server/services/demo-seed';
import { createMerchantClient } from '../../src/server/services/merchant-clients';
import { E2E } from './e2e-env';

const config = loadConfig({ ...process.env, PORT: String(E2E.appPort), LOG_LEVEL: 'warn' });
const database = await openDatabase({ kind: 'pglite' });
await createMerchantClient(database.db, {
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
const app = await buildApp({ config, database, webDir: path.resolve('dist/web') });
await app.listen({ port: E2E.appPort, host: '0.0.0.0' });

// The process bench/server.ts loads: a bare Fastify JSON route and the real app, on two ports of
// one process, so both get the same CPU (the bench loads one at a time). Prints one JSON line
// with the ports and the ids the bench needs, then serves until killed.
import { ALL_CAPABILITIES_ON } from '../src/domain/capabilities';
import Fastify from 'fastify';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';
import { createConsent } from '../src/server/services/consents/consents';
import { createMerchantClient } from '../src/server/services/merchants/merchant-clients';
import { ZCreateConsentRequest } from '../src/domain/schemas/merchant-api';

const databaseUrl = process.env.BENCH_DATABASE_URL;
const database = await openDatabase(
  databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite' },
);

const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ success: true, consent: { consentId: 'cns_bare' } }));
await bare.listen({ host: '127.0.0.1', port: 0 });

const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000' });
const app = await buildApp({ config, database, logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });

const client = await createMerchantClient(database.db, { name: 'Bench Merchant' });
const { consentId } = await createConsent(
  database.db,
  ZCreateConsentRequest.parse({
    payments: [
      { type: 'immediate', amount: 250_000, narration: 'Order 17' },
      { type: 'future', amount: 1_500_000, narration: 'Gym', frequency: 'monthly', interval: 1 },
    ],
    dataSharing: { bvnData: true, bankAccounts: true },
  }),
  { clientId: client.clientId, merchantId: client.merchantId, capabilities: ALL_CAPABILITIES_ON },
);

const portOf = (server: { server: { address(): unknown } }) =>
  (server.server.address() as { port: number }).port;
console.log(
  JSON.stringify({
    barePort: portOf(bare),
    appPort: portOf(app),
    consentId,
    clientId: client.clientId,
    authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`,
    database: database.kind,
  }),
);

// Stopped by the bench: an ordinary exit, so that a CPU profile asked for (BENCH_CPU_PROF) is
// written.
process.once('SIGTERM', () => process.exit(0));

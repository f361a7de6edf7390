// What merchant authentication costs, and whether its answer time tells which client ids exist
// (issue 7, item 6). One run of the real app on in-memory PGlite: many alternated requests of
// each kind, then the median of each and two ratios:
//   unknown ÷ known-wrong: near 1 when an unknown client id costs what a wrong secret costs;
//   right ÷ bare: what checking the right secret adds over a bare GET /api/health.
// All three POSTs send the same empty body: the right secret then passes authentication and is
// refused by validation (400), so no consent is written and only authentication differs.
// Run: `npx tsx bench/merchant-auth.ts` (ROUNDS=… to change the number of rounds).
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';
import { createMerchantClient } from '../src/server/services/merchants/merchant-clients';

const ROUNDS = Number(process.env.ROUNDS ?? 3_000);
const WARM_UP = 300;
/** Large enough that no request of the run is ever refused by a limit. */
const NO_LIMIT = { max: 1_000_000_000, windowMs: 60_000 };

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

const database = await openDatabase({ kind: 'pglite' });
const config = loadConfig({
  PORT: '3999',
  PUBLIC_URL: 'http://localhost:3999',
  LOG_LEVEL: 'silent',
});
const app = await buildApp({
  config,
  database,
  logger: false,
  rateLimits: { merchantAuthFailuresPerAddress: NO_LIMIT, merchantAuthFailuresPerClient: NO_LIMIT },
});
await app.ready();
const client = await createMerchantClient(database.db, { name: 'Bench Merchant' });

const consentPost = (authorization: string) => () =>
  app.inject({ method: 'POST', url: '/api/v1/consents', headers: { authorization }, payload: {} });

type TKind = { name: string; status: number; send: () => Promise<LightMyRequestResponse> };
const kinds: TKind[] = [
  { name: 'bare GET /api/health', status: 200, send: () => app.inject('/api/health') },
  { name: 'right secret', status: 400, send: consentPost(basic(client.clientId, client.secret)) },
  {
    name: 'wrong secret, known client',
    status: 401,
    send: consentPost(basic(client.clientId, `sk_${'x'.repeat(client.secret.length - 3)}`)),
  },
  {
    name: 'unknown client id',
    status: 401,
    send: consentPost(basic(`cli_${'y'.repeat(client.clientId.length - 4)}`, client.secret)),
  },
];

const times = new Map<string, number[]>(kinds.map((kind) => [kind.name, []]));

async function timeOnce(kind: TKind, record: boolean) {
  const start = process.hrtime.bigint();
  const response = await kind.send();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (response.statusCode !== kind.status) {
    throw new Error(`${kind.name}: expected ${kind.status}, got ${response.statusCode}`);
  }
  if (record) times.get(kind.name)?.push(ms);
}

// Alternated: each round runs every kind once, starting from a different one each round, so
// drift in the machine's load falls on all kinds alike.
for (let round = 0; round < WARM_UP + ROUNDS; round += 1) {
  for (let i = 0; i < kinds.length; i += 1) {
    const kind = kinds[(round + i) % kinds.length];
    if (kind) await timeOnce(kind, round >= WARM_UP);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const medianOf = (name: string) => median(times.get(name) ?? []);

console.log(`merchant authentication, ${ROUNDS} alternated rounds after ${WARM_UP} to warm up`);
for (const kind of kinds) {
  console.log(`  ${kind.name.padEnd(28)} median ${medianOf(kind.name).toFixed(3)} ms`);
}
const unknownVsWrong = medianOf('unknown client id') / medianOf('wrong secret, known client');
const rightVsBare = medianOf('right secret') / medianOf('bare GET /api/health');
console.log(`  unknown ÷ known-wrong        ${unknownVsWrong.toFixed(3)}`);
console.log(`  right ÷ bare                 ${rightVsBare.toFixed(3)}`);

await app.close();
await database.close();

// The statements a payment sends to PostgreSQL, counted in the server's own process: `npm run
// bench:statements`. Each flow of bench/capacity-flows.ts that needs no pool of prepared payers
// (card_pin, card_otp, transfer) and the OneTap grant (or those FLOWS names) are paid PAYMENTS
// times (default 10, after two not counted) against the real app on a fresh database of the
// PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL). Every statement node-postgres sends is counted, BEGIN and COMMIT too
// (one round trip each), and put down to the call that made it: the payment's calls run in an
// async context of their own, so the periodic jobs' statements and the jobs a payment enqueued
// are counted apart ("after the answer"). Prints, per flow, the statements of each call and of
// the whole payment, then the statements by text, most sent first. Counts, not times: the
// figures hold on a loaded machine, and two builds compare line by line.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';
import { DEFAULT_RATE_LIMITS, type TRateLimits } from '../src/server/rate-limits';
import { createMerchantClient } from '../src/server/services/merchants/merchant-clients';
import { oneTapGrant, payerWithPasskey } from '../src/server/testing/identity';
import {
  linkByTestTransfer,
  payByCard,
  payByTransfer,
  sandboxCard,
} from '../src/server/testing/payments';

const PAYMENTS = Number(process.env.PAYMENTS ?? 10);
const WARMUP = 2;
const ALL_FLOWS = ['card_pin', 'card_otp', 'transfer', 'onetap'] as const;
type TFlow = (typeof ALL_FLOWS)[number];
/** FLOWS, comma-separated, picks some of them (default all). */
const FLOWS: readonly TFlow[] = process.env.FLOWS
  ? process.env.FLOWS.split(',').map((name) => {
      const flow = ALL_FLOWS.find((known) => known === name.trim());
      if (!flow) throw new Error(`FLOWS: ${name} is not one of ${ALL_FLOWS.join(', ')}`);
      return flow;
    })
  : ALL_FLOWS;

/** The call a statement was sent for; none for the server's own background work. */
const calling = new AsyncLocalStorage<{ call: string; payment: number }>();
const sent: { call: string; payment: number; text: string }[] = [];
/** The payment whose calls run now, counted from 1. */
let paying = 0;
let counting = false;

const squashed = (text: string) => text.replace(/\s+/g, ' ').trim();
const original: (...args: unknown[]) => unknown = Reflect.get(pg.Client.prototype, 'query');
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  if (counting) {
    const [config] = args;
    const text = typeof config === 'string' ? config : (config as { text?: string }).text;
    const store = calling.getStore();
    sent.push({
      call: store?.call ?? 'after the answer',
      payment: store?.payment ?? 0,
      text: squashed(text ?? ''),
    });
  }
  return original.apply(this, args);
} as typeof pg.Client.prototype.query;

const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `bench_statements_${randomUUID().slice(0, 8)}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const database = await openDatabase({ kind: 'postgres', url: url.toString() });

const relaxed = Object.fromEntries(
  Object.keys(DEFAULT_RATE_LIMITS).map((limit) => [limit, { max: 1_000_000, windowMs: 60_000 }]),
) as TRateLimits;
const config = loadConfig({
  PORT: '0',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://localhost:3999',
  SANDBOX_CARD_TIMEOUT_MS: '20',
});
const app = await buildApp({ config, database, logger: false, rateLimits: relaxed });
await app.ready();
const merchant = await createMerchantClient(database.db, { name: 'Bench Stores' });
const authorization = `Basic ${Buffer.from(`${merchant.clientId}:${merchant.secret}`).toString('base64')}`;
const payer = await payerWithPasskey(
  app,
  loadConfig({ ...process.env, PUBLIC_URL: 'http://localhost:3999' }),
);
const accountId = await linkByTestTransfer(app, payer.token, 'links_by_test_transfer');

function expectStatus(call: string, answer: { statusCode: number; body: string }, status = 200) {
  if (answer.statusCode !== status) {
    throw new Error(`${call}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
  }
}

/** Runs `work` as `call`: awaited inside the context, since an inject starts only when awaited. */
const inCall = <T>(call: string, work: () => PromiseLike<T>): Promise<T> =>
  calling.run({ call, payment: paying }, async () => await work());

async function payOnce(flow: TFlow): Promise<void> {
  paying += 1;
  const created = await inCall('consent', () =>
    app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization, 'idempotency-key': randomUUID() },
      payload: {
        payments: [{ type: 'immediate', amount: 10_000, narration: 'Bench order' }],
        requirements: { requiresAuth: flow === 'onetap' },
      },
    }),
  );
  expectStatus('consent', created, 201);
  const { consentId } = created.json<{ consentId: string }>();
  const read = await inCall('consent read', () =>
    app.inject({ method: 'GET', url: `/api/consent/${consentId}?clientId=${merchant.clientId}` }),
  );
  expectStatus('consent read', read);
  const paymentId = read.json<{ consent: { payments: { paymentId: string }[] } }>().consent
    .payments[0]!.paymentId;
  const ids = { consentId, paymentId };
  if (flow === 'card_pin') {
    expectStatus('card', await inCall('card', () => payByCard(app, ids, 'pin_only')));
  } else if (flow === 'card_otp') {
    const charged = await inCall('card', () => payByCard(app, ids, 'pin_otp'));
    expectStatus('card', charged);
    const { chargeToken } = charged.json<{ chargeToken: string }>();
    const done = await inCall('otp', () =>
      app.inject({
        method: 'POST',
        url: '/api/payments/card/complete',
        payload: { ...ids, otp: sandboxCard('pin_otp').otp, chargeToken },
      }),
    );
    expectStatus('otp', done);
  } else if (flow === 'transfer') {
    const answer = await inCall('transfer', () => payByTransfer(app, ids));
    expectStatus('transfer', answer);
  } else {
    expectStatus(
      'grant',
      await inCall('grant', () => oneTapGrant(app, payer, consentId, accountId)),
    );
  }
}

/** Waits until no job is due, so one flow's background work is not counted on the next. */
async function settled(): Promise<void> {
  await app.jobs.drain();
}

const lines: string[] = [];
for (const flow of FLOWS) {
  for (let warm = 0; warm < WARMUP; warm += 1) await payOnce(flow);
  await settled();
  sent.length = 0;
  counting = true;
  for (let index = 0; index < PAYMENTS; index += 1) await payOnce(flow);
  await settled();
  counting = false;
  const perCall = new Map<string, number>();
  const perText = new Map<string, number>();
  for (const statement of sent) {
    perCall.set(statement.call, (perCall.get(statement.call) ?? 0) + 1);
    if (statement.call !== 'after the answer') {
      perText.set(statement.text, (perText.get(statement.text) ?? 0) + 1);
    }
  }
  const inPayment = sent.filter((statement) => statement.call !== 'after the answer').length;
  const each = (count: number) => (count / PAYMENTS).toFixed(1);
  lines.push(`STATEMENTS ${flow} ${each(inPayment)} a payment`);
  console.log(`\n${flow}: ${each(inPayment)} statements a payment in its calls`);
  for (const [call, count] of perCall) console.log(`  ${call.padEnd(18)} ${each(count)}`);
  if (process.env.SEQUENCE) {
    console.log('  the last payment, in order:');
    for (const statement of sent.filter((each) => each.payment === paying)) {
      console.log(`    ${statement.call.padEnd(16)} ${statement.text.slice(0, 130)}`);
    }
  }
  console.log('  by text, a payment:');
  for (const [text, count] of [...perText].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${each(count).padStart(5)}  ${text.slice(0, 150)}`);
  }
}
console.log(`\n${lines.join('\n')}`);

await app.close();
await database.close();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();

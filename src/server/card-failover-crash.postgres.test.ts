// @module-tag postgres
// Card failover across a crash (docs/payments.md "Card failover"): the real server
// (`src/server/main.ts`, CARD_PROVIDERS=paystack,monnify against both providers' simulators) takes
// a card while Paystack does not answer, records the charge as unanswered, and is killed with
// SIGKILL before the payer's second try. Started again with Paystack answering, its reconciler
// asks Paystack about the charge's reference (never arrived), and the payer's page reads that
// nothing was charged and that Try Again goes through another processor; the payer's next card
// is charged at Monnify. Nothing was charged twice: Paystack took nothing, Monnify once, the
// books once. PostgreSQL only: several processes on one database.
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offersTryAgainElsewhere, TRY_AGAIN_ELSEWHERE_TEXT } from '../domain/card-retry-elsewhere';
import { payNowInitial, payNowReducer } from '../domain/pay-now-screen';
import type { TPaymentStateResponse } from '../domain/schemas/payment';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase, type TDatabase } from './db/database';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from './testing/monnify-simulator/monnify-simulator';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from './testing/paystack-simulator/paystack-simulator';
import { consentWithPayment, encryptedCard } from './testing/payments';
import {
  scratchDatabase,
  startServerProcess,
  stopServerProcess,
  type TServerProcess,
} from './testing/server-process';
import { RELAXED_RATE_LIMITS } from './testing/test-app';

const PAYSTACK_KEY = 'sk_test_cardcrash00000000000000000000000';
/** Paystack's reads and charges: everything a charge and its requery ask. */
const PAYSTACK_CARD_CALLS = /^\/(charge|transaction)/;
const CARD = { number: '4111111111111111', expiry: '12/30', cvv: '123', pin: '1234' };

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: TDatabase;
let setup: FastifyInstance;
let sql: pg.Pool;
let paystack: TPaystackSimulator;
let monnify: TMonnifySimulator;
const servers: TServerProcess[] = [];

beforeAll(async () => {
  scratch = await scratchDatabase('test_card_crash');
  database = await openDatabase({ kind: 'postgres', url: scratch.url });
  // The test's own process makes the consent and the card's envelopes on the same database.
  setup = await buildApp({
    config: loadConfig({ DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' }),
    database,
    logger: false,
    webhookDelivery: 'manual',
    rateLimits: RELAXED_RATE_LIMITS,
  });
  await setup.ready();
  sql = new pg.Pool({ connectionString: scratch.url, max: 2 });
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY });
  monnify = await startMonnifySimulator();
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => stopServerProcess(server.child, 'SIGKILL')));
  await sql?.end();
  await setup?.close();
  await database?.close();
  await scratch?.drop();
  await paystack?.close();
  await monnify?.close();
});

/** A server process on the scratch database, cards at Paystack then Monnify. */
async function startServer(): Promise<TServerProcess> {
  const server = await startServerProcess(scratch.url, {
    PAYMENT_PROVIDER: 'paystack',
    CARD_PROVIDERS: 'paystack,monnify',
    PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
    PAYSTACK_BASE_URL: paystack.url,
    MONNIFY_API_KEY: monnify.apiKey,
    MONNIFY_SECRET_KEY: monnify.secretKey,
    MONNIFY_CONTRACT_CODE: monnify.contractCode,
    MONNIFY_BASE_URL: monnify.url,
    MONNIFY_WALLET_ACCOUNT_NUMBER: monnify.walletAccountNumber,
    // The page is answered 'charging' at once, with the token that reads the payment.
    CARD_ANSWER_WAIT_MS: '0',
    RECONCILE_AFTER_MS: '1000',
    RECONCILE_INTERVAL_MS: '500',
    COLLECTION_INTERVAL_MS: '0',
  });
  servers.push(server);
  return server;
}

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  return (await sql.query<T>(text, values)).rows;
}

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const attemptsOf = (paymentId: string) =>
  query<{ provider: string; status: string; stage: string | null }>(
    'SELECT provider, status, stage FROM payment_attempts WHERE payment_id = $1 ORDER BY created_at',
    [paymentId],
  );

describe('a server killed between a card charge Paystack did not answer and the second try', () => {
  it('after restart, asks Paystack first, tells the page to Try Again, and charges once at Monnify', async () => {
    const consent = await consentWithPayment(setup, database, { amount: 120_000 });
    const tokens: string[] = [];
    const payByCard = async (server: TServerProcess) => {
      const answer = await fetch(`${server.base}/api/payments/card/public`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          paymentId: consent.paymentId,
          consentId: consent.consentId,
          cardDetails: await encryptedCard(setup, CARD),
          saveCard: false,
        }),
      });
      const body = (await answer.json()) as { chargeToken?: string; status?: string };
      if (body.chargeToken) tokens.push(body.chargeToken);
      return { status: answer.status, body };
    };
    const readPayment = async (server: TServerProcess) => {
      const query = new URLSearchParams([
        ['consentId', consent.consentId],
        ...tokens.map((token) => ['chargeToken', token]),
      ]);
      const answer = await fetch(`${server.base}/api/payments/${consent.paymentId}?${query}`);
      expect(answer.status).toBe(200);
      return (await answer.json()) as TPaymentStateResponse;
    };

    // Paystack does not answer: the charge is unanswered, and the server dies there.
    paystack.unavailable(PAYSTACK_CARD_CALLS);
    const first = await startServer();
    const charged = await payByCard(first);
    expect(charged).toMatchObject({ status: 200, body: { status: 'charging' } });
    await until('the charge recorded unanswered', async () =>
      (await attemptsOf(consent.paymentId)).some((a) => a.stage === 'unanswered'),
    );
    await stopServerProcess(first.child, 'SIGKILL');

    // Started again, Paystack answering: asked first, Paystack never had it; Try Again offered.
    paystack.unavailable(null);
    const second = await startServer();
    await until('the requery gate opened', async () =>
      (await attemptsOf(consent.paymentId)).some((a) => a.stage === 'retry_elsewhere'),
    );
    const read = await readPayment(second);
    expect(read.attempt).toMatchObject({
      state: 'failed',
      retryElsewhere: true,
      charged: false,
      message: 'Your bank did not answer. Nothing was charged.',
    });
    // What the payer's page draws from that read: the failure, and what to do.
    const page = payNowReducer(
      payNowInitial({ paid: false, amountDue: 120_000, origin: null, method: 'card' }),
      { type: 'read', read, answersCharge: true },
    );
    expect(page.status.phase).toBe('failed');
    expect(page.status.error).toContain(TRY_AGAIN_ELSEWHERE_TEXT);
    expect(offersTryAgainElsewhere(page.attempt)).toBe(true);

    // Try Again: the card's steps once more, at Monnify.
    const again = await payByCard(second);
    expect(again.status).toBe(200);
    await until('the payment paid', async () => (await readPayment(second)).status === 'completed');
    expect(await attemptsOf(consent.paymentId)).toEqual([
      { provider: 'paystack', status: 'failed', stage: 'tried_elsewhere' },
      { provider: 'monnify', status: 'completed', stage: null },
    ]);

    // Charged once: Paystack made no charge, Monnify one, the books one card payment.
    const paystackCharges = paystack.requests.filter(
      (r) => r.method === 'POST' && r.path === '/charge',
    );
    expect(paystackCharges).toHaveLength(1);
    expect(
      (await fetch(`${paystack.url}/transaction?perPage=100`, {
        headers: { authorization: `Bearer ${PAYSTACK_KEY}` },
      }).then((r) => r.json())) as { data: unknown[] },
    ).toMatchObject({ data: [] });
    expect(
      monnify.requests.filter(
        (r) => r.method === 'POST' && r.path === '/api/v1/merchant/cards/charge',
      ),
    ).toHaveLength(1);
    expect(
      await query(
        'SELECT kind FROM ledger_transactions WHERE payment_id = $1 ORDER BY created_at',
        [consent.paymentId],
      ),
    ).toEqual([{ kind: 'card_payment' }]);
  }, 600_000);
});

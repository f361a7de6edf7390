// @module-tag postgres
// A crash between the provider's answer and the booking (docs/payments.md "Reconciliation"): the
// real server (`src/server/main.ts`) is killed with SIGKILL while a card charge, two saved-account
// debits (OneTap at the grant) and a chip purchase each wait for their answer, after the sandbox
// recorded taking the money (SANDBOX_ANSWER_DELAY_MS holds the answer back: a slow provider),
// five times. Started again, the reconciler asks the provider about each lost answer and books
// it. Then every payment was taken once at the provider, every one is executed and booked once,
// nothing is left charging or owed, and `npm run ledger:check`, which compares the provider's
// record with the books, passes. PostgreSQL only: several processes on one database
// (vitest.config.ts runs this file when DATABASE_URL is set).
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase, type TDatabase } from './db/database';
import { oneTapGrantData, payerWithPasskey, signedGrant } from './testing/identity';
import { encryptedCard, linkByTestTransfer, sandboxCard } from './testing/payments';
import {
  builtCommand,
  scratchDatabase,
  startServerProcess,
  stopServerProcess,
  type TServerProcess,
} from './testing/server-process';
import { createTestClient, RELAXED_RATE_LIMITS } from './testing/test-app';
import { readChipCard } from './testing/terminal';

/** Kills, each with a card charge, a debit and a chip purchase between answer and booking. */
const KILLS = 5;
const AMOUNT = 10_000;
/** The public origin of the setup process and of every server under test. */
const PUBLIC_ORIGIN = 'http://localhost:3999';

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: TDatabase;
let setup: FastifyInstance;
let sql: pg.Pool;
const children: ChildProcess[] = [];

beforeAll(async () => {
  scratch = await scratchDatabase('test_crash');
  database = await openDatabase({ kind: 'postgres', url: scratch.url });
  // The test's own process prepares payers, consents and requests on the same database: the
  // servers under test only ever pay.
  setup = await buildApp({
    config: loadConfig({
      DATABASE_URL: scratch.url,
      PUBLIC_URL: PUBLIC_ORIGIN,
      LOG_LEVEL: 'silent',
    }),
    database,
    logger: false,
    webhookDelivery: 'manual',
    rateLimits: RELAXED_RATE_LIMITS,
  });
  await setup.ready();
  sql = new pg.Pool({ connectionString: scratch.url, max: 2 });
});
afterAll(async () => {
  await Promise.all(children.map((child) => stopServerProcess(child, 'SIGKILL')));
  await sql?.end();
  await setup?.close();
  await database?.close();
  await scratch?.drop();
});

/**
 * The server under test: answers held back after the sandbox recorded the money moving, for long
 * enough that the round's last payment is taken before its first is answered: the kill must land
 * between the provider taking each and any being booked, and on a loaded machine the six are
 * taken seconds apart (3 s was too short: one was booked before the last was taken).
 */
async function startServer(env: Record<string, string> = {}): Promise<TServerProcess> {
  const server = await startServerProcess(scratch.url, {
    SANDBOX_ANSWER_DELAY_MS: '15000',
    // Longer than the answer's delay, so a server never settles what it is itself still asking.
    RECONCILE_AFTER_MS: '16000',
    RECONCILE_INTERVAL_MS: '500',
    COLLECTION_INTERVAL_MS: '0',
    // One public origin for the setup process and every server, as behind one load balancer:
    // the payer's token and passkey are good on each.
    PUBLIC_URL: PUBLIC_ORIGIN,
    // Each request names its own client address: per-address limits never meet.
    TRUST_PROXY: 'true',
    ...env,
  });
  children.push(server.child);
  return server;
}

let addressSeq = 0;
const post = (server: TServerProcess, path: string, body: unknown, headers = {}) => {
  addressSeq += 1;
  return fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.27.${addressSeq >> 8}.${addressSeq & 255}`,
      ...headers,
    },
    body: JSON.stringify(body),
  }).catch(() => null);
};

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  return (await sql.query<T>(text, values)).rows;
}

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Of `paymentIds`, those whose money the sandbox recorded as taken (and not given back). */
async function takenAtProvider(paymentIds: string[]) {
  return query<{ payment_id: string; taken: string }>(
    `SELECT a.payment_id, count(*) AS taken FROM payment_attempts a
     WHERE a.payment_id = ANY($1) AND (
       EXISTS (SELECT 1 FROM sandbox_card_charges c WHERE c.reference = a.id
                 AND c.status = 'succeeded' AND c.given_back_at IS NULL)
       OR EXISTS (SELECT 1 FROM sandbox_debits d WHERE d.reference = a.id
                 AND d.outcome = 'succeeded' AND d.reversed_at IS NULL))
     GROUP BY a.payment_id`,
    [paymentIds],
  );
}

type TPaid = { paymentId: string; consentId: string };
/** Each kill's payments in flight: a card charge, two OneTap debits and a chip purchase. */
type TRound = { card: TPaid; debits: TPaid[]; chip: TPaid };
const DEBITS_PER_KILL = 4;

describe('a server killed between the provider’s answer and the booking', () => {
  it(`${KILLS} kills, each with a card charge, ${DEBITS_PER_KILL} OneTap debits and a chip purchase in flight: each taken once, booked once, nothing stuck`, async () => {
    const began = Date.now();
    const merchant = await createTestClient(database, { name: 'Crash Test Stores' });
    // One payer per debit in flight: a passkey's signatures are counted, so one payer's grants
    // are signed and sent one after the other, never two at once.
    const payers = await Promise.all(
      Array.from({ length: DEBITS_PER_KILL }, async () => {
        const payer = await payerWithPasskey(setup, setup.appContext.config);
        const accountId = await linkByTestTransfer(setup, payer.token, 'links_by_test_transfer');
        return { ...payer, accountId };
      }),
    );

    async function consent(requiresAuth: boolean) {
      const created = await setup.inject({
        method: 'POST',
        url: '/api/v1/consents',
        headers: { authorization: merchant.authorization },
        payload: {
          payments: [{ type: 'immediate', amount: AMOUNT, narration: 'Crash test' }],
          requirements: { requiresAuth },
        },
      });
      const { consentId } = created.json<{ consentId: string }>();
      const read = await setup.inject({
        method: 'GET',
        url: `/api/consent/${consentId}?clientId=${merchant.clientId}`,
      });
      const paymentId = read.json<{ consent: { payments: Array<{ paymentId: string }> } }>().consent
        .payments[0]?.paymentId;
      if (!paymentId) throw new Error(`consent: ${read.body}`);
      return { consentId, paymentId };
    }

    const rounds: TRound[] = [];
    for (let i = 0; i < KILLS; i += 1) {
      rounds.push({
        card: await consent(false),
        debits: await Promise.all(Array.from({ length: DEBITS_PER_KILL }, () => consent(true))),
        chip: await consent(false),
      });
    }
    const paymentsOf = (r: TRound) => [
      r.card.paymentId,
      ...r.debits.map((d) => d.paymentId),
      r.chip.paymentId,
    ];
    const allPayments = rounds.flatMap(paymentsOf);

    let killedInWindow = 0;
    for (const [n, round] of rounds.entries()) {
      // Each request made ready before the server starts: the kill comes as soon as it can.
      const cardBody = {
        paymentId: round.card.paymentId,
        consentId: round.card.consentId,
        cardDetails: await encryptedCard(setup, sandboxCard('pin_only')),
        saveCard: false,
      };
      const grants = await Promise.all(
        round.debits.map(async (debit, i) => {
          const payer = payers[i]!;
          const body = await signedGrant(
            setup,
            payer.soft,
            payer.token,
            debit.consentId,
            oneTapGrantData(debit.consentId, payer.accountId),
          );
          return { debit, body, headers: payer.headers };
        }),
      );
      const chipBody = {
        ...(await readChipCard(setup, 'chip_approved', AMOUNT)),
        paymentId: round.chip.paymentId,
        consentId: round.chip.consentId,
      };

      const server = await startServer();
      const ids = paymentsOf(round);
      const answers = Promise.all([
        post(server, '/api/payments/card/public', cardBody),
        ...grants.map(({ debit, body, headers }) =>
          post(server, `/api/consent/${debit.consentId}/grant`, body, headers),
        ),
        post(server, '/api/card-terminal/raven/chip-purchase', chipBody),
      ]);
      // The sandbox has taken the money of all of them; their answers are on their way.
      await until('the sandbox to take every payment of the round', async () => {
        return (await takenAtProvider(ids)).length === ids.length;
      }).catch(async (error: unknown) => {
        // What the server answered instead, to say why.
        const got = await answers;
        const said = await Promise.all(got.map(async (r) => r && `${r.status} ${await r.text()}`));
        throw new Error(`${(error as Error).message}: ${said.join('; ')}`);
      });
      await stopServerProcess(server.child, 'SIGKILL');
      await answers;
      const booked = await query<{ id: string }>(
        `SELECT id FROM payments WHERE id = ANY($1) AND status = 'executed'`,
        [ids],
      );
      if (booked.length === 0) killedInWindow += 1;
      const debited = await takenAtProvider(round.debits.map((d) => d.paymentId));
      console.log(
        `crash test: kill ${n + 1} of ${KILLS} landed after the bank took ${debited.length} OneTap debits (and the card charge and chip purchase), with ${booked.length} of ${ids.length} payments booked`,
      );
    }
    // Every kill came after the provider took the money and before any of it was booked.
    expect(killedInWindow).toBe(KILLS);

    // Started again: the reconciler settles what every kill left unanswered. This server asks
    // no provider anything itself, and every server before it is dead: what is left at the
    // provider is all lost answers, asked about at once rather than when 16 s old (most of the
    // test's time, its database polled all along).
    const last = await startServer({ RECONCILE_AFTER_MS: '0' });
    await until(
      'the reconciler to settle every lost answer',
      async () => {
        const [left] = await query<{ open: string; paid: string }>(
          `SELECT (SELECT count(*) FROM payment_attempts
                    WHERE stage = 'charging' OR refund = 'owed') AS open,
                  (SELECT count(*) FROM payments
                    WHERE id = ANY($1) AND status = 'executed') AS paid`,
          [allPayments],
        );
        return Number(left?.open) === 0 && Number(left?.paid) === allPayments.length;
      },
      120_000,
    );
    await stopServerProcess(last.child);

    // Taken once each at the provider, by the attempt that the books hold.
    const taken = await takenAtProvider(allPayments);
    expect(taken).toHaveLength(allPayments.length);
    expect(taken.filter((row) => Number(row.taken) !== 1)).toEqual([]);
    const bookings = await query<{ payment_id: string; kinds: string[] }>(
      `SELECT payment_id, array_agg(kind ORDER BY id) AS kinds FROM ledger_transactions
       WHERE payment_id = ANY($1) GROUP BY payment_id`,
      [allPayments],
    );
    expect(bookings).toHaveLength(allPayments.length);
    const kindsOf = (id: string) => bookings.find((b) => b.payment_id === id)?.kinds;
    for (const round of rounds) {
      expect(kindsOf(round.card.paymentId)).toEqual(['card_payment']);
      for (const debit of round.debits) {
        expect(kindsOf(debit.paymentId)).toEqual(['account_debit']);
      }
      expect(kindsOf(round.chip.paymentId)).toEqual(['chip_card_payment']);
    }

    // What `npm run ledger:check` proves, the provider's record against the books included.
    const check = spawnSync(process.execPath, [await builtCommand('ledger-check')], {
      env: { ...process.env, DATABASE_URL: scratch.url },
      encoding: 'utf8',
    });
    expect(check.stdout).toContain('The books balance.');
    expect(check.status, check.stdout + check.stderr).toBe(0);
    console.log(
      `crash test: ${KILLS} kills, ${allPayments.length} payments (${KILLS * DEBITS_PER_KILL} OneTap debits), each taken once and booked once, ${Math.round((Date.now() - began) / 1_000)} s`,
    );
  }, 900_000);
});

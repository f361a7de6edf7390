// The outage run of health-routed new work (docs/routing.md): the server in this process on an
// in-memory PGlite with cards and transfers in on `paystack,monnify`, each provider's simulator
// running and sending its notices to it. An open loop of payers (a new one every INTERVAL_MS,
// card and transfer in turn, each a merchant's consent read by the payer's page and paid as the
// server tests pay: testing/payments.ts) through three phases: normal, Paystack stops answering
// (every request held OUTAGE_HOLD_MS, then its connection dropped: a timeout cut short), Paystack
// back. Per phase it prints payments completed, failed, recovered on the second provider (a
// payment completed at Monnify after an attempt at Paystack ended without an answer), p95, the
// time from the first failure to each capability's elimination (and to re-admission), and the
// payments charged twice, counted from both simulators' own records of what they took (their
// settlement reports) and of the transfers paid in, never assumed.
//
// The simulators' test cards differ (Paystack's 4084…4081, Monnify's 4111…1111): a card payer
// holds the card of the provider the Routes snapshot puts first, as a real card works at both.
//
//   npm run bench:failover            PHASE_SECONDS=20 INTERVAL_MS=1000 by default
import { performance } from 'node:perf_hooks';
import { cpus, totalmem } from 'node:os';
import { eq, inArray } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/database';
import { paymentAttempts, payments } from '../src/server/db/schema';
import {
  monnifySimulatorEnv,
  startMonnifySimulator,
  type TMonnifySimulator,
} from '../src/server/testing/monnify-simulator/monnify-simulator';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../src/server/testing/paystack-simulator/paystack-simulator';
import { keepPageToken, payByCard } from '../src/server/testing/payments';
import { createTestClient, RELAXED_RATE_LIMITS, testConfig } from '../src/server/testing/test-app';

const PHASE_SECONDS = Number(process.env.PHASE_SECONDS ?? 20);
const INTERVAL_MS = Number(process.env.INTERVAL_MS ?? 1_000);
const OUTAGE_HOLD_MS = Number(process.env.OUTAGE_HOLD_MS ?? 2_000);
const COOL_DOWN_SECONDS = Number(process.env.COOL_DOWN_SECONDS ?? 10);
/** A payment not completed by then is counted failed (a card in flight is asked about later). */
const PAYMENT_LIMIT_MS = 20_000;
const AMOUNT = 10_000;
const PAYSTACK_KEY = 'sk_test_benchfailover000000000000000000';
const PAYSTACK_CARD = { number: '4084084084084081', expiry: '12/30', cvv: '408', pin: '1234' };
const MONNIFY_CARD = { number: '4111111111111111', expiry: '12/30', cvv: '123', pin: '1234' };
const PHASES = ['normal', 'paystack stops answering', 'paystack back'] as const;
type TPhase = (typeof PHASES)[number];
type TKind = 'card' | 'transfer';
type TResult = {
  phase: TPhase;
  kind: TKind;
  paymentId: string;
  ms: number;
  completed: boolean;
  error?: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const paystack: TPaystackSimulator = await startPaystackSimulator({ secretKey: PAYSTACK_KEY });
const monnify: TMonnifySimulator = await startMonnifySimulator();
const database = await openDatabase({ kind: 'pglite' });
const app = await buildApp({
  config: testConfig({
    LOG_LEVEL: 'silent',
    PAYMENT_PROVIDER: 'paystack',
    TRANSFER_PROVIDERS: 'paystack,monnify',
    CARD_PROVIDERS: 'paystack,monnify',
    PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
    PAYSTACK_BASE_URL: paystack.url,
    ...monnifySimulatorEnv(monnify),
    ROUTING_COOL_DOWN_SECONDS: String(COOL_DOWN_SECONDS),
  }),
  database,
  logger: false,
  rateLimits: RELAXED_RATE_LIMITS,
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });
paystack.sendNoticesTo(`${base}/api/providers/paystack/notices`);
monnify.sendNoticesTo(`${base}/api/providers/monnify/notices`);
const { health } = app.appContext.providers;

// When Paystack first failed to answer, and each move of its state, from the outage's start.
let firstFailure: number | null = null;
const moves: { at: number; capability: string; move: string }[] = [];
/** The first request Paystack gets in its outage fails OUTAGE_HOLD_MS after it arrived. */
let watching = true;
async function watchFirstFailure(requestsBefore: number): Promise<void> {
  while (watching && paystack.requests.length === requestsBefore) await sleep(20);
  if (watching) firstFailure = performance.now() + OUTAGE_HOLD_MS;
}
const stopMoves = health.watchMoves?.((scope, move) => {
  if (scope.provider === 'paystack' && scope.bank === '') {
    moves.push({ at: performance.now(), capability: scope.capability, move });
  }
});

/** Where the Routes snapshot says new card work goes first: the card the payer holds. */
async function cardFor(): Promise<typeof PAYSTACK_CARD> {
  const lines = await health.snapshot();
  const eliminated = lines.some(
    (line) => line.capability === 'cards' && line.provider === 'paystack' && line.eliminated,
  );
  return eliminated ? MONNIFY_CARD : PAYSTACK_CARD;
}

const statusOf = async (ids: { paymentId: string }) =>
  (
    await database.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.id, ids.paymentId))
  )[0]?.status;

// One merchant for every payer: its consents, each read by the payer's page.
const merchant = await createTestClient(database, { name: 'Tola Stores' });
async function consentWithPayment(): Promise<{ consentId: string; paymentId: string }> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: [{ type: 'immediate', amount: AMOUNT, narration: 'Bench order' }],
      requirements: { requiresAuth: false },
    },
  });
  if (created.statusCode !== 201) throw new Error(`consent: ${created.statusCode}`);
  const { consentId } = created.json<{ consentId: string }>();
  const read = await app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}?clientId=${merchant.clientId}`,
  });
  const paymentId = read.json<{ consent: { payments: { paymentId: string }[] } }>().consent
    .payments[0]?.paymentId;
  if (!paymentId) throw new Error('consent read: no payment');
  return { consentId, paymentId };
}

async function completedWithin(
  ids: { paymentId: string; consentId: string },
  until: number,
): Promise<boolean> {
  while (performance.now() < until) {
    const status = await statusOf(ids);
    if (status === 'executed') return true;
    await sleep(100);
  }
  return false;
}

/** Transfers paid in, by payment: what each simulator's accounts received from our payers. */
const paidIn = new Map<string, { provider: string; accountNumber: string }[]>();

async function payCard(ids: { paymentId: string; consentId: string }, until: number) {
  const answer = await payByCard(app, ids, await cardFor());
  if (answer.statusCode !== 200) throw new Error(`card: ${answer.statusCode}`);
  return completedWithin(ids, until);
}

async function payTransfer(ids: { paymentId: string; consentId: string }, until: number) {
  const opened = await app.inject({
    method: 'POST',
    url: `/api/payments/${ids.paymentId}/transfer?consentId=${ids.consentId}`,
  });
  if (opened.statusCode !== 200) throw new Error(`transfer: ${opened.statusCode}`);
  keepPageToken(ids.paymentId, opened);
  const { accountNumber, amount } = opened.json<{
    transferDetails: { accountNumber: string; amount: number };
  }>().transferDetails;
  const [attempt] = await database.db
    .select({ provider: paymentAttempts.provider })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, ids.paymentId))
    .orderBy(paymentAttempts.createdAt)
    .then((rows) => rows.slice(-1));
  const provider = attempt?.provider ?? 'paystack';
  paidIn.set(ids.paymentId, [...(paidIn.get(ids.paymentId) ?? []), { provider, accountNumber }]);
  await (provider === 'monnify' ? monnify : paystack).payTransfer(accountNumber, amount);
  return completedWithin(ids, until);
}

async function onePayer(phase: TPhase, kind: TKind): Promise<TResult> {
  const began = performance.now();
  const until = began + PAYMENT_LIMIT_MS;
  const ids = await consentWithPayment();
  try {
    const completed = await (kind === 'card' ? payCard(ids, until) : payTransfer(ids, until));
    return { phase, kind, paymentId: ids.paymentId, ms: performance.now() - began, completed };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      phase,
      kind,
      paymentId: ids.paymentId,
      ms: performance.now() - began,
      completed: false,
      error: message,
    };
  }
}

const results: Promise<TResult>[] = [];
let arrivals = 0;
async function runPhase(phase: TPhase): Promise<void> {
  const end = performance.now() + PHASE_SECONDS * 1_000;
  while (performance.now() < end) {
    results.push(onePayer(phase, arrivals % 2 === 0 ? 'card' : 'transfer'));
    arrivals += 1;
    await sleep(INTERVAL_MS);
  }
}

const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * 0.95) - 1)] ?? 0;

// Warmed up first (the periodic jobs' first runs, each provider's first calls): not counted.
for (const kind of ['card', 'transfer'] as const) await onePayer('normal', kind);

const started = performance.now();
await runPhase('normal');
const watched = watchFirstFailure(paystack.requests.length);
paystack.stopAnswering({ afterMs: OUTAGE_HOLD_MS });
const outageStart = performance.now();
await runPhase('paystack stops answering');
paystack.stopAnswering(null);
const backAt = performance.now();
await runPhase('paystack back');
const done = await Promise.all(results);
watching = false;
await watched;
// Let notices in flight land before the books are read.
await Promise.all([paystack.idle(), monnify.idle()]);
await app.jobs.runNow('reconcile.attempts');
const ran = (performance.now() - started) / 1_000;

// The attempts of every payment, to tell where each completed and what it took before.
const attempts = await database.db
  .select({
    id: paymentAttempts.id,
    paymentId: paymentAttempts.paymentId,
    provider: paymentAttempts.provider,
    status: paymentAttempts.status,
    stage: paymentAttempts.stage,
    failureReason: paymentAttempts.failureReason,
  })
  .from(paymentAttempts)
  .where(
    inArray(
      paymentAttempts.paymentId,
      done.map((r) => r.paymentId),
    ),
  );
const byPayment = new Map<string, typeof attempts>();
for (const attempt of attempts) {
  const { paymentId } = attempt;
  if (paymentId !== null) byPayment.set(paymentId, [...(byPayment.get(paymentId) ?? []), attempt]);
}
const recovered = (paymentId: string) => {
  const own = byPayment.get(paymentId) ?? [];
  return (
    own.some((a) => a.provider === 'monnify' && a.status === 'completed') &&
    own.some((a) => a.provider === 'paystack' && a.status !== 'completed')
  );
};

// What each simulator took, from its own record: card charges by our reference (the settlement
// reports), and the transfers our payers paid into the accounts each opened.
const attemptOf = new Map(attempts.map((a) => [a.id, a.paymentId]));
const takenBy = new Map<string, string[]>();
for (const provider of ['paystack', 'monnify']) {
  const report = app.appContext.providers.registry.portOf(provider, 'settlement');
  for (const line of await report.settlementReport()) {
    if (line.givenBack) continue;
    const paymentId = attemptOf.get(line.reference);
    if (paymentId) takenBy.set(paymentId, [...(takenBy.get(paymentId) ?? []), `${provider}`]);
  }
}
for (const [paymentId, paid] of paidIn) {
  for (const { provider } of paid) {
    // A transfer the simulator's report already holds is not counted twice.
    const own = takenBy.get(paymentId) ?? [];
    if (!own.includes(provider)) takenBy.set(paymentId, [...own, provider]);
  }
}

console.log(
  `bench:failover on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, ` +
    `PGlite in memory, one process; a payer every ${INTERVAL_MS} ms (card, transfer in turn), ` +
    `${PHASE_SECONDS} s a phase, Paystack's outage holding each request ${OUTAGE_HOLD_MS} ms, ` +
    `cool-down ${COOL_DOWN_SECONDS} s; ran ${ran.toFixed(0)} s`,
);
for (const phase of PHASES) {
  const mine = done.filter((r) => r.phase === phase);
  const completed = mine.filter((r) => r.completed);
  const line = (kind: TKind | 'all') => {
    const of = kind === 'all' ? mine : mine.filter((r) => r.kind === kind);
    const ok = of.filter((r) => r.completed);
    return (
      `    ${kind.padEnd(8)} payments ${String(of.length).padStart(3)}  completed ${String(ok.length).padStart(3)}  ` +
      `failed ${String(of.length - ok.length).padStart(3)}  recovered on Monnify ${String(
        ok.filter((r) => recovered(r.paymentId)).length,
      ).padStart(3)}  p95 ${p95(ok.map((r) => r.ms)).toFixed(0)} ms`
    );
  };
  console.log(`${phase}: ${completed.length} of ${mine.length} completed`);
  for (const kind of ['card', 'transfer', 'all'] as const) console.log(line(kind));
  const reasons = new Map<string, number>();
  for (const r of mine.filter((r) => !r.completed)) {
    const why = r.error ?? 'not completed within the limit (in flight, asked about by reference)';
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  for (const [why, count] of reasons) console.log(`      failed: ${count} × ${why}`);
}
const seconds = (at: number, from: number | null) =>
  from === null ? 'n/a' : `${((at - from) / 1_000).toFixed(1)} s`;
console.log(
  `first failure ${seconds(firstFailure ?? outageStart, outageStart)} after the outage began`,
);
for (const { at, capability, move } of moves) {
  const from = move === 'eliminate' ? firstFailure : backAt;
  console.log(
    `  ${capability} ${move === 'eliminate' ? 'eliminated' : move}: ${seconds(at, from)} after ${
      move === 'eliminate' ? 'the first failure' : 'Paystack came back'
    }`,
  );
}
const twice = [...takenBy.values()].filter((providers) => providers.length > 1).length;
console.log(
  `payments charged twice: ${twice} (of ${takenBy.size} payments either simulator took money for)`,
);

stopMoves?.();
await app.close();
await database.close();
await paystack.close();
await monnify.close();

// Several server processes on one PostgreSQL, measured (docs/jobs.md; bench/README.md):
// payments per second and their p50/p95 at 1 and at 2 processes behind nginx, in one run, then
// what one process does when the other is killed (SIGKILL) mid-burst.
//
// What it runs, and how to have each piece (Debian; a machine of the project has them all):
// - The build: `npm run build` makes dist/server/main.mjs; `npm run bench:processes` builds, then
//   runs this file (`npx tsx bench/processes.ts` runs it on the build there is).
// - PostgreSQL: `apt-get install -y postgresql`, started (`service postgresql start`), answering
//   on 127.0.0.1:5432 with trust auth for `postgres`, or BENCH_DATABASE_URL naming a database the
//   bench may connect to. It creates its own database there, bench_processes_<pid>_<hex>, and
//   drops it at the end: nobody else's data is touched.
// - Redis: `apt-get install -y redis-server` (`redis-server --daemonize yes`) on 127.0.0.1:6379,
//   or REDIS_URL. The servers count their rate limits there under the key prefix
//   bench-processes-<pid>:, whose keys are removed at the end.
// - nginx: `apt-get install -y nginx` (/usr/sbin/nginx, or NGINX=path), never as a service: the
//   bench runs it as its own child (`daemon off`, `-p` a temporary directory) with a generated
//   configuration, on a free port of 127.0.0.1, upstream to the server processes' ports
//   (processes-stack.ts).
// - The server processes: `node dist/server/main.mjs` with PORT, DATA_DIR (each its own),
//   DATABASE_URL (the bench's database), REDIS_URL and REDIS_KEY_PREFIX, PUBLIC_URL (nginx's
//   address: a passkey made through one process signs through every one), and SERVER_ENV of
//   processes-stack.ts (loopback, the reconciler's 5 s, webhooks to this machine allowed).
//
// The mix (processes-mix.ts): a merchant made by `scripts/client.ts`, its webhook to a receiver
// in this process, CONCURRENCY payers with a passkey and a linked account, then bursts of PAYMENTS
// payments, card, transfer and OneTap grant in turn, CONCURRENCY at a time. A payment's time runs
// from the merchant's consent to the payer's answer (4 to 6 HTTP calls through nginx). The bench,
// nginx and the servers share the machine's cores.
//
// 1 and 2 processes alternate ROUNDS times: process B is stopped for the 1-process burst and
// started again (and warmed with WARMUP payments) for the 2-process one; webhooks left from a burst
// are sent before the next begins. Then the kill test: a burst at 2 processes in which B is killed
// with SIGKILL once a third of the payments have their answer. Payers whose answer the kill lost
// pay (or grant) again through nginx once the deployment owes them no answer, as a payer's page
// would (a OneTap grant's debit is booked before the grant, so a kill between them leaves the
// payment executed and the consent pending until the payer grants again), and the bench waits
// for the survivor to send everything, then checks from the database: every
// payment executed, taken at the provider once, booked once (`npm run ledger:check`), told once
// (one payment.completed per payment, one consent.granted per grant) and every event received by
// the merchant; no job left waiting, failed or past its expiry; and counts what the survivor
// finished of what was begun before the kill. Exits 1 when any of it fails.
//
// Run: `npm run bench:processes` (PAYMENTS, CONCURRENCY, ROUNDS, WARMUP change the run;
// SETTLE_SECONDS, 600, is how long the survivor may take to finish).
import { cpus, loadavg, totalmem } from 'node:os';
import { webhookReceiver } from '../src/server/testing/crash-outbox';
import { killChecks } from './processes-kill';
import {
  burst,
  createMerchant,
  KINDS,
  preparePayers,
  registerWebhook,
  type TPayment,
} from './processes-mix';
import { startStack } from './processes-stack';

const PAYMENTS = Number(process.env.PAYMENTS ?? 150);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const WARMUP = Number(process.env.WARMUP ?? 30);
/** How long the survivor may take to finish what the dead process held (its leases: 2 min). */
const SETTLE_LIMIT_MS = Number(process.env.SETTLE_SECONDS ?? 600) * 1_000;

/** The nearest-rank percentile. */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const byKind = (payments: TPayment[]) =>
  KINDS.map((kind) => `${kind} ${payments.filter((p) => p.kind === kind).length}`).join(', ');

console.log(
  `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average at start ${load()}`,
);

const stack = await startStack();
const receiver = await webhookReceiver();
const checks = killChecks(stack.databaseUrl);
/** Until the kill test's checks say otherwise. */
let failed = true;
try {
  await stack.start('A');
  await stack.start('B');
  await stack.route(['A', 'B']);
  const merchant = createMerchant(stack.databaseUrl);
  await registerWebhook(stack.base, merchant, receiver.url);
  const payers = await preparePayers(stack.base, stack.origin, CONCURRENCY);
  let bursts = 0;
  const run = (count: number, onAnswered?: (answered: number) => void) => {
    bursts += 1;
    return burst({
      base: stack.base,
      merchant,
      payers,
      count,
      label: `bench-${process.pid}-${bursts}`,
      onAnswered,
    });
  };

  const measured = new Map<number, { payments: TPayment[]; seconds: number }>([
    [1, { payments: [], seconds: 0 }],
    [2, { payments: [], seconds: 0 }],
  ]);
  const measure = async (processes: number) => {
    await checks.drained();
    const { payments, seconds, madeAgain } = await run(PAYMENTS);
    const failures = payments.filter((p) => p.failure);
    if (failures.length > 0 || madeAgain > 0) {
      throw new Error(
        `${failures.length} payments not paid, ${madeAgain} calls made again at ${processes} processes: ${failures[0]?.failure}`,
      );
    }
    const total = measured.get(processes);
    total?.payments.push(...payments);
    if (total) total.seconds += seconds;
  };

  await run(WARMUP);
  for (let round = 0; round < ROUNDS; round += 1) {
    await stack.stop('B');
    await stack.route(['A']);
    await measure(1);
    await stack.start('B');
    await stack.route(['A', 'B']);
    await run(WARMUP);
    await measure(2);
  }

  console.log(
    `\n${ROUNDS} alternated rounds of ${PAYMENTS} payments (${byKind(measured.get(1)?.payments ?? [])} per process count), ${CONCURRENCY} at a time, through nginx; PostgreSQL, Redis`,
  );
  console.log('  processes   payments/s   p50 ms   p95 ms');
  const rates = new Map<number, { rate: number; p50: number; p95: number }>();
  for (const [processes, { payments, seconds }] of measured) {
    const ms = payments.map((p) => p.ms);
    const row = {
      rate: payments.length / seconds,
      p50: percentile(ms, 50),
      p95: percentile(ms, 95),
    };
    rates.set(processes, row);
    console.log(
      `  ${String(processes).padStart(9)}   ${row.rate.toFixed(1).padStart(10)}   ${row.p50.toFixed(0).padStart(6)}   ${row.p95.toFixed(0).padStart(6)}`,
    );
  }
  const one = rates.get(1);
  const two = rates.get(2);
  if (one && two) {
    console.log(
      `  2 ÷ 1: payments/s ×${(two.rate / one.rate).toFixed(2)}, p50 ×${(two.p50 / one.p50).toFixed(2)}, p95 ×${(two.p95 / one.p95).toFixed(2)}`,
    );
  }

  // The kill test.
  await checks.drained();
  const killAfter = Math.round(PAYMENTS / 3);
  const kill: { at: Date | null; done: Promise<void> } = { at: null, done: Promise.resolve() };
  const { payments, seconds, madeAgain } = await run(PAYMENTS, (answered) => {
    if (answered !== killAfter) return;
    kill.done = stack.stop('B', 'SIGKILL').then(() => {
      kill.at = new Date();
    });
  });
  await kill.done;
  const killedAt = kill.at ?? new Date();
  const interrupted = payments.filter((p) => p.failure);
  const said = new Map<string, number>();
  for (const payment of interrupted) {
    const answer = (payment.failure ?? '').replace(/\s+/g, ' ').slice(0, 70);
    said.set(answer, (said.get(answer) ?? 0) + 1);
  }
  const paidAgain = await checks.payAgain(stack.base, payments, SETTLE_LIMIT_MS);
  await checks.settled(receiver.received, SETTLE_LIMIT_MS).catch((error: unknown) => {
    console.log(`  ${(error as Error).message}`);
  });
  const settledAfter = (Date.now() - killedAt.getTime()) / 1_000;
  const report = await checks.report(payments, receiver.received, killedAt);

  console.log(
    `\nKill test: 2 processes, ${PAYMENTS} payments (${byKind(payments)}), ${CONCURRENCY} at a time; B killed with SIGKILL once ${killAfter} had their answer`,
  );
  const ms = payments.filter((p) => !p.failure).map((p) => p.ms);
  console.log(
    `  ${(payments.length / seconds).toFixed(1)} payments/s over the burst (÷ 2 processes unharmed: ${two ? (payments.length / seconds / two.rate).toFixed(2) : '?'}), p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms of those answered paid`,
  );
  console.log(`  merchant's and pages' calls answered 502 or not at all, made again: ${madeAgain}`);
  console.log(
    `  answered paid: ${payments.length - interrupted.length}; answer lost or failed in the kill: ${interrupted.length} (${byKind(interrupted)})`,
  );
  for (const [answer, times] of said) console.log(`    ${times} × ${answer}`);
  console.log(
    `  paid or granted again by their payers through the survivor: ${paidAgain}; completed by the survivor with no payer's help: ${interrupted.length - paidAgain}`,
  );
  console.log(`  the survivor had finished everything ${settledAfter.toFixed(0)} s after the kill`);
  for (const line of report.lines) console.log(line);
  failed = report.problems.length > 0;
  console.log(
    failed
      ? `\n${report.problems.length} check(s) failed: something was lost or done twice.`
      : '\nNothing lost, nothing done twice.',
  );
} catch (error) {
  console.error(error);
  console.error(stack.tails());
} finally {
  console.log(`Load average at the end: ${load()}`);
  await checks.close();
  await receiver.close();
  await stack.close();
}
process.exitCode = failed ? 1 : 0;

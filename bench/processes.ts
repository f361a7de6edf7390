// Several server processes on one PostgreSQL, measured (docs/deploy.md; bench/README.md):
// payments per second and their p50/p95 at 1, 2 and 3 processes (one ROLE=all; then ROLE=api
// behind nginx with a ROLE=worker apart), in one run, then what the survivors do when an API
// process and a worker are killed (SIGKILL) mid-burst.
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
// The deployments alternate ROUNDS times (each warmed with WARMUP payments; webhooks left from a
// burst are sent before the next begins). Then the kill test, on two API processes and two
// workers: a burst in which API process B and worker W1 are killed with SIGKILL once a third of
// the payments have their answer, while the merchant's endpoint answers each delivery a second
// late, so that W1 dies holding deliveries; W2 must start each job W1 held within 30 s of the
// kill (docs/jobs.md "A process that dies"). Payers whose answer the kill lost
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
import { startStack, type TRole } from './processes-stack';

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
/** Each deployment measured: its servers by name and ROLE; nginx sends only to those that serve. */
const DEPLOYMENTS: { label: string; servers: Record<string, TRole> }[] = [
  { label: '1 all', servers: { A: 'all' } },
  { label: '1 api + 1 worker', servers: { A: 'api', W1: 'worker' } },
  { label: '2 api + 1 worker', servers: { A: 'api', B: 'api', W1: 'worker' } },
];
/** The kill test's: two of each, so that each role has a survivor. */
const KILL_DEPLOYMENT: Record<string, TRole> = { A: 'api', B: 'api', W1: 'worker', W2: 'worker' };
/** A job held by a killed worker must be taken up within this (docs/jobs.md). */
const PICKUP_LIMIT_MS = 30_000;

/** Which server runs with which role now. */
const running = new Map<string, TRole>();
/** Starts and stops servers until `servers` run, then routes nginx to those that serve. */
async function deploy(servers: Record<string, TRole>): Promise<void> {
  for (const [name, role] of running) {
    if (servers[name] === role) continue;
    await stack.stop(name);
    running.delete(name);
  }
  for (const [name, role] of Object.entries(servers)) {
    if (running.has(name)) continue;
    await stack.start(name, role);
    running.set(name, role);
  }
  await stack.route(Object.keys(servers).filter((name) => servers[name] !== 'worker'));
}

try {
  await deploy(KILL_DEPLOYMENT);
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

  const measured = DEPLOYMENTS.map(() => ({ payments: [] as TPayment[], seconds: 0 }));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, deployment] of DEPLOYMENTS.entries()) {
      await deploy(deployment.servers);
      await run(WARMUP);
      await checks.drained();
      const { payments, seconds, madeAgain } = await run(PAYMENTS);
      const failures = payments.filter((p) => p.failure);
      if (failures.length > 0 || madeAgain > 0) {
        throw new Error(
          `${failures.length} payments not paid, ${madeAgain} calls made again at ${deployment.label}: ${failures[0]?.failure}`,
        );
      }
      measured[index]?.payments.push(...payments);
      if (measured[index]) measured[index].seconds += seconds;
    }
  }

  console.log(
    `\n${ROUNDS} alternated rounds of ${PAYMENTS} payments (${byKind(measured[0]?.payments ?? [])} per deployment), ${CONCURRENCY} at a time, through nginx; PostgreSQL, Redis`,
  );
  console.log('  processes (ROLE)     payments/s   p50 ms   p95 ms   ÷ 1 all');
  const rows = measured.map(({ payments, seconds }) => {
    const ms = payments.map((p) => p.ms);
    return { rate: payments.length / seconds, p50: percentile(ms, 50), p95: percentile(ms, 95) };
  });
  const first = rows[0];
  for (const [index, row] of rows.entries()) {
    console.log(
      `  ${(DEPLOYMENTS[index]?.label ?? '').padEnd(18)}   ${row.rate.toFixed(1).padStart(10)}   ${row.p50.toFixed(0).padStart(6)}   ${row.p95.toFixed(0).padStart(6)}   ×${first ? (row.rate / first.rate).toFixed(2) : '?'}`,
    );
  }

  // The kill test: an API process and a worker killed together mid-burst, while the merchant's
  // endpoint answers each delivery a second late, so the worker dies holding deliveries.
  await deploy(KILL_DEPLOYMENT);
  await run(WARMUP);
  await checks.drained();
  receiver.holdFor(1_000);
  const killAfter = Math.round(PAYMENTS / 3);
  const kill: { at: Date | null; held: string[]; done: Promise<void> } = {
    at: null,
    held: [],
    done: Promise.resolve(),
  };
  const { payments, seconds, madeAgain } = await run(PAYMENTS, (answered) => {
    if (answered !== killAfter) return;
    kill.done = (async () => {
      kill.held = await checks.running();
      await Promise.all([stack.stop('B', 'SIGKILL'), stack.stop('W1', 'SIGKILL')]);
      kill.at = new Date();
      // Held long enough to be killed with; the survivors' deliveries go at the usual pace.
      receiver.holdFor(0);
      running.delete('B');
      running.delete('W1');
    })();
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
  const pickup = await checks.takenUp(kill.held, killedAt);
  const pickedUp = pickup.held > 0 && pickup.latestMs <= PICKUP_LIMIT_MS;
  report.lines.push(
    `${pickedUp ? '  ok  ' : '  FAIL'} worker W1 died holding ${pickup.held} jobs (of ${kill.held.length} running); W2 took the last up ${(pickup.latestMs / 1_000).toFixed(1)} s after the kill (limit ${PICKUP_LIMIT_MS / 1_000} s)`,
  );
  if (!pickedUp) report.problems.push('a killed worker’s jobs were not taken up in time');

  console.log(
    `\nKill test: 2 api + 2 workers, ${PAYMENTS} payments (${byKind(payments)}), ${CONCURRENCY} at a time; api B and worker W1 killed with SIGKILL once ${killAfter} had their answer`,
  );
  const ms = payments.filter((p) => !p.failure).map((p) => p.ms);
  console.log(
    `  ${(payments.length / seconds).toFixed(1)} payments/s over the burst, p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms of those answered paid`,
  );
  console.log(`  merchant's and pages' calls answered 502 or not at all, made again: ${madeAgain}`);
  console.log(
    `  answered paid: ${payments.length - interrupted.length}; answer lost or failed in the kill: ${interrupted.length} (${byKind(interrupted)})`,
  );
  for (const [answer, times] of said) console.log(`    ${times} × ${answer}`);
  console.log(
    `  paid or granted again by their payers through the survivor: ${paidAgain}; completed by the survivors with no payer's help: ${interrupted.length - paidAgain}`,
  );
  console.log(
    `  the survivors had finished everything ${settledAfter.toFixed(0)} s after the kill`,
  );
  for (const line of report.lines) console.log(line);
  failed = report.problems.length > 0;
  console.log(
    failed
      ? `\n${report.problems.length} check(s) failed: something was lost, done twice or late.`
      : "\nNothing lost, nothing done twice, the dead worker's jobs taken up in time.",
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

// Open event streams (docs/payments.md "Events"): STREAMS server-sent-event streams held open on
// one server process, the resident memory each costs that process, and how long an event takes
// from its write to a client while they are all open. The issue's targets: 10,000 streams,
// at most 20 KB of RSS per stream, emit → receive p95 at most 250 ms.
//
// This process is the server: the real app (buildApp) on 127.0.0.1, port 0, in-memory PGlite
// (or a fresh database on the PostgreSQL of DATABASE_URL). A merchant, PAYMENTS consents with an
// immediate payment each (STREAMS / 10 by default), and STREAMS streams of
// GET /api/events/payments/:paymentId?consentId=&clientId= spread evenly over those payments.
// The clients run in a child process (this file again, forked), so the RSS measured here is the
// server's alone and neither process needs a file descriptor per socket for both ends; the
// child's own growth is printed too. While the streams are open, EVENTS payment_status events
// are appended (appendEvent, in a transaction of their own) to random payments at RATE a second;
// every stream of that payment should receive each one. The write time travels in the event, the
// client notes the arrival: both read the same wall clock (performance.timeOrigin + now()).
//
// Run: `npx tsx bench/event-streams.ts`, or `node --expose-gc --import tsx bench/event-streams.ts`
// so the memory is read after a full GC. STREAMS, PAYMENTS, EVENTS, RATE and CONCURRENCY
// (streams being opened at once) change the run.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROLE_ENV = 'EVENT_STREAMS_ROLE';
const TARGET_KB = 20;
const TARGET_P95_MS = 250;

type TTarget = { paymentId: string; consentId: string; clientId: string };

type TToClients =
  | { type: 'open'; port: number; targets: TTarget[]; streams: number; concurrency: number }
  | { type: 'count' }
  | { type: 'report' }
  | { type: 'close' };

type TFromClients =
  | { type: 'opened'; ready: number; failed: number; errors: string[]; rss: [number, number] }
  | { type: 'count'; received: number }
  | { type: 'report'; latencies: number[]; received: number; strays: number; closed: number };

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
const wallNow = () => performance.timeOrigin + performance.now();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The soft limit on open files of this process (Linux), or Infinity where unknown. */
function openFilesLimit(): number {
  try {
    const line = /Max open files\s+(\S+)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    const value = line?.[1];
    return value === undefined || value === 'unlimited' ? Infinity : Number(value);
  } catch {
    return Infinity;
  }
}

/** The process's memory after a full collection when --expose-gc allows one. */
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i += 1) {
    globalThis.gc?.();
    await sleep(200);
  }
  return process.memoryUsage();
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);

// ---------------------------------------------------------------------------------------------
// The clients (the forked child): raw node:http requests, one socket each, no agent.

function runClients() {
  const send = (message: TFromClients) => process.send?.(message);
  const requests: ClientRequest[] = [];
  const latencies: number[] = [];
  let received = 0;
  let strays = 0;
  let closed = 0;

  /** Opens one stream; resolves at its `event: ready`, rejects if it fails first. */
  const open = (port: number, target: TTarget) =>
    new Promise<void>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port,
        path: `/api/events/payments/${target.paymentId}?consentId=${target.consentId}&clientId=${target.clientId}`,
        headers: { accept: 'text/event-stream' },
        agent: false,
      });
      requests.push(req);
      let ready = false;
      req.on('error', (error) => {
        if (!ready) reject(error);
      });
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`HTTP ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = wallNow();
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            let event = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data += line.slice(5).trim();
            }
            if (event === 'ready') {
              ready = true;
              resolve();
            } else if (event === 'payment_status') {
              const sentAt = (JSON.parse(data) as { sentAt?: unknown }).sentAt;
              if (typeof sentAt === 'number') {
                received += 1;
                latencies.push(at - sentAt);
              } else {
                strays += 1;
              }
            }
          }
        });
        res.on('close', () => {
          if (ready) closed += 1;
          else reject(new Error('closed before ready'));
        });
      });
      req.end();
    });

  process.on('message', (message: TToClients) => {
    if (message.type === 'open') {
      void (async () => {
        const before = (await settledMemory()).rss;
        let next = 0;
        let ready = 0;
        const errors = new Map<string, number>();
        const worker = async () => {
          while (next < message.streams) {
            const target = message.targets[next % message.targets.length];
            next += 1;
            if (!target) continue;
            try {
              await open(message.port, target);
              ready += 1;
            } catch (error) {
              const text = (error as Error).message;
              errors.set(text, (errors.get(text) ?? 0) + 1);
            }
          }
        };
        await Promise.all(Array.from({ length: message.concurrency }, worker));
        const after = (await settledMemory()).rss;
        send({
          type: 'opened',
          ready,
          failed: message.streams - ready,
          errors: [...errors].map(([text, n]) => `${n}× ${text}`),
          rss: [before, after],
        });
      })();
    } else if (message.type === 'count') {
      send({ type: 'count', received });
    } else if (message.type === 'report') {
      send({ type: 'report', latencies, received, strays, closed });
    } else {
      for (const req of requests) req.destroy();
      process.disconnect();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The server and the run (this process).

async function runServer() {
  const { buildApp } = await import('../src/server/app');
  const { loadConfig } = await import('../src/server/config');
  const { openDatabase } = await import('../src/server/db/database');
  const { appendEvent, eventStreams } = await import('../src/server/events/event-log');
  const { createMerchantClient } =
    await import('../src/server/services/merchants/merchant-clients');
  const pg = (await import('pg')).default;

  const asked = Number(process.env.STREAMS ?? 10_000);
  let streams = asked;
  const events = Number(process.env.EVENTS ?? 500);
  const rate = Number(process.env.RATE ?? 50);
  const concurrency = Number(process.env.CONCURRENCY ?? 100);

  // Each process holds one socket per stream, and some files of its own.
  const limit = openFilesLimit();
  if (limit < streams + 200) {
    const fit = Math.max(0, limit - 200);
    console.log(
      `The open-files limit is ${limit} (ulimit -n); ${streams} streams need about ${streams + 200} ` +
        `in each process. Raise it in the shell that runs the bench (\`ulimit -n ${streams + 200}\`, ` +
        `at most \`ulimit -Hn\`; above that, the hard limit in /etc/security/limits.conf or ` +
        `LimitNOFILE=). Running with ${fit} streams.`,
    );
    streams = fit;
  }
  const payments = Number(process.env.PAYMENTS ?? Math.max(1, Math.ceil(streams / 10)));

  // The database: in-memory PGlite, or a fresh database of its own on DATABASE_URL.
  const postgresUrl = process.env.DATABASE_URL;
  let ownDatabase: string | undefined;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  if (postgresUrl) {
    ownDatabase = `bench_streams_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${ownDatabase}`);
    await admin.end();
    const url = new URL(postgresUrl);
    url.pathname = `/${ownDatabase}`;
    database = await openDatabase({ kind: 'postgres', url: url.toString() });
  } else {
    database = await openDatabase({ kind: 'pglite' });
  }
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', PUBLIC_URL: 'http://127.0.0.1' });
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const clients: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [ROLE_ENV]: 'clients' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T extends TFromClients['type']>(message: TToClients, answer: T) =>
    new Promise<Extract<TFromClients, { type: T }>>((resolve, reject) => {
      const onMessage = (reply: TFromClients) => {
        if (reply.type !== answer) return;
        clients.off('message', onMessage);
        clients.off('exit', onExit);
        resolve(reply as Extract<TFromClients, { type: T }>);
      };
      const onExit = (code: number | null) =>
        reject(new Error(`the client process exited with ${code}`));
      clients.on('message', onMessage);
      clients.once('exit', onExit);
      clients.send(message);
    });

  try {
    // Setup: one merchant, PAYMENTS consents with an immediate payment each.
    console.log(
      `Event streams on ${database.kind}: ${streams} streams over ${payments} payments, ` +
        `${events} events at ${rate}/s, GC ${globalThis.gc ? 'forced' : 'not exposed (--expose-gc)'}`,
    );
    const setupStarted = performance.now();
    const merchant = await createMerchantClient(database.db, { name: 'Bench Stores' });
    const authorization = `Basic ${Buffer.from(`${merchant.clientId}:${merchant.secret}`).toString('base64')}`;
    const targets: TTarget[] = [];
    for (let i = 0; i < payments; i += 1) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/consents',
        headers: { authorization },
        payload: {
          payments: [{ type: 'immediate', amount: 250_000, narration: `Order #${i}` }],
          requirements: { requiresAuth: false },
        },
      });
      if (created.statusCode !== 201) throw new Error(`consent: ${created.body}`);
      const consentId = created.json<{ consentId: string }>().consentId;
      const read = await app.inject({
        method: 'GET',
        url: `/api/consent/${consentId}?clientId=${merchant.clientId}`,
      });
      const paymentId = read
        .json<{ consent: { payments: Array<{ paymentId: string; type: string }> } }>()
        .consent.payments.find((p) => p.type === 'immediate')?.paymentId;
      if (!paymentId) throw new Error(`no immediate payment: ${read.body}`);
      targets.push({ paymentId, consentId, clientId: merchant.clientId });
    }
    console.log(
      `  setup: ${payments} consents in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    // Open the streams and read the memory before and after.
    const before = await settledMemory();
    const openStarted = performance.now();
    const opened = await ask({ type: 'open', port, targets, streams, concurrency }, 'opened');
    const openSeconds = (performance.now() - openStarted) / 1000;
    // `ready` is sent before the hub's watch resolves: give the last ones a moment.
    await sleep(1_000);
    const after = await settledMemory();
    const connections = await new Promise<number>((resolve) =>
      app.server.getConnections((_error, count) => resolve(count)),
    );
    const perStreamKB = (after.rss - before.rss) / 1024 / Math.max(1, opened.ready);
    const clientKB = (opened.rss[1] - opened.rss[0]) / 1024 / Math.max(1, opened.ready);
    console.log(
      `  opened ${opened.ready} of ${streams} in ${openSeconds.toFixed(1)} s ` +
        `(${(opened.ready / openSeconds).toFixed(0)}/s); the server holds ${connections} connections`,
    );
    for (const error of opened.errors) console.log(`  failed: ${error}`);
    console.log(
      `  server RSS ${(before.rss / 2 ** 20).toFixed(1)} → ${(after.rss / 2 ** 20).toFixed(1)} MiB: ` +
        `${perStreamKB.toFixed(1)} KB per stream (JS heap ` +
        `${((after.heapUsed - before.heapUsed) / 1024 / Math.max(1, opened.ready)).toFixed(1)} KB, ` +
        `external ${((after.external - before.external) / 1024 / Math.max(1, opened.ready)).toFixed(1)} KB)`,
    );
    console.log(
      `  client process RSS (not in the figure above): ${clientKB.toFixed(1)} KB per stream`,
    );

    // Emit at a steady rate to random payments; each stream of that payment should receive it.
    const streamsOf = (index: number) =>
      Math.floor(opened.ready / payments) + (index < opened.ready % payments ? 1 : 0);
    let expected = 0;
    let emitErrors = 0;
    const commitMs: number[] = [];
    const pending: Array<Promise<void>> = [];
    const emitStarted = performance.now();
    for (let i = 0; i < events; i += 1) {
      const due = emitStarted + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const index = Math.floor(Math.random() * payments);
      const target = targets[index];
      if (!target) continue;
      expected += streamsOf(index);
      const sentAt = wallNow();
      pending.push(
        database.db
          .transaction((tx) =>
            appendEvent(tx, {
              stream: eventStreams.payment(target.paymentId),
              type: 'payment_status',
              data: { paymentId: target.paymentId, status: 'in_progress', sentAt },
            }),
          )
          .then(
            () => {
              commitMs.push(wallNow() - sentAt);
            },
            () => {
              emitErrors += 1;
            },
          ),
      );
    }
    await Promise.all(pending);
    const emitSeconds = (performance.now() - emitStarted) / 1000;
    // Let the last deliveries arrive (at most 10 s).
    for (let waited = 0; waited < 10_000; waited += 200) {
      if ((await ask({ type: 'count' }, 'count')).received >= expected) break;
      await sleep(200);
    }
    const report = await ask({ type: 'report' }, 'report');
    const sorted = [...report.latencies].sort((a, b) => a - b);
    const commits = [...commitMs].sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `  emitted ${events - emitErrors} of ${events} in ${emitSeconds.toFixed(1)} s; ` +
        `deliveries expected ${expected}, received ${report.received}` +
        (report.strays ? `, ${report.strays} without sentAt` : '') +
        (report.closed ? `; ${report.closed} streams closed by the server` : ''),
    );
    console.log(
      `  emit → receive: p50 ${ms(percentile(sorted, 50))}, p95 ${ms(p95)}, ` +
        `p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`,
    );
    console.log(
      `  emit → commit (the write's own transaction): p50 ${ms(percentile(commits, 50))}, ` +
        `p95 ${ms(percentile(commits, 95))}, max ${ms(commits.at(-1) ?? NaN)}`,
    );

    const met = (ok: boolean) => (ok ? 'met' : 'not met');
    const rows = [
      ['Figure', 'Measured', 'Target', ''],
      [
        'streams open',
        String(opened.ready),
        '10000',
        opened.ready >= 10_000
          ? 'met'
          : `not met (${streams < asked ? 'open-files limit' : `STREAMS=${asked}`})`,
      ],
      [
        'server RSS per stream',
        `${perStreamKB.toFixed(1)} KB`,
        `≤ ${TARGET_KB} KB`,
        met(perStreamKB <= TARGET_KB),
      ],
      ['emit → receive p95', ms(p95), `≤ ${TARGET_P95_MS} ms`, met(p95 <= TARGET_P95_MS)],
      [
        'deliveries received',
        `${report.received} / ${expected}`,
        'all',
        met(report.received >= expected),
      ],
    ];
    const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
    console.log('');
    for (const row of rows) {
      console.log(`  ${row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('   ')}`.trimEnd());
    }
    console.log(
      `  load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    if (clients.connected) {
      clients.send({ type: 'close' } satisfies TToClients);
      await new Promise((resolve) => clients.once('exit', resolve));
    } else if (clients.exitCode === null) {
      clients.kill();
    }
    await app.close();
    await database.close();
    if (postgresUrl && ownDatabase) {
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${ownDatabase} with (force)`);
      await admin.end();
    }
  }
}

if (process.env[ROLE_ENV] === 'clients') runClients();
else await runServer();

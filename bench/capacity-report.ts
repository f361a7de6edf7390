// How bench/capacity.ts sums up a step and prints it: one line of figures per step (the columns
// bench/README.md explains), then the p95 of each flow and what the errors said.
import { FLOWS } from './capacity-flows';
import type { TPaymentResult } from './capacity-payers';

/** What the bench read of the deployment over one step, beside the payers' results. */
export type TStepReadings = {
  serverCpuMs: number;
  /** null on PGlite: the database is inside the server process. */
  postgresCpuMs: number | null;
  statements: number | null;
  loopP99Ms: number | null;
  poolWaiting: number | null;
  jobsQueued: number;
  jobLagSeconds: number;
  payersCpuMs: number;
};

export type TStepRow = {
  offered: number;
  completed: number;
  executed: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  arrivals: number;
  results: TPaymentResult[];
  readings: TStepReadings;
};

/** The nearest-rank percentile; NaN of nothing. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

/** The step's row: its rates and times from the payers' results, and the readings beside them. */
export function stepRow(
  offered: number,
  results: TPaymentResult[],
  readings: TStepReadings,
): TStepRow {
  const executed = results.filter((r) => !r.error);
  const ms = executed.map((r) => r.ms);
  // The arrivals' window, or longer when the last payment ended after it: a server that keeps up
  // completes what is offered; one that falls behind completes less, later.
  const window = results.length / offered;
  const lastEnd = Math.max(0, ...executed.map((r) => r.startedAt + r.ms)) / 1_000;
  const span = Math.max(window, lastEnd);
  return {
    offered,
    completed: executed.length / span,
    executed: executed.length,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    errors: results.length - executed.length,
    arrivals: results.length,
    results,
    readings,
  };
}

const COLUMNS = [
  ['offered/s', 9],
  ['done/s', 7],
  ['p50 ms', 7],
  ['p95 ms', 7],
  ['p99 ms', 7],
  ['errors', 6],
  ['server ms/pay', 13],
  ['pg ms/pay', 9],
  ['%STMT%/pay', 10],
  ['loop p99 ms', 11],
  ['pool waits', 10],
  ['jobs', 5],
  ['job lag s', 9],
  ['payers ms/pay', 13],
  ['late p99 ms', 11],
] as const;

/** The table's header; `counted` names what the statements column counts. */
export function header(counted: 'statements' | 'transactions' | null): string {
  const name = counted === 'transactions' ? 'xacts' : 'stmts';
  return COLUMNS.map(([title, width]) => title.replace('%STMT%', name).padStart(width)).join(' ');
}

const fixed = (value: number | null, digits = 0) =>
  value === null || !Number.isFinite(value) ? '-' : value.toFixed(digits);

/** The step's line of figures, under header(). */
export function line(row: TStepRow): string {
  const { readings: r, executed } = row;
  const per = (total: number | null, digits = 1) =>
    total === null || executed === 0 ? '-' : fixed(total / executed, digits);
  const cells = [
    fixed(row.offered, 2),
    fixed(row.completed, 2),
    fixed(row.p50),
    fixed(row.p95),
    fixed(row.p99),
    String(row.errors),
    per(r.serverCpuMs),
    per(r.postgresCpuMs),
    per(r.statements),
    fixed(r.loopP99Ms, 1),
    fixed(r.poolWaiting),
    String(r.jobsQueued),
    String(r.jobLagSeconds),
    per(r.payersCpuMs),
    fixed(
      percentile(
        row.results.map((p) => p.lateMs),
        99,
      ),
    ),
  ];
  return cells.map((cell, i) => cell.padStart(COLUMNS[i]?.[1] ?? 0)).join(' ');
}

/** Under the line: each flow's p95, and each kind of error with how often it came. */
export function details(row: TStepRow): string[] {
  const byFlow = FLOWS.map((flow) => {
    const ms = row.results.filter((r) => r.flow === flow && !r.error).map((r) => r.ms);
    return `${flow} ${fixed(percentile(ms, 95))}`;
  });
  const said = new Map<string, number>();
  for (const result of row.results.filter((r) => r.error)) {
    const key = `${result.flow}: ${result.error}`;
    said.set(key, (said.get(key) ?? 0) + 1);
  }
  return [
    `    p95 ms by flow: ${byFlow.join(', ')}`,
    ...[...said].map(([error, times]) => `    ${times} × ${error}`),
  ];
}

/**
 * What a step's costs allow on this machine with nothing waiting at all: the server's JavaScript
 * runs on one event loop, so one process takes at most 1,000 ÷ its CPU ms a payment (a little
 * more where the thread pool's RSA work is on another core); the machine's cores at most
 * cores × 1,000 ÷ (the server's + PostgreSQL's + the payers' ms a payment). A p95 within a second
 * needs headroom under both. `roundTripUs`: one statement's round trip (client and PostgreSQL),
 * which the step's statements cost before any work in them (a few of those PostgreSQL counts are
 * run by its triggers, not sent: the figure is a little high).
 */
export function ceiling(row: TStepRow, cores: number, roundTripUs: number | null): string {
  const { readings: r, executed } = row;
  if (executed === 0) return 'Ceiling: no payment executed';
  const server = r.serverCpuMs / executed;
  const all = (r.serverCpuMs + (r.postgresCpuMs ?? 0) + r.payersCpuMs) / executed;
  const statements = r.statements === null ? null : r.statements / executed;
  const trips =
    statements === null || roundTripUs === null
      ? ''
      : `; its ${statements.toFixed(1)} statements a payment cost about ${((statements * roundTripUs) / 1_000).toFixed(1)} ms of round trips alone`;
  return `Ceiling at the ${fixed(row.offered, 2)}/s step's costs: one event loop ${fixed(1_000 / server)} payments/s (server ${server.toFixed(1)} ms a payment), ${cores} cores ${fixed((cores * 1_000) / all)} payments/s (${all.toFixed(1)} ms a payment, every process)${trips}`;
}

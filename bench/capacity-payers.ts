// The payers of bench/capacity.ts: a process of its own (forked by it), so that the load it makes
// is not timed by the event loop that measures it. An open loop: a new payer arrives every
// 1/rate seconds whatever the others are doing, each with an address of its own
// (X-Forwarded-For), and pays the next flow of capacity-flows.ts in turn. Each payment is timed
// from its first call to the answer that says it was executed.
//
// Talks to its parent over IPC:
//   → { type: 'pool', size }              ← { type: 'pool', size, ms }
//   → { type: 'step', rate, seconds }     ← { type: 'step', results, cpuMs }
//   → { type: 'stop' }
// The signed-in payers (onetap, collection) come from a pool prepared before a step: a passkey's
// signatures are counted, so a payer signs one grant at a time and is taken from the pool for
// the length of their payment.
import { performance } from 'node:perf_hooks';
import { payOnce, RUN_FLOWS, SIGNED_IN_FLOWS, type TFlow } from './capacity-flows';
import { payerApp, preparePayers, type TMerchant, type TPayer } from './processes-mix';

export type TPayersConfig = { base: string; origin: string; merchant: TMerchant };

export type TPaymentResult = {
  flow: TFlow;
  /** From the payment's first call to its last answer. */
  ms: number;
  /** When it began, ms after the step's first arrival. */
  startedAt: number;
  /** How late it began against its arrival time (this process's event loop held it). */
  lateMs: number;
  /** Why it did not end executed; undefined when it did. */
  error?: string;
};

export type TStepAnswer = {
  type: 'step';
  results: TPaymentResult[];
  /** This process's CPU time over the step. */
  cpuMs: number;
};

export type TPayersRequest =
  | { type: 'pool'; size: number }
  | { type: 'step'; rate: number; seconds: number }
  | { type: 'stop' };

/** A payment not answered by then counts as an error ('no answer'). */
const PAYMENT_LIMIT_MS = 30_000;
/** Signed-in payers prepared at once. */
const PREPARED_AT_ONCE = 8;

const config = JSON.parse(process.env.CAPACITY_PAYERS ?? '{}') as TPayersConfig;
const freePayers: TPayer[] = [];
let poolSize = 0;
let arrivals = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Grows the pool of signed-in payers to `size`, a few at a time. */
async function growPool(size: number): Promise<void> {
  while (poolSize < size) {
    const count = Math.min(PREPARED_AT_ONCE, size - poolSize);
    freePayers.push(...(await preparePayers(config.base, config.origin, count)));
    poolSize += count;
  }
}

/** The payment's end, or 'no answer' once PAYMENT_LIMIT_MS passed. */
function withinLimit(payment: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer in ${PAYMENT_LIMIT_MS / 1_000} s`)),
      PAYMENT_LIMIT_MS,
    );
  });
  return Promise.race([payment, limit]).finally(() => clearTimeout(timer));
}

/** One payer's arrival: their flow, their payment, its time. */
async function arrive(flow: TFlow, dueAt: number, stepStart: number): Promise<TPaymentResult> {
  const began = performance.now();
  const timing = { startedAt: began - stepStart, lateMs: Math.max(0, began - dueAt) };
  const payer = SIGNED_IN_FLOWS.includes(flow) ? (freePayers.pop() ?? null) : null;
  if (SIGNED_IN_FLOWS.includes(flow) && !payer) {
    return { flow, ms: 0, ...timing, error: 'no signed-in payer free: the pool was too small' };
  }
  const payment = payOnce(
    { base: config.base, merchant: config.merchant, app: payerApp(config.base), payer },
    flow,
  ).finally(() => {
    // Back to the pool once the payment really ended, even after its limit.
    if (payer) freePayers.push(payer);
  });
  try {
    await withinLimit(payment);
    return { flow, ms: performance.now() - began, ...timing };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { flow, ms: performance.now() - began, ...timing, error: message };
  }
}

/** `rate` payers a second for `seconds`, each arriving on time whatever the others do. */
async function runStep(rate: number, seconds: number): Promise<TStepAnswer> {
  const count = Math.max(1, Math.round(rate * seconds));
  const cpuBefore = process.cpuUsage();
  const stepStart = performance.now();
  const payments: Promise<TPaymentResult>[] = [];
  for (let index = 0; index < count; index += 1) {
    const dueAt = stepStart + (index * 1_000) / rate;
    const wait = dueAt - performance.now();
    if (wait > 0) await sleep(wait);
    const flow = RUN_FLOWS[arrivals % RUN_FLOWS.length] ?? 'card_pin';
    arrivals += 1;
    payments.push(arrive(flow, dueAt, stepStart));
  }
  const results = await Promise.all(payments);
  const cpu = process.cpuUsage(cpuBefore);
  return { type: 'step', results, cpuMs: (cpu.user + cpu.system) / 1_000 };
}

process.on('message', (request: TPayersRequest) => {
  const answer = async () => {
    if (request.type === 'stop') process.exit(0);
    if (request.type === 'pool') {
      const began = performance.now();
      await growPool(request.size);
      return { type: 'pool', size: poolSize, ms: performance.now() - began };
    }
    return runStep(request.rate, request.seconds);
  };
  answer().then(
    (message) => process.send?.(message),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});

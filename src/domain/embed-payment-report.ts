import type { TGrantPhase } from './consent-flow';
import type { TEmbedPaymentMethod, TEmbedPaymentStatus } from './embed-messages';
import type { TPaymentPhase } from './payment-status';

/**
 * A way of paying the immediate payment the payer began on this page: the how-manyth, by what,
 * and whether it failed where the processing view does not show it (the chip reader's modal).
 */
export type TPaymentAttempt = {
  n: number;
  method: TEmbedPaymentMethod;
  failed: boolean;
  /** What names the attempt where the server hands the same one again (a transfer's account). */
  key?: string;
};

/**
 * The attempt a new try makes: the last one again when the server handed back the same thing
 * (a transfer's one-time account asked for again while open, e.g. after Cancel or from the
 * processing view), so its parent is not told 'started' twice; otherwise the next one.
 */
export function nextAttempt(
  last: TPaymentAttempt | null,
  method: TEmbedPaymentMethod,
  key?: string,
): TPaymentAttempt {
  if (last && !last.failed && key !== undefined && last.method === method && last.key === key)
    return last;
  return { n: (last?.n ?? 0) + 1, method, failed: false, ...(key === undefined ? {} : { key }) };
}

/** Where the immediate payment stands for the embedding parent (oya-money-payment-status). */
export type TPaymentReport = {
  paymentId: string;
  status: TEmbedPaymentStatus;
  method?: TEmbedPaymentMethod;
  /** Which attempt it is about: a new one starts again, the same one is told once. */
  attempt: string;
};

/** The phases of a payment under way that the page found so on opening (a reload mid-payment). */
const UNDER_WAY: ReadonlySet<TPaymentPhase> = new Set([
  'awaiting_transfer',
  'charging',
  'awaiting_3ds',
  'received',
]);

/**
 * What the parent is told of the immediate payment, from the payment-status reducer's phase and
 * the latest attempt: completed once the server reports it, failed when the payer is shown a
 * failure, started once an attempt begins; null before any.
 */
export function paymentReport(
  paymentId: string,
  phase: TPaymentPhase,
  attempt: TPaymentAttempt | null,
): TPaymentReport | null {
  const about = {
    paymentId,
    attempt: String(attempt?.n ?? 0),
    ...(attempt ? { method: attempt.method } : {}),
  };
  if (phase === 'processed' || phase === 'completed') return { ...about, status: 'completed' };
  if (phase === 'failed' || attempt?.failed) return { ...about, status: 'failed' };
  if (attempt || UNDER_WAY.has(phase)) return { ...about, status: 'started' };
  return null;
}

/**
 * What the parent is told of a saved account's debit ('OneTap', spec §2), which the consent
 * flow's grant makes: started as the server processes the grant, then completed or failed with
 * it. `attempt` counts the grants that reached the server (0: none, nothing to tell).
 */
export function debitReport(
  paymentId: string,
  grant: TGrantPhase,
  attempt: number,
): TPaymentReport | null {
  const status =
    grant === 'processing'
      ? 'started'
      : grant === 'completing'
        ? 'completed'
        : grant === 'failed'
          ? 'failed'
          : null;
  if (!status || attempt === 0) return null;
  return { paymentId, status, method: 'account', attempt: `debit ${attempt}` };
}

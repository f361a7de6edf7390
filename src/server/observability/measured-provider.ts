import { trace } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import type { TPaymentProviders } from '../providers/payments';
import type { TMetrics } from './metrics';
import { idAttributes, inSpan } from './tracing';

/*
 * The payment provider port, measured (docs/operations.md): every call of every capability is
 * counted by the capability's provider, operation and outcome, timed, traced as a span
 * `provider <operation>` and logged with the ids it carries.
 * Our reference on a payment's call is the attempt's id (att_…): it becomes the span's and the
 * log line's attemptId, and the request's span gets it too, so the request is found by it.
 */

type TCallIds = { consentId?: unknown; paymentId?: unknown; attemptId?: unknown };

/** The ids a call's first argument names: its payment, consent, and its reference as attempt. */
function idsOf(argument: unknown): TCallIds {
  if (typeof argument !== 'object' || argument === null) return {};
  const { consentId, paymentId, reference } = argument as Record<string, unknown>;
  const attemptId =
    typeof reference === 'string' && reference.startsWith('att_') ? reference : undefined;
  return { consentId, paymentId, attemptId };
}

type TMeasures = {
  metrics: Pick<TMetrics, 'providerCalls' | 'providerDuration'>;
  log: FastifyBaseLogger;
};

/** Every capability of the port, each measured under the name of the adapter offering it. */
export function measuredProvider(
  providers: TPaymentProviders,
  metrics: TMeasures['metrics'],
  log: FastifyBaseLogger,
): TPaymentProviders {
  const measures = { metrics, log };
  return {
    cards: measuredCapability(providers.cards, measures),
    banks: measuredCapability(providers.banks, measures),
    bvn: measuredCapability(providers.bvn, measures),
    mandates: measuredCapability(providers.mandates, measures),
    debits: measuredCapability(providers.debits, measures),
    payouts: measuredCapability(providers.payouts, measures),
    refunds: measuredCapability(providers.refunds, measures),
    transfersIn: measuredCapability(providers.transfersIn, measures),
    notices: measuredCapability(providers.notices, measures),
    acquirer: measuredCapability(providers.acquirer, measures),
    settlement: measuredCapability(providers.settlement, measures),
  };
}

/** One capability whose every method call is counted, timed, traced and logged. */
function measuredCapability<TCapability extends { readonly provider: string }>(
  capability: TCapability,
  { metrics, log }: TMeasures,
): TCapability {
  // By the function itself, not its name: a method replaced on the capability (a test's spy) is
  // measured as what it now is, not as the method it replaced.
  const wrapped = new WeakMap<object, (...args: unknown[]) => Promise<unknown>>();
  const measure = (operation: string, call: (...args: unknown[]) => unknown) =>
    async function measured(...args: unknown[]): Promise<unknown> {
      const labels = { provider: capability.provider, operation };
      const attributes = idAttributes(idsOf(args[0]));
      trace.getActiveSpan()?.setAttributes(attributes);
      const stopTimer = metrics.providerDuration.startTimer(labels);
      return inSpan(`provider ${operation}`, attributes, async () => {
        let outcome: 'ok' | 'error' = 'error';
        try {
          const answer = await call.apply(capability, args);
          outcome = 'ok';
          return answer;
        } finally {
          const seconds = stopTimer();
          metrics.providerCalls.inc({ ...labels, outcome });
          log.info(
            { ...labels, ...idsOf(args[0]), outcome, ms: Math.round(seconds * 1000) },
            'provider call',
          );
        }
      });
    };
  return new Proxy(capability, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || typeof value !== 'function') return value;
      let fn = wrapped.get(value);
      if (!fn) {
        fn = measure(key, value as (...args: unknown[]) => unknown);
        wrapped.set(value, fn);
      }
      return fn;
    },
  });
}

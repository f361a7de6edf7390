import { trace } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import { registryOf, type TAdapter, type TProviderRegistry } from '../providers/registry';
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

/**
 * Every adapter of the registry, each port measured under the name of the adapter offering it,
 * and the record of new work made again from them: a service that resolves a row's adapter by
 * name calls the same measured port as one that takes new work.
 */
export function measuredRegistry(
  registry: TProviderRegistry,
  metrics: TMeasures['metrics'],
  log: FastifyBaseLogger,
): TProviderRegistry {
  const measures = { metrics, log };
  const adapters = registry.adapters.map(
    (adapter) =>
      Object.fromEntries(
        Object.entries(adapter).map(([key, port]: [string, unknown]) => [
          key,
          key === 'name' ? port : measuredCapability(port as { provider: string }, measures),
        ]),
      ) as TAdapter,
  );
  const measured = registryOf(registry.lists, adapters);
  return {
    ...measured,
    payments: {
      ...measured.payments,
      settlement: measuredCapability(registry.payments.settlement, measures),
    },
  };
}

/**
 * One capability whose every method call is counted, timed, traced and logged, and so are the
 * calls of the records it holds (a debit mandate's `open` and `status`, a provider's own mandates
 * and their debits): each under the provider that offers it and its path, e.g.
 * `own.debits.debitAccount`. An off capability has no calls: it is returned as it is.
 */
function measuredCapability<TCapability extends { readonly provider: string }>(
  capability: TCapability,
  measures: TMeasures,
): TCapability {
  return measuredRecord(capability, capability.provider, '', measures);
}

/** A record's calls measured under `provider`, its operations named from `prefix`. */
function measuredRecord<TRecord extends object>(
  record: TRecord,
  provider: string,
  prefix: string,
  { metrics, log }: TMeasures,
): TRecord {
  // By the function itself, not its name: a method replaced on the capability (a test's spy) is
  // measured as what it now is, not as the method it replaced.
  const wrapped = new WeakMap<object, unknown>();
  const measure = (operation: string, call: (...args: unknown[]) => unknown) =>
    async function measured(...args: unknown[]): Promise<unknown> {
      const labels = { provider, operation };
      const attributes = idAttributes(idsOf(args[0]));
      trace.getActiveSpan()?.setAttributes(attributes);
      const stopTimer = metrics.providerDuration.startTimer(labels);
      return inSpan(`provider ${operation}`, attributes, async () => {
        let outcome: 'ok' | 'error' = 'error';
        try {
          const answer = await call.apply(record, args);
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
  return new Proxy(record, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || value === null) return value;
      const nested = typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
      if ((typeof value !== 'function' && !nested) || ANSWERED_HERE.has(key)) return value;
      let measured = wrapped.get(value);
      if (!measured) {
        const path = `${prefix}${key}`;
        measured =
          typeof value === 'function'
            ? measure(path, value as (...args: unknown[]) => unknown)
            : measuredRecord(value, subProvider(value, provider), `${path}.`, { metrics, log });
        wrapped.set(value, measured);
      }
      return measured;
    },
  });
}

/** The ports' calls that ask no provider and answer at once (what the adapter knows itself). */
const ANSWERED_HERE = new Set(['mandatesBank']);

/** A nested port names its own provider (a provider's own mandates' debits); else its holder's. */
const subProvider = (value: object, holder: string): string =>
  'provider' in value && typeof value.provider === 'string' ? value.provider : holder;

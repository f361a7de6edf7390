import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import { inSpan } from '../observability/tracing';

/*
 * A job's place in the trace of the request that queued it (docs/operations.md "Traces"): the
 * W3C trace context (traceparent, tracestate) of the span active at the enqueue is written into
 * the job's data, and the job's span starts in it, a child of that span. It names a trace,
 * nothing secret. Work nobody asked for in a request (a periodic run) carries none and starts no
 * trace.
 */

/** The trace context a job carries, as W3C Trace Context's headers name its fields. */
export type TTraceCarrier = Record<string, string>;

/** Where a job's data keeps its trace context. */
const TRACE_CONTEXT = 'traceContext';

/** `data` with the active span's trace context; as it is when no span is active. */
export function withTraceContext(data: object): object {
  const carrier: TTraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? { ...data, [TRACE_CONTEXT]: carrier } : data;
}

/** A job's data parted into the trace context it carries (if any) and the kind's own data. */
export function traceContextOf(jobData: object): { carrier: TTraceCarrier | null; data: object } {
  const { [TRACE_CONTEXT]: carried, ...data } = jobData as Record<string, unknown>;
  const carrier =
    carried !== null && typeof carried === 'object' ? (carried as TTraceCarrier) : null;
  return { carrier, data };
}

/**
 * Runs a job's `work` in a span that is a child of the span its trace context names; without one
 * (or with tracing off), runs it with no span at all.
 */
export async function inJobSpan<T>(
  carrier: TTraceCarrier | null,
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  const spanContext = trace.getSpanContext(parent);
  if (!spanContext || !trace.isSpanContextValid(spanContext)) {
    return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  }
  return context.with(parent, () => inSpan(name, attributes, work));
}

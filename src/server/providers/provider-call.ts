import type { Attributes } from '@opentelemetry/api';
import { inSpan } from '../observability/tracing';

/*
 * The one way to call a provider over HTTP (ARCHITECTURE.md "Money movement"; hyperswitch's
 * ConnectorIntegration and execute_connector_processing_step): the adapter describes the request
 * and reads the answer; this core runs the call. It owns the timeout, redirects (never followed),
 * the span and the count of every try, and the triage that is our money-safety rule:
 *
 * - answered: the provider said what it did, and the adapter's reader read it;
 * - refused: the provider looked at the call and did not do it (nothing happened), said why;
 * - no answer (ProviderNoAnswer): a timeout, a broken connection, a redirect, a 5xx, a 408 or 429
 *   (the provider did not look at it), or words the reader cannot read. Whether the provider
 *   acted is not known: the adapter asks about its reference, and the call is never repeated.
 *   Only a read (a GET, or a call the adapter marks `repeatable`) is asked again, after pauses.
 *
 * A refused key (401, 403) is a configuration fault, thrown as ProviderKeyRefused: never read as
 * the payer's decline. No message or span of this core carries a header, a body or a query string
 * (keys, card data and BVNs ride in them).
 */

/** What a provider's answer holds for the adapter's reader. */
export type TProviderResponse = {
  status: number;
  headers: Headers;
  text: string;
  /** The body as JSON; undefined when it is not JSON. */
  json: unknown;
};

/** What the adapter's reader makes of an answer. */
export type TProviderReading<TData> =
  | { outcome: 'answered'; data: TData }
  | {
      outcome: 'refused';
      /** The provider's own words, for the adapter and the log: never shown to a payer as is. */
      reason: string;
      /** The provider's own code, where it gives one (e.g. 'duplicate_reference'). */
      code?: string | null;
      data?: unknown;
    }
  | { outcome: 'unknown'; reason: string };

export type TProviderBody =
  { json: unknown } | { form: Record<string, string> | URLSearchParams } | undefined;

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call as the adapter describes it. */
export type TProviderCall<TData> = {
  /** The provider's name ('paystack'): a metric label and a span attribute. */
  provider: string;
  /** The call's name ('transaction/verify'): a metric label and the span's name; no ids in it. */
  call: string;
  method: THttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: TProviderBody;
  /**
   * A read, safe to ask again after no answer. A GET is one unless it says otherwise; a call that
   * moves money or creates something never is.
   */
  repeatable?: boolean;
  /** How long one try may take; DEFAULT_PROVIDER_TIMEOUT_MS unless the adapter names its own. */
  timeoutMs?: number;
  /** The pauses before a repeatable call is asked again; one try more per pause. */
  retryDelaysMs?: readonly number[];
  /** The setting that holds the key, named when the provider refuses it ('PAYSTACK_SECRET_KEY'). */
  keySetting?: string;
  read(response: TProviderResponse): TProviderReading<TData>;
};

/** How a call ended when it did not throw. */
export type TProviderAnswer<TData> =
  | { outcome: 'answered'; status: number; data: TData }
  | {
      outcome: 'refused';
      status: number;
      reason: string;
      code: string | null;
      data: unknown;
    };

/** How one try ended, as counted: the `outcome` label of oya_provider_http_calls_total. */
export type TProviderCallOutcome = 'answered' | 'refused' | 'no_answer' | 'key_refused';

/** One try of a call, told to the listeners (the app's metrics). */
export type TProviderCallEvent = {
  provider: string;
  call: string;
  method: THttpMethod;
  outcome: TProviderCallOutcome;
  /** The HTTP status, or null when no answer came at all. */
  status: number | null;
  seconds: number;
};

/** The provider did not answer, or answered so that whether it acted is not known. */
export class ProviderNoAnswer extends Error {
  constructor(
    readonly provider: string,
    readonly call: string,
    readonly reason: string,
  ) {
    super(`${provider} gave no answer to ${call}: ${reason}`);
    this.name = 'ProviderNoAnswer';
  }
}

/**
 * The provider refused our key: the configuration is wrong, nothing about the payer. Its answer
 * is kept for the adapter that quotes the provider's words (masked: its message never does).
 */
export class ProviderKeyRefused extends Error {
  constructor(
    readonly provider: string,
    readonly call: string,
    readonly status: number,
    keySetting?: string,
    readonly answer?: TProviderResponse,
  ) {
    super(
      `${provider} refused our key (${status}) on ${call}: check ${keySetting ?? 'its key setting'}`,
    );
    this.name = 'ProviderKeyRefused';
  }
}

/** How long one try may take when the adapter names no limit of its own. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 30_000;

/** The pauses before a read is asked again when the adapter names none. */
export const DEFAULT_READ_RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000];

/** Statuses that say the provider did not look at the call: a timeout, too many, its fault. */
const unlooked = (status: number) => status >= 500 || status === 408 || status === 429;

const listeners = new Set<(event: TProviderCallEvent) => void>();

/**
 * Tells `listener` of every try this process makes, until the returned function is called (an
 * app counts them in its metrics while it is open).
 */
export function onProviderCall(listener: (event: TProviderCallEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function tell(event: TProviderCallEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch {
      // A listener's fault is the metrics', never the call's: the answer stands.
    }
  }
}

/** Why fetch gave up, in words that carry nothing of the request. */
function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  // fetch's own words for any other failure, never the error's message (which may name the URL).
  return `fetch failed${code}`;
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function requestOf<TData>(call: TProviderCall<TData>, timeoutMs: number): RequestInit {
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  let body: string | undefined;
  if (call.body && 'json' in call.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body.json);
  } else if (call.body && 'form' in call.body) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(call.body.form).toString();
  }
  return {
    method: call.method,
    headers,
    ...(body === undefined ? {} : { body }),
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  };
}

/** One try: the provider's answer read, or thrown as no answer or a refused key. */
async function once<TData>(call: TProviderCall<TData>): Promise<TProviderAnswer<TData>> {
  const timeoutMs = call.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  let status: number | null = null;
  const noAnswer = (reason: string) => new ProviderNoAnswer(call.provider, call.call, reason);
  const attributes: Attributes = {
    'oya.provider': call.provider,
    'oya.provider_call': call.call,
    'http.request.method': call.method,
  };
  const started = performance.now();
  let outcome: TProviderCallOutcome = 'no_answer';
  try {
    return await inSpan(`provider-call ${call.provider} ${call.call}`, attributes, async (span) => {
      let response: Response;
      let text: string;
      try {
        response = await fetch(call.url, requestOf(call, timeoutMs));
        status = response.status;
        span.setAttribute('http.response.status_code', status);
        text = await response.text();
      } catch (error) {
        throw noAnswer(failureOf(error, timeoutMs));
      }
      const answer = {
        status: response.status,
        headers: response.headers,
        text,
        json: jsonOf(text),
      };
      if (response.status === 401 || response.status === 403) {
        outcome = 'key_refused';
        throw new ProviderKeyRefused(
          call.provider,
          call.call,
          response.status,
          call.keySetting,
          answer,
        );
      }
      if (response.status >= 300 && response.status < 400) {
        throw noAnswer(`a redirect (HTTP ${response.status}), not followed`);
      }
      if (unlooked(response.status)) throw noAnswer(`HTTP ${response.status}`);
      let reading: TProviderReading<TData>;
      try {
        reading = call.read(answer);
      } catch {
        reading = { outcome: 'unknown', reason: 'an answer its reader could not read' };
      }
      if (reading.outcome === 'unknown') {
        throw noAnswer(`${reading.reason} (HTTP ${response.status})`);
      }
      outcome = reading.outcome;
      span.setAttribute('oya.provider_outcome', outcome);
      return reading.outcome === 'answered'
        ? { outcome: 'answered', status: response.status, data: reading.data }
        : {
            outcome: 'refused',
            status: response.status,
            reason: reading.reason,
            code: reading.code ?? null,
            data: reading.data,
          };
    });
  } finally {
    tell({
      provider: call.provider,
      call: call.call,
      method: call.method,
      outcome,
      status,
      seconds: (performance.now() - started) / 1000,
    });
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one call: answered or refused, else thrown as ProviderNoAnswer (or ProviderKeyRefused). A
 * repeatable call with no answer is asked again after each pause; any other is made once.
 */
export async function callProvider<TData>(
  call: TProviderCall<TData>,
): Promise<TProviderAnswer<TData>> {
  const repeatable = call.repeatable ?? call.method === 'GET';
  const delays = repeatable ? (call.retryDelaysMs ?? DEFAULT_READ_RETRY_DELAYS_MS) : [];
  for (const delay of delays) {
    try {
      return await once(call);
    } catch (error) {
      if (!(error instanceof ProviderNoAnswer)) throw error;
      await pause(delay);
    }
  }
  return once(call);
}

/** What every call of one adapter shares: its provider, host, key headers and limits. */
export type TProviderCallerOptions = {
  provider: string;
  /** The provider's host and any root path ('https://api.paystack.co'). */
  baseUrl: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  retryDelaysMs?: readonly number[];
  keySetting?: string;
};

/** One call of an adapter whose caller knows the host: a path, and a query to add to it. */
export type TProviderCallAt<TData> = Omit<TProviderCall<TData>, 'provider' | 'url'> & {
  path: string;
  query?: Record<string, string | number>;
};

/** An adapter's caller: callProvider with its host, headers and limits filled in. */
export type TProviderCaller = <TData>(
  call: TProviderCallAt<TData>,
) => Promise<TProviderAnswer<TData>>;

export function providerCaller(options: TProviderCallerOptions): TProviderCaller {
  const base = options.baseUrl.replace(/\/+$/, '');
  return ({ path, query, headers, ...call }) => {
    const search = new URLSearchParams(
      Object.entries(query ?? {}).map(([name, value]) => [name, String(value)]),
    ).toString();
    return callProvider({
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
      ...(options.keySetting === undefined ? {} : { keySetting: options.keySetting }),
      ...call,
      provider: options.provider,
      url: `${base}${path}${search ? `?${search}` : ''}`,
      headers: { ...options.headers, ...headers },
    });
  };
}

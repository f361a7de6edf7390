import type { TPaystackEnvelope, TPaystackPageMeta } from './paystack-api';

/*
 * A small client of Paystack's API (global fetch): the secret key as a Bearer token, JSON both
 * ways, and every answer read as Paystack's envelope { status, message, data }.
 *
 * Three ends to a call:
 * - answered: `status` true, with its data;
 * - refused: Paystack answered and did not do it (`status` false, a 4xx): its message says why,
 *   and the adapter maps it (a decline, an unknown account, a duplicate reference);
 * - no answer (PaystackNoAnswer): a timeout, a broken connection, a 5xx or an answer that is not
 *   Paystack's envelope. Whether Paystack acted is not known. A read (GET) is asked again after a
 *   pause; a call that moves money or creates something never is here: the adapter asks Paystack
 *   about its reference instead, and failing that the call's caller leaves its attempt to the
 *   reconciler (docs/payments.md "Reconciliation"), never charging it again under a new reference.
 *
 * A refused key (401, 403) is a configuration fault, thrown as PaystackKeyRefused: never read as
 * a decline of the payer's card.
 */

/** Paystack did not answer, or answered so that whether it acted is not known. */
export class PaystackNoAnswer extends Error {
  constructor(
    readonly call: string,
    reason: string,
  ) {
    super(`Paystack gave no answer to ${call}: ${reason}`);
    this.name = 'PaystackNoAnswer';
  }
}

/** Paystack refused our key: the configuration is wrong, nothing about the payer. */
export class PaystackKeyRefused extends Error {
  constructor(call: string, status: number) {
    super(`Paystack refused the secret key (${status}) on ${call}: check PAYSTACK_SECRET_KEY`);
    this.name = 'PaystackKeyRefused';
  }
}

export type TPaystackAnswer<TData> =
  | { ok: true; data: TData; meta: TPaystackPageMeta | undefined }
  | {
      ok: false;
      httpStatus: number;
      message: string;
      /** Paystack's own code, where it gives one (e.g. 'duplicate_reference'). */
      code: string | null;
      data: unknown;
    };

export type TPaystackClientOptions = {
  secretKey: string;
  baseUrl: string;
  /**
   * How long one call may take. Generous: Paystack's card calls wait on the issuer, and this
   * server shares a small machine; a call past it is an answer lost, asked about by reference.
   */
  timeoutMs?: number;
  /** The pauses before a read (GET) is asked again after no answer; one try more per pause. */
  readRetryDelaysMs?: readonly number[];
};

export type TPaystackClient = ReturnType<typeof paystackClient>;

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_READ_RETRY_DELAYS_MS = [1_000, 3_000];

export function paystackClient(options: TPaystackClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryDelays = options.readRetryDelaysMs ?? DEFAULT_READ_RETRY_DELAYS_MS;

  async function once<TData>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
  ): Promise<TPaystackAnswer<TData>> {
    const call = `${method} ${path.split('?')[0]}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new PaystackNoAnswer(call, error instanceof Error ? error.message : String(error));
    }
    if (response.status === 401 || response.status === 403) {
      throw new PaystackKeyRefused(call, response.status);
    }
    // Too many requests: Paystack did not look at the call, which is no answer (never a refusal
    // that would read as a declined card or an unknown account).
    if (response.status >= 500 || response.status === 429) {
      throw new PaystackNoAnswer(call, `HTTP ${response.status}`);
    }
    const envelope = readEnvelope<TData>(text);
    if (!envelope)
      throw new PaystackNoAnswer(
        call,
        `an answer that is not Paystack's (HTTP ${response.status})`,
      );
    if (envelope.status && response.ok) {
      return { ok: true, data: envelope.data as TData, meta: envelope.meta };
    }
    const { code } = envelope as { code?: unknown };
    return {
      ok: false,
      httpStatus: response.status,
      message: envelope.message,
      code: typeof code === 'string' ? code : null,
      data: envelope.data,
    };
  }

  /** A read: safe to repeat, so asked again after each pause while no answer comes. */
  async function read<TData>(
    path: string,
    query: Record<string, string | number> = {},
  ): Promise<TPaystackAnswer<TData>> {
    const search = new URLSearchParams(
      Object.entries(query).map(([name, value]) => [name, String(value)]),
    ).toString();
    const target = search ? `${path}?${search}` : path;
    for (const delay of retryDelays) {
      try {
        return await once<TData>('GET', target, undefined);
      } catch (error) {
        if (!(error instanceof PaystackNoAnswer)) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    return once<TData>('GET', target, undefined);
  }

  return {
    read,
    /**
     * Every item of a list Paystack answers a page at a time (100 each), in its order; a page that
     * does not answer is thrown as PaystackNoAnswer.
     */
    async *list<TItem>(
      path: string,
      query: Record<string, string | number> = {},
    ): AsyncGenerator<TItem> {
      for (let page = 1; ; page += 1) {
        const answer = await read<TItem[]>(path, { ...query, perPage: 100, page });
        if (!answer.ok) throw new PaystackNoAnswer(`the list ${path}`, answer.message);
        yield* answer.data;
        if (answer.data.length === 0 || page >= (answer.meta?.pageCount ?? page)) return;
      }
    },
    /** A call that acts (moves money, creates): made once; no answer is thrown, never repeated. */
    write<TData>(path: string, body: Record<string, unknown>): Promise<TPaystackAnswer<TData>> {
      return once<TData>('POST', path, body);
    },
  };
}

function readEnvelope<TData>(text: string): TPaystackEnvelope<TData> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (
      parsed !== null &&
      typeof parsed === 'object' &&
      typeof (parsed as { status?: unknown }).status === 'boolean' &&
      typeof (parsed as { message?: unknown }).message === 'string'
    ) {
      return parsed as TPaystackEnvelope<TData>;
    }
    return null;
  } catch {
    return null;
  }
}

/** A path segment, escaped (a reference is ours and plain, but a path is built only one way). */
export const segment = (value: string) => encodeURIComponent(value);

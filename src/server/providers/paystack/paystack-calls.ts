import {
  ProviderNoAnswer,
  providerCaller,
  type TProviderAnswer,
  type TProviderReading,
  type TProviderResponse,
} from '../provider-call';
import type { TPaystackEnvelope, TPaystackPageMeta } from './paystack-api';

/*
 * Paystack's calls as the adapter describes them to the core (provider-call.ts, which runs them
 * and sorts their ends: answered, refused, no answer, a refused key): the secret key as a Bearer
 * token, JSON both ways, and every answer read as Paystack's envelope { status, message, data }.
 *
 * - answered: `status` true on a 2xx, with its data;
 * - refused: Paystack answered and did not do it (`status` false, a 4xx): its message says why,
 *   and the adapter maps it (a decline, an unknown account, a duplicate reference);
 * - no answer (ProviderNoAnswer): whatever the core takes as none, and an answer that is not
 *   Paystack's envelope. A read (GET) is asked again after a pause; a call that moves money or
 *   creates something never is: the adapter asks Paystack about its reference instead, and
 *   failing that the call's caller leaves its attempt to the reconciler (docs/payments.md
 *   "Reconciliation"), never charging it again under a new reference.
 * - a refused key (401, 403): ProviderKeyRefused, never read as a decline of the payer's card.
 */

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

export type TPaystackCallOptions = {
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

/**
 * A path under Paystack's host and the call's name for metrics and spans: the path with each
 * value it names as `*` (references and ids are no label).
 */
export type TPaystackPath = { path: string; call: string };

/** A path with values in it (paystackPath`/charge/${reference}`): each escaped, named `*`. */
export function paystackPath(
  parts: TemplateStringsArray,
  ...values: readonly (string | number)[]
): TPaystackPath {
  let path = parts[0] ?? '';
  let call = path;
  values.forEach((value, index) => {
    const rest = parts[index + 1] ?? '';
    path += encodeURIComponent(String(value)) + rest;
    call += `*${rest}`;
  });
  return { path, call };
}

const pathOf = (path: string | TPaystackPath): TPaystackPath =>
  typeof path === 'string' ? { path, call: path } : path;

export type TPaystackCalls = ReturnType<typeof paystackCalls>;

const DEFAULT_TIMEOUT_MS = 30_000;

/** Paystack's envelope, or no answer: its words were not Paystack's. */
function readEnvelope<TData>(
  response: TProviderResponse,
): TProviderReading<{ data: TData; meta: TPaystackPageMeta | undefined }> {
  const envelope = response.json as Partial<TPaystackEnvelope<TData>> | undefined;
  if (
    envelope === null ||
    typeof envelope !== 'object' ||
    typeof envelope.status !== 'boolean' ||
    typeof envelope.message !== 'string'
  ) {
    return { outcome: 'unknown', reason: "an answer that is not Paystack's" };
  }
  if (envelope.status && response.status < 300) {
    return { outcome: 'answered', data: { data: envelope.data as TData, meta: envelope.meta } };
  }
  const { code } = envelope as { code?: unknown };
  return {
    outcome: 'refused',
    reason: envelope.message,
    code: typeof code === 'string' ? code : null,
    data: envelope.data,
  };
}

function answerOf<TData>(
  answer: TProviderAnswer<{ data: TData; meta: TPaystackPageMeta | undefined }>,
): TPaystackAnswer<TData> {
  return answer.outcome === 'answered'
    ? { ok: true, data: answer.data.data, meta: answer.data.meta }
    : {
        ok: false,
        httpStatus: answer.status,
        message: answer.reason,
        code: answer.code,
        data: answer.data,
      };
}

export function paystackCalls(options: TPaystackCallOptions) {
  const call = providerCaller({
    provider: 'paystack',
    baseUrl: options.baseUrl,
    headers: { authorization: `Bearer ${options.secretKey}` },
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.readRetryDelaysMs ? { retryDelaysMs: options.readRetryDelaysMs } : {}),
    keySetting: 'PAYSTACK_SECRET_KEY',
  });

  /** A read: safe to repeat, so asked again after each pause while no answer comes. */
  async function read<TData>(
    at: string | TPaystackPath,
    query: Record<string, string | number> = {},
  ): Promise<TPaystackAnswer<TData>> {
    const { path, call: name } = pathOf(at);
    return answerOf(
      await call({ call: name, method: 'GET', path, query, read: readEnvelope<TData> }),
    );
  }

  return {
    read,
    /**
     * Every item of a list Paystack answers a page at a time (100 each), in its order; a page that
     * does not answer is thrown as ProviderNoAnswer.
     */
    async *list<TItem>(
      path: string,
      query: Record<string, string | number> = {},
    ): AsyncGenerator<TItem> {
      for (let page = 1; ; page += 1) {
        const answer = await read<TItem[]>(path, { ...query, perPage: 100, page });
        if (!answer.ok) throw new ProviderNoAnswer('paystack', `the list ${path}`, answer.message);
        yield* answer.data;
        if (answer.data.length === 0 || page >= (answer.meta?.pageCount ?? page)) return;
      }
    },
    /** A call that acts (moves money, creates): made once; no answer is thrown, never repeated. */
    async write<TData>(
      at: string | TPaystackPath,
      body: Record<string, unknown>,
    ): Promise<TPaystackAnswer<TData>> {
      const { path, call: name } = pathOf(at);
      return answerOf(
        await call({
          call: name,
          method: 'POST',
          path,
          body: { json: body },
          read: readEnvelope<TData>,
        }),
      );
    },
  };
}

/** Paystack did not answer, or answered so that whether it acted is not known. */
export const paystackNoAnswer = (call: string, reason: string) =>
  new ProviderNoAnswer('paystack', call, reason);

import type { TClock } from '../../clock';
import {
  ProviderKeyRefused,
  ProviderNoAnswer,
  providerCaller,
  type TProviderReading,
  type TProviderResponse,
} from '../provider-call';
import type { TMonnifyEnvelope, TMonnifyLogin } from './monnify-api';

/*
 * Monnify's API as the adapter calls it, on the one provider-call core (provider-call.ts: the
 * timeout, no redirects, metrics and spans, and the triage answered / refused / no answer). This
 * file adds what is Monnify's own:
 *
 * - the login: Basic apiKey:secretKey for an access token, kept and asked for again a minute
 *   before it expires (its `expiresIn`), and once more when Monnify answers 401 to a call (a
 *   token revoked early: Monnify did not look at the call, so it goes again with the new token);
 *   a login refused, or a second 401, is the credentials' (ProviderKeyRefused), never a payer's;
 * - the reading of Monnify's envelope: `requestSuccessful` true is answered, false with a 4xx is
 *   refused (its responseMessage and responseCode say why), anything else is no answer.
 *
 * A call that moves money and gets no answer (ProviderNoAnswer) is never made again here: the
 * adapter asks Monnify about its reference instead, and failing that the reconciler does.
 */

export { ProviderNoAnswer } from '../provider-call';

/** A call the adapter could not settle: thrown as the core's no answer, in Monnify's name. */
export class MonnifyNoAnswer extends ProviderNoAnswer {
  constructor(call: string, reason: string) {
    super('monnify', call, reason);
  }
}

export type TMonnifyAnswer<TBody> =
  { ok: true; body: TBody } | { ok: false; httpStatus: number; message: string; code: string };

export type TMonnifyClientOptions = {
  apiKey: string;
  secretKey: string;
  baseUrl: string;
  clock: TClock;
  /** How long one call may take; past it, the answer is lost and asked about by reference. */
  timeoutMs?: number;
  /** The pauses before a read is asked again after no answer. */
  readRetryDelaysMs?: readonly number[];
};

export type TMonnifyClient = ReturnType<typeof monnifyClient>;

/** A token is asked for again this long before Monnify said it expires. */
const TOKEN_MARGIN_MS = 60_000;

const KEY_SETTING = 'MONNIFY_API_KEY and MONNIFY_SECRET_KEY';

/** Monnify's envelope read: answered, refused, or not Monnify's (no answer). */
function readEnvelope<TBody>(response: TProviderResponse): TProviderReading<TBody> {
  const envelope = response.json as Partial<TMonnifyEnvelope<TBody>> | undefined;
  if (!envelope || typeof envelope.requestSuccessful !== 'boolean') {
    return { outcome: 'unknown', reason: "an answer that is not Monnify's" };
  }
  if (envelope.requestSuccessful && response.status < 300) {
    return { outcome: 'answered', data: envelope.responseBody as TBody };
  }
  return {
    outcome: 'refused',
    reason: envelope.responseMessage ?? 'refused',
    code: String(envelope.responseCode ?? ''),
  };
}

/** The name of a call for metrics and spans: its path, its references left out. */
export const callName = (path: string) =>
  path
    .replace(/^\/api\//, '')
    .replace(/^(v2\/transactions)\/.+$/, '$1/{transactionReference}')
    .replace(/^(v1\/refunds)\/(?!initiate-refund$).+$/, '$1/{refundReference}');

export function monnifyClient(options: TMonnifyClientOptions) {
  const call = providerCaller({
    provider: 'monnify',
    baseUrl: options.baseUrl,
    keySetting: KEY_SETTING,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.readRetryDelaysMs === undefined
      ? {}
      : { retryDelaysMs: options.readRetryDelaysMs }),
  });
  let token: { value: string; until: number } | null = null;
  let loggingIn: Promise<string> | null = null;

  async function login(): Promise<string> {
    const basic = Buffer.from(`${options.apiKey}:${options.secretKey}`).toString('base64');
    // A login moves nothing: asked again after no answer.
    const answer = await call<TMonnifyLogin>({
      call: 'v1/auth/login',
      method: 'POST',
      path: '/api/v1/auth/login',
      headers: { authorization: `Basic ${basic}` },
      repeatable: true,
      read: readEnvelope,
    });
    if (answer.outcome !== 'answered' || !answer.data.accessToken) {
      throw new MonnifyNoAnswer('v1/auth/login', 'no access token');
    }
    token = {
      value: answer.data.accessToken,
      until: options.clock.now().getTime() + answer.data.expiresIn * 1000 - TOKEN_MARGIN_MS,
    };
    return answer.data.accessToken;
  }

  /** The bearer token: the one kept while it has a minute left, else a new one (one login at once). */
  async function bearer(): Promise<string> {
    if (token && token.until > options.clock.now().getTime()) return token.value;
    loggingIn ??= login().finally(() => {
      loggingIn = null;
    });
    return loggingIn;
  }

  /** One call with the bearer: answered or refused, or thrown; a 401 logs in again once. */
  async function send<TBody>(request: {
    method: 'GET' | 'POST';
    path: string;
    query?: Record<string, string | number>;
    body?: Record<string, unknown>;
  }): Promise<TMonnifyAnswer<TBody>> {
    const attempt = async () =>
      call<TBody>({
        call: callName(request.path),
        method: request.method,
        path: request.path,
        ...(request.query ? { query: request.query } : {}),
        ...(request.body ? { body: { json: request.body } } : {}),
        headers: { authorization: `Bearer ${await bearer()}` },
        read: readEnvelope,
      });
    let answer;
    try {
      answer = await attempt();
    } catch (error) {
      if (!(error instanceof ProviderKeyRefused) || error.status !== 401) throw error;
      token = null;
      answer = await attempt();
    }
    if (answer.outcome === 'answered') return { ok: true, body: answer.data };
    return {
      ok: false,
      httpStatus: answer.status,
      message: answer.reason,
      code: answer.code ?? '',
    };
  }

  return {
    /** A read: the core asks it again after each pause while no answer comes. */
    read<TBody>(path: string, query?: Record<string, string | number>) {
      return send<TBody>({ method: 'GET', path, ...(query ? { query } : {}) });
    },
    /** A call that acts: made once; no answer is thrown, never repeated here. */
    write<TBody>(path: string, body: Record<string, unknown>) {
      return send<TBody>({ method: 'POST', path, body });
    },
    /** Every item of a list Monnify answers a page at a time, from page 0. */
    async *list<TItem>(
      path: string,
      query: Record<string, string | number>,
      names: { page: string; size: string } = { page: 'page', size: 'size' },
    ): AsyncGenerator<TItem> {
      for (let page = 0; ; page += 1) {
        const answer = await send<{ content: TItem[]; last?: boolean }>({
          method: 'GET',
          path,
          query: { ...query, [names.page]: page, [names.size]: 100 },
        });
        if (!answer.ok) throw new MonnifyNoAnswer(`the list ${callName(path)}`, answer.message);
        yield* answer.body.content;
        if (answer.body.last !== false || answer.body.content.length === 0) return;
      }
    },
  };
}

/** A path segment, escaped: Monnify's references carry '|'. */
export const segment = (value: string) => encodeURIComponent(value);

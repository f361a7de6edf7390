import type { TClock } from '../../clock';
import type { TMonnifyEnvelope, TMonnifyLogin } from './monnify-api';

/*
 * A small client of Monnify's API (global fetch): logged in with Basic apiKey:secretKey for an
 * access token, which it keeps and asks for again a minute before it expires, and once more when
 * Monnify answers 401 (a token revoked early); every answer read as Monnify's envelope.
 *
 * Three ends to a call (the money-safety triage):
 * - answered: `requestSuccessful` true, with its body;
 * - refused: Monnify answered and did not do it (a 4xx, `requestSuccessful` false): its message
 *   and code say why, and the adapter maps them;
 * - no answer (MonnifyNoAnswer): a timeout, a broken connection, a 5xx or 429, or an answer that
 *   is not Monnify's envelope. Whether Monnify acted is not known: a read (GET) is asked again
 *   after a pause; a call that moves money never is here: the adapter asks Monnify about our
 *   reference instead, and failing that leaves the attempt to the reconciler.
 * Refused credentials (the login itself answers 401) are a configuration fault, thrown as
 * MonnifyKeyRefused: never read as a payer's refusal.
 */

export class MonnifyNoAnswer extends Error {
  constructor(
    readonly call: string,
    reason: string,
  ) {
    super(`Monnify gave no answer to ${call}: ${reason}`);
    this.name = 'MonnifyNoAnswer';
  }
}

export class MonnifyKeyRefused extends Error {
  constructor(call: string) {
    super(
      `Monnify refused the API key and secret on ${call}: check MONNIFY_API_KEY and MONNIFY_SECRET_KEY`,
    );
    this.name = 'MonnifyKeyRefused';
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

/** A described call: what the adapter asks, before the client runs it. */
export type TMonnifyRequest = {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
};

function readEnvelope<TBody>(text: string): TMonnifyEnvelope<TBody> | null {
  try {
    const parsed = JSON.parse(text) as Partial<TMonnifyEnvelope<TBody>> | null;
    if (parsed && typeof parsed.requestSuccessful === 'boolean') {
      return parsed as TMonnifyEnvelope<TBody>;
    }
    return null;
  } catch {
    return null;
  }
}

export function monnifyClient(options: TMonnifyClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retryDelays = options.readRetryDelaysMs ?? [1_000, 3_000];
  let token: { value: string; until: number } | null = null;
  let loggingIn: Promise<string> | null = null;

  async function send(request: TMonnifyRequest, authorization: string) {
    const search = new URLSearchParams(
      Object.entries(request.query ?? {}).map(([name, value]) => [name, String(value)]),
    ).toString();
    const call = `${request.method} ${request.path}`;
    try {
      const response = await fetch(`${baseUrl}${request.path}${search ? `?${search}` : ''}`, {
        method: request.method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(request.body ? { 'content-type': 'application/json' } : {}),
        },
        ...(request.body ? { body: JSON.stringify(request.body) } : {}),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { call, status: response.status, text: await response.text() };
    } catch (error) {
      throw new MonnifyNoAnswer(call, error instanceof Error ? error.message : String(error));
    }
  }

  async function login(): Promise<string> {
    const basic = Buffer.from(`${options.apiKey}:${options.secretKey}`).toString('base64');
    const { call, status, text } = await send(
      { method: 'POST', path: '/api/v1/auth/login' },
      `Basic ${basic}`,
    );
    if (status === 401 || status === 403) throw new MonnifyKeyRefused(call);
    const envelope = readEnvelope<TMonnifyLogin>(text);
    const body = envelope?.requestSuccessful ? envelope.responseBody : undefined;
    if (!body?.accessToken) throw new MonnifyNoAnswer(call, `no access token (HTTP ${status})`);
    token = {
      value: body.accessToken,
      until: options.clock.now().getTime() + body.expiresIn * 1000 - TOKEN_MARGIN_MS,
    };
    return body.accessToken;
  }

  /** The bearer token: the one kept while it has a minute left, else a new one (one login at once). */
  async function bearer(): Promise<string> {
    if (token && token.until > options.clock.now().getTime()) return token.value;
    loggingIn ??= login().finally(() => {
      loggingIn = null;
    });
    return loggingIn;
  }

  /** One call: answered or refused, or thrown as no answer; a 401 logs in again once. */
  async function once<TBody>(request: TMonnifyRequest): Promise<TMonnifyAnswer<TBody>> {
    let sent = await send(request, `Bearer ${await bearer()}`);
    if (sent.status === 401) {
      // The token was refused before Monnify looked at the call: nothing happened, so the call
      // goes again with a new one. A second refusal is the credentials'.
      token = null;
      sent = await send(request, `Bearer ${await bearer()}`);
      if (sent.status === 401) throw new MonnifyKeyRefused(sent.call);
    }
    if (sent.status >= 500 || sent.status === 429) {
      throw new MonnifyNoAnswer(sent.call, `HTTP ${sent.status}`);
    }
    const envelope = readEnvelope<TBody>(sent.text);
    if (!envelope) {
      throw new MonnifyNoAnswer(sent.call, `an answer that is not Monnify's (HTTP ${sent.status})`);
    }
    if (envelope.requestSuccessful && sent.status < 300) {
      return { ok: true, body: envelope.responseBody as TBody };
    }
    return {
      ok: false,
      httpStatus: sent.status,
      message: envelope.responseMessage,
      code: String(envelope.responseCode),
    };
  }

  return {
    /** A read: safe to repeat, so asked again after each pause while no answer comes. */
    async read<TBody>(path: string, query?: Record<string, string | number>) {
      const request: TMonnifyRequest = { method: 'GET', path, ...(query ? { query } : {}) };
      for (const delay of retryDelays) {
        try {
          return await once<TBody>(request);
        } catch (error) {
          if (!(error instanceof MonnifyNoAnswer)) throw error;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
      return once<TBody>(request);
    },
    /** A call that acts: made once; no answer is thrown, never repeated here. */
    write<TBody>(path: string, body: Record<string, unknown>) {
      return once<TBody>({ method: 'POST', path, body });
    },
    /** Every item of a list Monnify answers a page at a time, from page 0. */
    async *list<TItem>(
      path: string,
      query: Record<string, string | number>,
      names: { page: string; size: string } = { page: 'page', size: 'size' },
    ): AsyncGenerator<TItem> {
      for (let page = 0; ; page += 1) {
        const answer = await this.read<{ content: TItem[]; last?: boolean }>(path, {
          ...query,
          [names.page]: page,
          [names.size]: 100,
        });
        if (!answer.ok) throw new MonnifyNoAnswer(`the list ${path}`, answer.message);
        yield* answer.body.content;
        if (answer.body.last !== false || answer.body.content.length === 0) return;
      }
    },
  };
}

/** A path segment, escaped: Monnify's references carry '|'. */
export const segment = (value: string) => encodeURIComponent(value);

/*
 * A small client of Termii's Messaging API, written from Termii's developer docs ("Messaging API",
 * "Error"): one call, `POST {baseUrl}/api/sms/send`, JSON both ways. Termii takes the API key in
 * the JSON body (`api_key`) and nowhere else on this call: it is never put in the URL or a header,
 * and no message this client makes carries it (an answer that echoes it has it masked).
 *
 * Three ends to a call:
 * - accepted: a 2xx answer with Termii's `message_id` (with `message`, `balance`, `user`);
 * - refused: a 4xx (a wrong key, an unknown sender ID, a route not set up, no balance, a number
 *   Termii does not take): Termii looked at the message and will not send it;
 * - no answer: a timeout, a broken connection, a 5xx, a 408 or 429 (Termii did not look at it), or
 *   an answer that is not Termii's. Whether the message went is not known.
 */

/** One plain SMS as Termii's Messaging API takes it. */
export type TTermiiSms = {
  /** The number in international format without '+' (2348031234567). */
  to: string;
  /** The sender ID registered with Termii. */
  from: string;
  sms: string;
  /** 'dnd' reaches numbers on Do-Not-Disturb (transactional); 'generic' is promotional. */
  channel: 'dnd' | 'generic';
};

export type TTermiiAnswer =
  | { outcome: 'accepted'; messageId: string }
  | { outcome: 'refused'; httpStatus: number; message: string }
  | { outcome: 'no-answer'; reason: string };

export type TTermiiClientOptions = {
  apiKey: string;
  baseUrl: string;
  /** How long the call may take (TERMII_TIMEOUT_MS unless a test names less). */
  timeoutMs?: number;
};

/**
 * How long one call to Termii may take. The engine runs a fetch of SMS jobs one after another
 * within the kind's 60 s expiry (jobs/engine.ts JOBS_PER_FETCH, five), and a payer waits on the
 * first try of a code (jobs.nudge, 10 s): a slow answer is taken as none and tried again later.
 */
export const TERMII_TIMEOUT_MS = 10_000;

/** The longest piece of Termii's own words a message of ours carries. */
const MAX_QUOTED = 200;

/** Sends one SMS through Termii and says how the call ended; never throws. */
export async function sendTermiiSms(
  options: TTermiiClientOptions,
  message: TTermiiSms,
): Promise<TTermiiAnswer> {
  const timeoutMs = options.timeoutMs ?? TERMII_TIMEOUT_MS;
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/api/sms/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ...message, type: 'plain', api_key: options.apiKey }),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    return { outcome: 'no-answer', reason: failureOf(error, timeoutMs) };
  }
  const body = parsed(text);
  const quote = (words: string) => masked(words, options.apiKey).slice(0, MAX_QUOTED);
  if (response.status >= 500 || response.status === 408 || response.status === 429) {
    return { outcome: 'no-answer', reason: `HTTP ${response.status}` };
  }
  if (response.status >= 400) {
    const said = typeof body?.message === 'string' ? body.message : '';
    return { outcome: 'refused', httpStatus: response.status, message: quote(said) };
  }
  const messageId = body?.message_id;
  if (response.ok && (typeof messageId === 'string' || typeof messageId === 'number')) {
    return { outcome: 'accepted', messageId: String(messageId) };
  }
  return {
    outcome: 'no-answer',
    reason: `an answer that is not Termii's (HTTP ${response.status})`,
  };
}

/** Why fetch gave up, in words that carry nothing of the request. */
function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return `${error instanceof Error ? error.message : String(error)}${code}`;
}

function parsed(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `text` with the API key, should Termii ever echo it, masked. */
const masked = (text: string, apiKey: string) =>
  apiKey === '' ? text : text.split(apiKey).join('[api_key]');

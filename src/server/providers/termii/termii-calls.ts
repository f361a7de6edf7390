import {
  callProvider,
  ProviderKeyRefused,
  ProviderNoAnswer,
  type TProviderReading,
  type TProviderResponse,
} from '../provider-call';

/*
 * Termii's Messaging API as the adapter describes it to the core (provider-call.ts, which runs
 * the call), written from Termii's developer docs ("Messaging API", "Error"): one call,
 * `POST {baseUrl}/api/sms/send`, JSON both ways. Termii takes the API key in
 * the JSON body (`api_key`) and nowhere else on this call: it is never put in the URL or a header,
 * and no message made here carries it (an answer that echoes it has it masked).
 *
 * Three ends to a call:
 * - accepted: a 2xx answer with Termii's `message_id` (with `message`, `balance`, `user`);
 * - refused: a 4xx (a wrong key, an unknown sender ID, a route not set up, no balance, a number
 *   Termii does not take): Termii looked at the message and will not send it; a refused key
 *   (401, 403), which the core throws as ProviderKeyRefused, is answered as a refusal here;
 * - no answer: whatever the core takes as none (a timeout, a broken connection, a redirect, a
 *   5xx, a 408 or 429), or an answer that is not Termii's. Whether the message went is not known.
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

export type TTermiiCallOptions = {
  apiKey: string;
  baseUrl: string;
  /** How long the call may take (TERMII_TIMEOUT_MS unless a test names less). */
  timeoutMs?: number;
};

/**
 * How long one call to Termii may take. The engine runs a fetch of SMS jobs one after another
 * within the kind's expiry, 60 s for each provider of SMS_PROVIDERS (jobs/engine.ts JOBS_PER_FETCH,
 * five), and a payer waits on the first try of a code (jobs.nudge, 10 s): a slow answer is taken
 * as none, and the message goes to the next provider or is tried again later.
 */
export const TERMII_TIMEOUT_MS = 10_000;

/** The longest piece of Termii's own words a message of ours carries. */
const MAX_QUOTED = 200;

/** Termii's answer: a 2xx with its message_id, a 4xx its refusal, anything else none. */
const readSend =
  (apiKey: string) =>
  (response: TProviderResponse): TProviderReading<string> => {
    const body = record(response.json);
    if (response.status >= 400) return { outcome: 'refused', reason: saidBy(body, apiKey) };
    const messageId = body?.message_id;
    if (typeof messageId === 'string' || typeof messageId === 'number') {
      return { outcome: 'answered', data: String(messageId) };
    }
    return { outcome: 'unknown', reason: "an answer that is not Termii's" };
  };

/** Sends one SMS through Termii and says how the call ended; never throws. */
export async function sendTermiiSms(
  options: TTermiiCallOptions,
  message: TTermiiSms,
): Promise<TTermiiAnswer> {
  try {
    const answer = await callProvider({
      provider: 'termii',
      call: 'sms/send',
      method: 'POST',
      url: `${options.baseUrl.replace(/\/+$/, '')}/api/sms/send`,
      body: { json: { ...message, type: 'plain', api_key: options.apiKey } },
      timeoutMs: options.timeoutMs ?? TERMII_TIMEOUT_MS,
      read: readSend(options.apiKey),
    });
    return answer.outcome === 'answered'
      ? { outcome: 'accepted', messageId: answer.data }
      : { outcome: 'refused', httpStatus: answer.status, message: answer.reason };
  } catch (error) {
    if (error instanceof ProviderNoAnswer) return { outcome: 'no-answer', reason: error.reason };
    // A refused key is Termii's refusal too: the sender says whose fault it is.
    if (error instanceof ProviderKeyRefused) {
      const said = saidBy(record(error.answer?.json), options.apiKey);
      return { outcome: 'refused', httpStatus: error.status, message: said };
    }
    throw error;
  }
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

/** Termii's own words in an answer, the API key masked should Termii ever echo it. */
function saidBy(body: Record<string, unknown> | null, apiKey: string): string {
  const said = typeof body?.message === 'string' ? body.message : '';
  return (apiKey === '' ? said : said.split(apiKey).join('[api_key]')).slice(0, MAX_QUOTED);
}

import type { TProviderCall, TProviderReading, TProviderResponse } from '../provider-call';

/*
 * Africa's Talking's SMS API as this server uses it, written from Africa's Talking's developer
 * docs ("SMS > Sending": the endpoint, its form fields and the per-recipient `statusCode`s;
 * "SMS > Notifications": DoNotDisturbRejection answered as HTTP 409) and its official Node SDK
 * (AfricasTalkingLtd/africastalking-node.js lib/sms.js: a form-encoded body, the `apiKey` header,
 * 201 Created on success). One call, `POST {baseUrl}/version1/messaging`.
 *
 * The adapter describes the call (messagingCall: its request, and readMessagingAnswer, its
 * reader); the provider-call helper runs it (its time limit, no redirect, its span and count, its
 * triage). Both are pure and tested without HTTP.
 *
 * Africa's Talking does not say success or failure by the HTTP status: it answers each recipient
 * with a `statusCode` in `SMSMessageData.Recipients[]`, so the body is read first, and the HTTP
 * status only where the body names no recipient. What each code means to us:
 *
 * | statusCode | Africa's Talking's name | Ours                                                    |
 * | ---------- | ----------------------- | ------------------------------------------------------- |
 * | 100        | Processed               | sent: taken, to be sent                                 |
 * | 101        | Sent                    | sent                                                    |
 * | 102        | Queued                  | sent: taken, queued for the network                     |
 * | 401        | RiskHold                | refused, the service's (the account is held for review) |
 * | 402        | InvalidSenderId         | refused, the service's (AFRICASTALKING_SENDER_ID)       |
 * | 403        | InvalidPhoneNumber      | refused, the number's                                   |
 * | 404        | UnsupportedNumberType   | refused, the number's (a landline, a number it cannot)  |
 * | 405        | InsufficientBalance     | refused, the service's (top the account up)             |
 * | 406        | UserInBlacklist         | refused, the number's (its owner opted out of ours)     |
 * | 407        | CouldNotRoute           | refused, the number's (no route to its network)         |
 * | 409        | DoNotDisturbRejection   | refused, the service's (a promotional sender at night)  |
 * | 500        | InternalServerError     | no answer: Africa's Talking's own failure, retried      |
 * | 501        | GatewayError            | no answer: the gateway failed, retried                  |
 * | 502        | RejectedByGateway       | refused, the service's (the network refused the text)   |
 * | another    | (not documented)        | no answer: whether it went is not known, retried        |
 *
 * Without a recipient to read: HTTP 401 or 403 (Africa's Talking's "The supplied authentication is
 * invalid": the username or key) is the provider-call helper's ProviderKeyRefused; a 5xx, 408,
 * 429, a timeout, a broken connection or a redirect its ProviderNoAnswer; any other 4xx is a
 * refusal, and a 2xx that is not Africa's Talking's answer no answer. An HTTP 5xx is no answer
 * even where its body would name a recipient: a message whose refusal was lost so is sent again,
 * which sends nothing twice. The API key travels in the `apiKey` header only, and no message of
 * ours carries it.
 */

/** Where and as whom the adapter calls Africa's Talking (the AFRICASTALKING_* settings). */
export type TAfricasTalkingOptions = {
  /** The application's username ('sandbox' for the sandbox app). */
  username: string;
  apiKey: string;
  /** The registered alphanumeric sender ID or short code (`from`). */
  senderId: string;
  /** https://api.africastalking.com, its sandbox's host, or a simulator. */
  baseUrl: string;
  /** How long the call may take (AFRICASTALKING_TIMEOUT_MS unless a test names less). */
  timeoutMs?: number;
};

/**
 * How long one call may take: as Termii's (termii-client.ts TERMII_TIMEOUT_MS), the engine sends
 * a fetch of SMS jobs one after another within the kind's expiry, and a payer waits on the first
 * try of a code; a slow answer is taken as none and tried again later.
 */
export const AFRICASTALKING_TIMEOUT_MS = 10_000;

/** The messaging endpoint's path under the base URL. */
export const MESSAGING_PATH = '/version1/messaging';

/** What the answer says of a message Africa's Talking took. */
export type TMessageSent = { messageId: string };

type TStatusMeaning =
  { ends: 'sent' } | { ends: 'refused'; fault: 'number' | 'service' } | { ends: 'no-answer' };

/** Each documented `statusCode`: its name, and what it means to us (the table above). */
export const RECIPIENT_STATUSES: Readonly<Record<number, { name: string } & TStatusMeaning>> = {
  100: { name: 'Processed', ends: 'sent' },
  101: { name: 'Sent', ends: 'sent' },
  102: { name: 'Queued', ends: 'sent' },
  401: { name: 'RiskHold', ends: 'refused', fault: 'service' },
  402: { name: 'InvalidSenderId', ends: 'refused', fault: 'service' },
  403: { name: 'InvalidPhoneNumber', ends: 'refused', fault: 'number' },
  404: { name: 'UnsupportedNumberType', ends: 'refused', fault: 'number' },
  405: { name: 'InsufficientBalance', ends: 'refused', fault: 'service' },
  406: { name: 'UserInBlacklist', ends: 'refused', fault: 'number' },
  407: { name: 'CouldNotRoute', ends: 'refused', fault: 'number' },
  409: { name: 'DoNotDisturbRejection', ends: 'refused', fault: 'service' },
  500: { name: 'InternalServerError', ends: 'no-answer' },
  501: { name: 'GatewayError', ends: 'no-answer' },
  502: { name: 'RejectedByGateway', ends: 'refused', fault: 'service' },
};

/** The longest piece of Africa's Talking's own words a message of ours carries. */
const MAX_QUOTED = 200;

/**
 * The call that sends `message` to `to` (E.164, '+' and digits, as Africa's Talking takes it):
 * sent (answered), refused with the recipient's `statusCode` as its code, or thrown by the
 * provider-call helper.
 */
export function messagingCall(
  options: TAfricasTalkingOptions,
  to: string,
  message: string,
): TProviderCall<TMessageSent> {
  return {
    provider: 'africastalking',
    call: 'messaging',
    method: 'POST',
    url: `${options.baseUrl.replace(/\/+$/, '')}${MESSAGING_PATH}`,
    headers: { apiKey: options.apiKey, accept: 'application/json' },
    body: { form: { username: options.username, to, message, from: options.senderId } },
    // It sends a message: never asked again by the helper (the job decides).
    repeatable: false,
    timeoutMs: options.timeoutMs ?? AFRICASTALKING_TIMEOUT_MS,
    keySetting: 'AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY',
    read: (response) => readMessagingAnswer(response, to, options.apiKey),
  };
}

type TRecipient = { statusCode?: unknown; status?: unknown; number?: unknown; messageId?: unknown };

/** What the answer says of the message to `to`; `apiKey` is masked should the answer echo it. */
export function readMessagingAnswer(
  answer: Pick<TProviderResponse, 'status' | 'text'>,
  to: string,
  apiKey: string,
): TProviderReading<TMessageSent> {
  const recipients = recipientsOf(answer.text);
  const recipient = recipients?.find((r) => r.number === to) ?? recipients?.[0];
  if (recipient) return readRecipient(recipient);
  const { status } = answer;
  if (recipients && status >= 200 && status < 300) {
    // Answered, and sent to no one ("Sent to 0/1"): it would not be sent again either.
    return { outcome: 'refused', reason: 'sent the message to no one', code: null };
  }
  if (status >= 400 && status < 500) {
    const said = masked(answer.text.trim(), apiKey).slice(0, MAX_QUOTED);
    return {
      outcome: 'refused',
      reason: `refused the message (HTTP ${status}${said ? `: ${said}` : ''})`,
      code: null,
    };
  }
  return { outcome: 'unknown', reason: "an answer that is not Africa's Talking's" };
}

/** Whose a refusal is: the number's for the codes that say so, else the service's. */
export function faultOf(code: string | null): 'number' | 'service' {
  const meaning = code === null ? undefined : RECIPIENT_STATUSES[Number(code)];
  return meaning?.ends === 'refused' ? meaning.fault : 'service';
}

function readRecipient(recipient: TRecipient): TProviderReading<TMessageSent> {
  const code = typeof recipient.statusCode === 'number' ? recipient.statusCode : Number.NaN;
  const meaning = RECIPIENT_STATUSES[code];
  if (!meaning) {
    return { outcome: 'unknown', reason: `a status it does not document (statusCode ${code})` };
  }
  const named = `statusCode ${code}: ${meaning.name}`;
  switch (meaning.ends) {
    case 'sent': {
      const messageId = typeof recipient.messageId === 'string' ? recipient.messageId : '';
      return { outcome: 'answered', data: { messageId } };
    }
    case 'refused':
      return { outcome: 'refused', reason: `refused the message (${named})`, code: String(code) };
    case 'no-answer':
      return { outcome: 'unknown', reason: named };
  }
}

/** The recipients of an answer that is Africa's Talking's; null for any other body. */
function recipientsOf(text: string): TRecipient[] | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const data = (body as { SMSMessageData?: { Recipients?: unknown } } | null)?.SMSMessageData;
  if (!data || !Array.isArray(data.Recipients)) return null;
  return data.Recipients.filter(
    (r): r is TRecipient => r !== null && typeof r === 'object' && !Array.isArray(r),
  );
}

/** `text` with the API key, should Africa's Talking ever echo it, masked. */
const masked = (text: string, apiKey: string) =>
  apiKey === '' ? text : text.split(apiKey).join('[apiKey]');

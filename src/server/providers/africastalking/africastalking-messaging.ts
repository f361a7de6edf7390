/*
 * Africa's Talking's SMS API as this server uses it, written from Africa's Talking's developer
 * docs ("SMS > Sending": the endpoint, its form fields and the per-recipient `statusCode`s;
 * "SMS > Notifications": DoNotDisturbRejection answered as HTTP 409) and its official Node SDK
 * (AfricasTalkingLtd/africastalking-node.js lib/sms.js: a form-encoded body, the `apiKey` header,
 * 201 Created on success). One call, `POST {baseUrl}/version1/messaging`.
 *
 * The adapter describes the call (messagingRequest) and reads its answer (readMessagingAnswer);
 * both are pure and tested without HTTP. Running the call is callAfricasTalking's alone.
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
 * Without a recipient to read: HTTP 401 (Africa's Talking's "The supplied authentication is
 * invalid": the username or key) and any other 4xx are refusals; a 5xx, 408, 429, a timeout, a
 * broken connection or a 2xx that is not Africa's Talking's answer are no answer. The API key
 * travels in the `apiKey` header only, and no message of ours carries it.
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

/** A call described: what callAfricasTalking (or the provider-call helper) sends. */
export type TAfricasTalkingRequest = {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  /** application/x-www-form-urlencoded. */
  body: string;
};

/** An answer as it came: its HTTP status and its body's text. */
export type TAfricasTalkingAnswer = { status: number; text: string };

/**
 * What the answer said of our one message. A refusal's `reason` follows "Africa's Talking …"
 * ('refused the message (statusCode 405: InsufficientBalance)'); no answer's says why none.
 */
export type TMessagingReading =
  | { outcome: 'sent'; messageId: string }
  | { outcome: 'refused'; reason: string; fault: 'number' | 'service' }
  | { outcome: 'no-answer'; reason: string };

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

/** The call that sends `message` to `to` (E.164, '+' and digits, as Africa's Talking takes it). */
export function messagingRequest(
  options: Pick<TAfricasTalkingOptions, 'username' | 'apiKey' | 'senderId' | 'baseUrl'>,
  to: string,
  message: string,
): TAfricasTalkingRequest {
  const body = new URLSearchParams({
    username: options.username,
    to,
    message,
    from: options.senderId,
  });
  return {
    method: 'POST',
    url: `${options.baseUrl.replace(/\/+$/, '')}${MESSAGING_PATH}`,
    headers: {
      apiKey: options.apiKey,
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: body.toString(),
  };
}

type TRecipient = { statusCode?: unknown; status?: unknown; number?: unknown; messageId?: unknown };

/** What the answer says of the message to `to`; `apiKey` is masked should the answer echo it. */
export function readMessagingAnswer(
  answer: TAfricasTalkingAnswer,
  to: string,
  apiKey: string,
): TMessagingReading {
  const quote = (words: string) => masked(words, apiKey).slice(0, MAX_QUOTED);
  const recipients = recipientsOf(answer.text);
  const recipient = recipients?.find((r) => r.number === to) ?? recipients?.[0];
  if (recipient) return readRecipient(recipient);
  if (recipients && answer.status >= 200 && answer.status < 300) {
    // Answered, and sent to no one ("Sent to 0/1"): it would not be sent again either.
    return { outcome: 'refused', reason: 'sent the message to no one', fault: 'service' };
  }
  const { status } = answer;
  if (status >= 500 || status === 408 || status === 429) {
    return { outcome: 'no-answer', reason: `HTTP ${status}` };
  }
  if (status === 401 || status === 403) {
    const said = quote(answer.text.trim());
    return {
      outcome: 'refused',
      reason: `refused the username or API key (HTTP ${status}${said ? `: ${said}` : ''}): check AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY`,
      fault: 'service',
    };
  }
  if (status >= 400) {
    const said = quote(answer.text.trim());
    return {
      outcome: 'refused',
      reason: `refused the message (HTTP ${status}${said ? `: ${said}` : ''})`,
      fault: 'service',
    };
  }
  return {
    outcome: 'no-answer',
    reason: `an answer that is not Africa's Talking's (HTTP ${status})`,
  };
}

function readRecipient(recipient: TRecipient): TMessagingReading {
  const code = typeof recipient.statusCode === 'number' ? recipient.statusCode : Number.NaN;
  const meaning = RECIPIENT_STATUSES[code];
  if (!meaning) {
    return { outcome: 'no-answer', reason: `a status it does not document (statusCode ${code})` };
  }
  const named = `statusCode ${code}: ${meaning.name}`;
  switch (meaning.ends) {
    case 'sent':
      return {
        outcome: 'sent',
        messageId: typeof recipient.messageId === 'string' ? recipient.messageId : '',
      };
    case 'refused':
      return { outcome: 'refused', reason: `refused the message (${named})`, fault: meaning.fault };
    case 'no-answer':
      return { outcome: 'no-answer', reason: named };
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

/**
 * Runs a described call: its answer, or why none came (in words that carry nothing of the
 * request). No redirect is followed: a redirect would carry the key elsewhere.
 */
export async function callAfricasTalking(
  request: TAfricasTalkingRequest,
  timeoutMs = AFRICASTALKING_TIMEOUT_MS,
): Promise<TAfricasTalkingAnswer | { failed: string }> {
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') {
      return { failed: `no answer within ${timeoutMs} ms` };
    }
    const cause =
      error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
    const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
    return { failed: `${error instanceof Error ? error.message : String(error)}${code}` };
  }
}

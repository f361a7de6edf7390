import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, headersOf, listenLocally, readBody } from '../simulator-http';

/**
 * An Africa's Talking stand-in for tests and local runs, written from Africa's Talking's
 * developer docs: "SMS > Sending" (POST /version1/messaging with the form fields `username`,
 * `to` (comma-separated), `message`, `from`; the `apiKey` and `Accept` headers; the answer's
 * `SMSMessageData.Message` and `Recipients[]` of `statusCode`, `number`, `status`, `cost`,
 * `messageId`, and the documented status codes), "SMS > Notifications" (DoNotDisturbRejection
 * answered with HTTP 409 and its example body), its official Node SDK
 * (AfricasTalkingLtd/africastalking-node.js lib/sms.js: 201 Created on success) and its help
 * centre ("The supplied authentication is invalid", HTTP 401). State lives in memory and dies
 * with close(). README.md beside this file lists what it answers and where the docs are silent.
 */

export type TAfricasTalkingSimulatorOptions = {
  /** The application's username it accepts (Africa's Talking's sandbox app is 'sandbox'). */
  username?: string;
  /** The API key it accepts. */
  apiKey?: string;
  /** The sender IDs registered on the account; the first is `senderId`. */
  senderIds?: string[];
  /** The account's balance, in kobo; each message costs MESSAGE_COST_KOBO. */
  balanceKobo?: number;
  /** Numbers whose owners opted out of the account's messages (406 UserInBlacklist). */
  blacklist?: string[];
  port?: number;
  /** Told of each message it sends (main.ts prints it: the only phone a local run has). */
  onMessage?: (message: TAfricasTalkingMessage) => void;
};

/** One message it sent, to one recipient. */
export type TAfricasTalkingMessage = {
  messageId: string;
  to: string;
  from: string;
  message: string;
};

export type TAfricasTalkingSimulator = {
  /** e.g. http://127.0.0.1:PORT (AFRICASTALKING_BASE_URL). */
  url: string;
  username: string;
  apiKey: string;
  /** The first registered sender ID (AFRICASTALKING_SENDER_ID). */
  senderId: string;
  /** Every request: method, path with its query, headers, and its form fields (else raw text). */
  requests: Array<{
    method: string;
    path: string;
    headers: Record<string, string>;
    body: Record<string, string> | string;
  }>;
  /** Every message it sent, one per recipient, oldest first. */
  messages: TAfricasTalkingMessage[];
  /** The next request's recipients are each answered `statusCode`, and nothing is sent. */
  refuseNext(statusCode: number): void;
  /** The next request answers `status` (a 5xx) with a text body, without effect. */
  failNext(status: number): void;
  /** The next request is never answered: its socket stays open until close(). */
  hangNext(): void;
  /** The next request takes effect, and its socket is destroyed unanswered. */
  loseNextAnswer(): void;
  close(): Promise<void>;
};

/** What each message costs, in kobo (₦2.20; Africa's Talking's price depends on the network). */
export const MESSAGE_COST_KOBO = 220;

const DEFAULT_USERNAME = 'sandbox';
const DEFAULT_API_KEY = 'atsk_simulator_api_key';
const DEFAULT_SENDER_IDS = ['OyaMoney'];

/** The documented per-recipient codes and their names ("SMS > Sending"). */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  100: 'Processed',
  101: 'Success',
  102: 'Queued',
  401: 'RiskHold',
  402: 'InvalidSenderId',
  403: 'InvalidPhoneNumber',
  404: 'UnsupportedNumberType',
  405: 'InsufficientBalance',
  406: 'UserInBlacklist',
  407: 'CouldNotRoute',
  409: 'DoNotDisturbRejection',
  500: 'InternalServerError',
  501: 'GatewayError',
  502: 'RejectedByGateway',
};

type TAnswer = { status: number; type: 'json' | 'text'; body: unknown };
type TMishap =
  | { kind: 'refuse'; statusCode: number }
  | { kind: 'fail'; status: number }
  | { kind: 'hang' | 'lose' };

/** The account's state and what the test controls set. */
type TDesk = {
  username: string;
  apiKey: string;
  senderIds: string[];
  balanceKobo: number;
  blacklist: Set<string>;
  messages: TAfricasTalkingMessage[];
  mishaps: TMishap[];
  nextId: number;
  onMessage: (message: TAfricasTalkingMessage) => void;
};

const text = (status: number, words: string): TAnswer => ({ status, type: 'text', body: words });
const naira = (kobo: number) => `NGN ${(kobo / 100).toFixed(4)}`;

type TRecipient = {
  statusCode: number;
  number: string;
  status: string;
  cost: string;
  messageId: string;
};

/** A recipient not sent to: its code, no cost, no message id (the docs' example: "None"). */
const unsent = (number: string, statusCode: number): TRecipient => ({
  statusCode,
  number,
  status: STATUS_NAMES[statusCode] ?? 'Failed',
  cost: '0',
  messageId: 'None',
});

/** The status one recipient meets, before any is sent: the first that applies. */
function statusFor(desk: TDesk, number: string, from: string, forced: number | null): number {
  if (forced !== null) return forced;
  // International format, '+' then 8 to 15 digits, as the docs' examples write it.
  if (!/^\+[1-9]\d{7,14}$/.test(number)) return 403;
  if (!desk.senderIds.includes(from)) return 402;
  if (desk.blacklist.has(number)) return 406;
  if (desk.balanceKobo < MESSAGE_COST_KOBO) return 405;
  return 101;
}

/** Africa's Talking's answer to POST /version1/messaging, sending to each recipient it may. */
function sendMessages(desk: TDesk, form: Record<string, string>, forced: number | null): TAnswer {
  for (const field of ['to', 'message'] as const) {
    if (!form[field]) return text(400, `Request is missing required form field '${field}'`);
  }
  const from = form.from || 'AFRICASTKNG';
  const recipients = (form.to ?? '').split(',').map((listed) => {
    const to = listed.trim();
    const statusCode = statusFor(desk, to, from, forced);
    if (statusCode !== 101) return unsent(to, statusCode);
    desk.balanceKobo -= MESSAGE_COST_KOBO;
    desk.nextId += 1;
    const messageId = `ATXid_${desk.nextId.toString(16).padStart(32, '0')}`;
    const message = { messageId, to, from, message: form.message ?? '' };
    desk.messages.push(message);
    desk.onMessage(message);
    return { ...unsent(to, 101), cost: naira(MESSAGE_COST_KOBO), messageId };
  });
  const sent = recipients.filter((r) => r.statusCode === 101).length;
  const cost = sent === 0 ? '0' : naira(sent * MESSAGE_COST_KOBO);
  // The docs give DoNotDisturbRejection its own HTTP status, 409; every other answer is 201.
  const status = recipients.some((r) => r.statusCode === 409) ? 409 : 201;
  return {
    status,
    type: 'json',
    body: {
      SMSMessageData: {
        Message: `Sent to ${sent}/${recipients.length} Total Cost: ${cost}`,
        Recipients: recipients,
      },
    },
  };
}

const respond = (response: ServerResponse, answer: TAnswer) => {
  const body = answer.type === 'json' ? JSON.stringify(answer.body) : String(answer.body);
  response.writeHead(answer.status, {
    'content-type': answer.type === 'json' ? 'application/json' : 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
};

type TExchange = {
  method: string;
  pathname: string;
  headers: Record<string, string>;
  form: Record<string, string> | null;
};

/** The API's answer: the path and method, the key, the body's form, then the call. */
function answerOf(desk: TDesk, exchange: TExchange, forced: number | null): TAnswer {
  const { method, pathname, headers, form } = exchange;
  if (pathname !== '/version1/messaging') return text(404, 'Not Found');
  if (method !== 'POST') return text(405, 'Method Not Allowed');
  // The key first: a wrong one learns nothing of the account.
  if (headers.apikey !== desk.apiKey || form?.username !== desk.username) {
    return text(401, 'The supplied authentication is invalid');
  }
  if (!form) return text(400, 'Request body must be application/x-www-form-urlencoded');
  // The docs' default format is XML, which this simulator does not speak.
  if (!(headers.accept ?? '').includes('application/json')) {
    return text(406, 'This simulator answers application/json only: send Accept: application/json');
  }
  return sendMessages(desk, form, forced);
}

/** One request: recorded, then answered as the next mishap says, or as Africa's Talking would. */
async function handle(
  desk: TDesk,
  requests: TAfricasTalkingSimulator['requests'],
  pair: { request: IncomingMessage; response: ServerResponse },
) {
  const { request, response } = pair;
  const method = request.method ?? 'GET';
  const target = new URL(request.url ?? '/', 'http://simulator');
  const raw = await readBody(request);
  const headers = headersOf(request);
  const isForm = (headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const form = isForm ? Object.fromEntries(new URLSearchParams(raw)) : null;
  requests.push({ method, path: `${target.pathname}${target.search}`, headers, body: form ?? raw });
  const mishap = desk.mishaps.shift();
  if (mishap?.kind === 'hang') return;
  if (mishap?.kind === 'fail') {
    respond(response, text(mishap.status, 'Internal Server Error'));
    return;
  }
  const forced = mishap?.kind === 'refuse' ? mishap.statusCode : null;
  const pathname = target.pathname.replace(/\/+$/, '');
  const answer = answerOf(desk, { method, pathname, headers, form }, forced);
  if (mishap?.kind === 'lose') {
    // The message is sent (Africa's Talking took it); only the answer is lost.
    request.socket.destroy();
    return;
  }
  respond(response, answer);
}

export async function startAfricasTalkingSimulator(
  options: TAfricasTalkingSimulatorOptions = {},
): Promise<TAfricasTalkingSimulator> {
  const senderIds = options.senderIds ?? DEFAULT_SENDER_IDS;
  const desk: TDesk = {
    username: options.username ?? DEFAULT_USERNAME,
    apiKey: options.apiKey ?? DEFAULT_API_KEY,
    senderIds,
    balanceKobo: options.balanceKobo ?? 1_000_000_000,
    blacklist: new Set(options.blacklist ?? []),
    messages: [],
    mishaps: [],
    nextId: 0,
    onMessage: options.onMessage ?? (() => {}),
  };
  const requests: TAfricasTalkingSimulator['requests'] = [];
  const server = createServer((request, response) => {
    handle(desk, requests, { request, response }).catch((error: unknown) => {
      if (!response.headersSent) respond(response, text(500, String(error)));
    });
  });
  const url = await listenLocally(server, options.port ?? 0);
  return {
    url,
    username: desk.username,
    apiKey: desk.apiKey,
    senderId: senderIds[0] ?? '',
    requests,
    messages: desk.messages,
    refuseNext(statusCode) {
      desk.mishaps.push({ kind: 'refuse', statusCode });
    },
    failNext(status) {
      desk.mishaps.push({ kind: 'fail', status });
    },
    hangNext() {
      desk.mishaps.push({ kind: 'hang' });
    },
    loseNextAnswer() {
      desk.mishaps.push({ kind: 'lose' });
    },
    close: () => closeServer(server),
  };
}

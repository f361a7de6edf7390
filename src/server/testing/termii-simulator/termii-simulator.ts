import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, headersOf, listenLocally, readBody } from '../simulator-http';

/**
 * A Termii stand-in for tests and local runs, written from Termii's developer docs: "Messaging
 * API" (POST /api/sms/send: `api_key`, `to`, `from`, `sms`, `type`, `channel`; the answer's
 * `message_id`, `message`, `balance`, `user`), "Error" (the HTTP statuses and the common errors'
 * wording: Unauthorized, Invalid Sender Id, You are not set up on this route) and "Events and
 * Reports". State lives in memory and dies with close(). README.md beside this file lists what it
 * answers and where Termii's docs are silent.
 */

export type TTermiiSimulatorOptions = {
  /** The API key it accepts. */
  apiKey?: string;
  /** The sender IDs registered on the account; the first is `senderId`. */
  senderIds?: string[];
  /** The routes set up on the account: 'dnd' needs Termii's support to activate it. */
  routes?: Array<'dnd' | 'generic'>;
  /** The account's balance; each message costs one. */
  balance?: number;
  port?: number;
  /** Told of each message it accepts (main.ts prints it: the only phone a local run has). */
  onMessage?: (message: TTermiiMessage) => void;
};

/** One message Termii took, as it took it. */
export type TTermiiMessage = {
  messageId: string;
  to: string;
  from: string;
  sms: string;
  channel: string;
  type: string;
};

export type TTermiiSimulator = {
  /** e.g. http://127.0.0.1:PORT (TERMII_BASE_URL). */
  url: string;
  apiKey: string;
  /** The first registered sender ID (TERMII_SENDER_ID). */
  senderId: string;
  /** Every request: method, path with its query, headers, and its body (parsed, else raw). */
  requests: Array<{
    method: string;
    path: string;
    headers: Record<string, string>;
    body: unknown;
  }>;
  /** Every message it accepted, oldest first. */
  messages: TTermiiMessage[];
  /** The next request answers `status` with `{ message }`, without effect (a 4xx or a 5xx). */
  failNext(status: number, message?: string): void;
  /** The next request is never answered: its socket stays open until close(). */
  hangNext(): void;
  /** The next request takes effect, and its socket is destroyed unanswered. */
  loseNextAnswer(): void;
  close(): Promise<void>;
};

const DEFAULT_API_KEY = 'TLsimulator-api-key';
const DEFAULT_SENDER_IDS = ['OyaMoney'];
const REQUIRED = ['api_key', 'to', 'from', 'sms', 'type', 'channel'] as const;

type TAnswer = { status: number; body: Record<string, unknown> };
type TMishap = { kind: 'fail'; status: number; message: string } | { kind: 'hang' | 'lose' };

/** The account's state and what the test controls set. */
type TDesk = {
  apiKey: string;
  senderIds: string[];
  routes: string[];
  balance: number;
  messages: TTermiiMessage[];
  mishaps: TMishap[];
  nextId: bigint;
  onMessage: (message: TTermiiMessage) => void;
};

const refusal = (status: number, message: string): TAnswer => ({ status, body: { message } });

/** Termii's answer to POST /api/sms/send, and the message kept when it accepts one. */
function sendSms(desk: TDesk, body: Record<string, unknown>): TAnswer {
  // The key first: a wrong one learns nothing of the account.
  if (body.api_key !== desk.apiKey) return refusal(401, 'Unauthorized');
  const missing = REQUIRED.find((field) => typeof body[field] !== 'string' || body[field] === '');
  if (missing) return refusal(400, `The ${missing} field is required.`);
  const { to, from, sms, type, channel } = body as Record<(typeof REQUIRED)[number], string>;
  // Termii's docs: the international format, digits only (23490126727).
  if (!/^[1-9]\d{9,14}$/.test(to)) {
    return refusal(400, 'Phone number must be in the international format (Example: 23490126727)');
  }
  if (type !== 'plain') return refusal(400, 'The selected type is invalid.');
  if (!desk.senderIds.includes(from)) return refusal(400, 'Invalid Sender Id');
  if (!desk.routes.includes(channel)) return refusal(400, 'You are not set up on this route');
  if (desk.balance < 1) return refusal(400, 'Insufficient balance');
  desk.balance -= 1;
  desk.nextId += 1n;
  const messageId = desk.nextId.toString();
  const message = { messageId, to, from, sms, channel, type };
  desk.messages.push(message);
  desk.onMessage(message);
  return {
    status: 200,
    body: {
      code: 'ok',
      message_id: messageId,
      message_id_str: messageId,
      message: 'Successfully Sent',
      balance: desk.balance,
      user: 'Termii Simulator',
    },
  };
}

const parse = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
};

const respond = (response: ServerResponse, answer: TAnswer) => {
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
};

/** The API's answer to one request: the path and method, then the body, then the call. */
function answerOf(desk: TDesk, method: string, pathname: string, body: unknown): TAnswer {
  if (pathname !== '/api/sms/send') return refusal(404, 'Not Found');
  if (method !== 'POST') return refusal(405, 'Method Not Allowed');
  if (body === null || typeof body !== 'object') return refusal(400, 'Invalid JSON body');
  return sendSms(desk, body as Record<string, unknown>);
}

/** One request: recorded, then answered as the next mishap says, or as Termii would. */
async function handle(
  desk: TDesk,
  requests: TTermiiSimulator['requests'],
  exchange: { request: IncomingMessage; response: ServerResponse },
) {
  const { request, response } = exchange;
  const method = request.method ?? 'GET';
  const target = new URL(request.url ?? '/', 'http://simulator');
  const body = parse(await readBody(request));
  const headers = headersOf(request);
  requests.push({ method, path: `${target.pathname}${target.search}`, headers, body });
  const mishap = desk.mishaps.shift();
  if (mishap?.kind === 'hang') return;
  if (mishap?.kind === 'fail') {
    respond(response, refusal(mishap.status, mishap.message));
    return;
  }
  const answer = answerOf(desk, method, target.pathname.replace(/\/+$/, ''), body);
  if (mishap?.kind === 'lose') {
    // The message is kept (Termii sent it); only the answer is lost.
    request.socket.destroy();
    return;
  }
  respond(response, answer);
}

export async function startTermiiSimulator(
  options: TTermiiSimulatorOptions = {},
): Promise<TTermiiSimulator> {
  const senderIds = options.senderIds ?? DEFAULT_SENDER_IDS;
  const desk: TDesk = {
    apiKey: options.apiKey ?? DEFAULT_API_KEY,
    senderIds,
    routes: options.routes ?? ['dnd', 'generic'],
    balance: options.balance ?? 1_000_000,
    messages: [],
    mishaps: [],
    nextId: 3_017_544_054_459_000_000n,
    onMessage: options.onMessage ?? (() => {}),
  };
  const requests: TTermiiSimulator['requests'] = [];
  const server = createServer((request, response) => {
    handle(desk, requests, { request, response }).catch((error: unknown) => {
      if (!response.headersSent) respond(response, refusal(500, String(error)));
    });
  });
  const url = await listenLocally(server, options.port ?? 0);
  return {
    url,
    apiKey: desk.apiKey,
    senderId: senderIds[0] ?? '',
    requests,
    messages: desk.messages,
    failNext(status, message = status >= 500 ? 'Server Error' : 'Bad Request') {
      desk.mishaps.push({ kind: 'fail', status, message });
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

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenLocally, readBody } from '../simulator-http';
import { collections } from './collections';
import { moneyOut } from './money-out';
import { noticeSender, type TNoticeAttempt } from './notices';
import {
  MonnifyRefusal,
  createSimState,
  type TAnswer,
  type TBody,
  type TContext,
  type TRoute,
} from './simulator-state';

/**
 * A Monnify stand-in for tests and local runs, written from Monnify's published material only
 * (README.md beside this file names the documents): the login that hands a bearer token with its
 * lifetime, collections (init-transaction, pay with bank transfer, card charges with OTP and
 * 3-D Secure, status by either reference, the transaction search), refunds, single transfers with
 * their OTP authorisation, banks, account validation, the BVN-account match, and notices signed
 * with `monnify-signature` to one URL. State lives in memory and dies with close().
 */

export type TMonnifySimulator = {
  /** e.g. http://127.0.0.1:PORT (the adapter's MONNIFY_BASE_URL) */
  url: string;
  apiKey: string;
  secretKey: string;
  contractCode: string;
  /** The disbursement wallet's account number transfers are sent from. */
  walletAccountNumber: string;
  sendNoticesTo(url: string): void;
  close(): Promise<void>;
  /** Every API request: method, path (with query), parsed body, and whether its auth was right. */
  requests: Array<{ method: string; path: string; body: unknown; authorized: boolean }>;
  /** Every notice delivery attempt. */
  notices: TNoticeAttempt[];
  /** Money sent into a one-time account (README "Controls"). Resolves once the notice was answered. */
  payTransfer(
    accountNumber: string,
    amount: number,
    sender?: { accountNumber: string; accountName: string; bankCode: string },
  ): Promise<void>;
  /** The payer's answer on a charge's 3-D Secure page, by the page's id (secure3dData.id). */
  answerThreeDs(id: string, approved: boolean): Promise<void>;
  /** Every access token issued so far stops working (Monnify answers 401 to it). */
  expireTokens(): void;
  /** How many times the login was called. */
  logins(): number;
  /** The next API request to this path takes effect but its answer is lost. */
  loseNextAnswer(pathPrefix: string): void;
  /** The next API request to this path answers this status without effect. */
  failNext(pathPrefix: string, status: number): void;
  /** The next refund ends FAILED (FAILED_REFUND). */
  failNextRefund(): void;
  /** The OTP Monnify sent the merchant for a transfer waiting for authorisation. */
  disbursementOtp(reference: string): string | null;
  /** A successful transfer sent back by the recipient's bank (REVERSED_DISBURSEMENT). */
  reverseDisbursement(reference: string): Promise<void>;
  idle(): Promise<void>;
};

export type TMonnifySimulatorOptions = {
  apiKey?: string;
  secretKey?: string;
  contractCode?: string;
  noticeUrl?: string | null;
  port?: number;
  clock?: () => Date;
  /** The access token's lifetime it answers (expiresIn), in seconds. */
  tokenSeconds?: number;
  /** How long a one-time account takes money (accountDurationSeconds); Monnify's 40 minutes. */
  accountSeconds?: number;
  /** Whether single transfers wait for the merchant's OTP (Monnify's default: yes). */
  payoutOtp?: boolean;
  noticeRetryDelaysMs?: number[];
};

const DEFAULTS = {
  apiKey: 'MK_TEST_SIMULATOR01',
  secretKey: 'SIMULATORSECRET0000000000000000A',
  contractCode: '1234567890',
  walletAccountNumber: '8016472829',
};

type TDesk = {
  options: Required<Pick<TMonnifySimulatorOptions, 'apiKey' | 'secretKey' | 'tokenSeconds'>>;
  now: () => Date;
  tokens: Map<string, Date>;
  loginCount: number;
  routes: TRoute[];
  requests: TMonnifySimulator['requests'];
  lostAnswers: Array<{ prefix: string }>;
  failures: Array<{ prefix: string; status: number }>;
  threeDsPage: (id: string, approved: boolean) => Promise<void>;
};

const respond = (response: ServerResponse, answer: TAnswer) => {
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, { 'content-type': 'application/json' });
  response.end(text);
};

const refusalOf = (error: MonnifyRefusal): TAnswer => ({
  status: error.httpStatus,
  body: {
    requestSuccessful: false,
    responseMessage: error.message,
    responseCode: error.responseCode,
  },
});

const takeMatching = <T extends { prefix: string }>(list: T[], path: string) => {
  const index = list.findIndex((entry) => path.startsWith(entry.prefix));
  return index === -1 ? undefined : list.splice(index, 1)[0];
};

/** POST /api/v1/auth/login: Basic base64(apiKey:secretKey) → an access token and its lifetime. */
function login(desk: TDesk, authorization: string | undefined): TAnswer {
  const expected = `Basic ${Buffer.from(`${desk.options.apiKey}:${desk.options.secretKey}`).toString('base64')}`;
  if (authorization !== expected) {
    return {
      status: 401,
      body: { requestSuccessful: false, responseMessage: 'Invalid Client', responseCode: '99' },
    };
  }
  desk.loginCount += 1;
  const accessToken = `eyJsim.${randomBytes(24).toString('base64url')}`;
  desk.tokens.set(accessToken, new Date(desk.now().getTime() + desk.options.tokenSeconds * 1000));
  return {
    status: 200,
    body: {
      requestSuccessful: true,
      responseMessage: 'success',
      responseCode: '0',
      responseBody: { accessToken, expiresIn: desk.options.tokenSeconds },
    },
  };
}

/** The settings a server needs to use `monnify` as its Monnify (MONNIFY_*). */
export const monnifySimulatorEnv = (monnify: TMonnifySimulator): Record<string, string> => ({
  MONNIFY_API_KEY: monnify.apiKey,
  MONNIFY_SECRET_KEY: monnify.secretKey,
  MONNIFY_CONTRACT_CODE: monnify.contractCode,
  MONNIFY_BASE_URL: monnify.url,
  MONNIFY_WALLET_ACCOUNT_NUMBER: monnify.walletAccountNumber,
});

/** The payer's 3-D Secure page: a form, and its answer applied. */
async function threeDsPage(desk: TDesk, method: string, id: string, raw: string) {
  if (method === 'POST') {
    const answer = new URLSearchParams(raw).get('answer');
    await desk.threeDsPage(id, answer === 'approve');
    return '<!doctype html><title>Done</title><p>Payment step finished.</p>';
  }
  return `<!doctype html><title>3-D Secure</title><form method="post"><button name="answer" value="approve">Approve</button><button name="answer" value="decline">Decline</button></form>`;
}

async function handle(desk: TDesk, request: IncomingMessage, response: ServerResponse) {
  const method = request.method ?? 'GET';
  const target = new URL(request.url ?? '/', 'http://simulator');
  const pathname = target.pathname.replace(/\/+$/, '') || '/';
  const raw = await readBody(request);
  const page = /^\/sim\/3ds\/([a-f0-9]+)$/.exec(pathname);
  if (page?.[1]) {
    const html = await threeDsPage(desk, method, page[1], raw).catch(() => null);
    response.writeHead(html ? 200 : 404, { 'content-type': 'text/html' }).end(html ?? 'Not found');
    return;
  }
  if (pathname === '/api/v1/auth/login' && method === 'POST') {
    desk.requests.push({ method, path: pathname, body: null, authorized: true });
    respond(response, login(desk, request.headers.authorization));
    return;
  }
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const expires = desk.tokens.get(bearer);
  const authorized = expires !== undefined && expires > desk.now();
  let body: TBody = {};
  let unreadable = false;
  try {
    body = raw.trim() === '' ? {} : (JSON.parse(raw) as TBody);
  } catch {
    unreadable = true;
  }
  desk.requests.push({ method, path: `${pathname}${target.search}`, body, authorized });
  const failure = takeMatching(desk.failures, pathname);
  if (failure) {
    respond(response, { status: failure.status, body: { message: 'Service Unavailable' } });
    return;
  }
  const lose = takeMatching(desk.lostAnswers, pathname);
  const ctx: TContext = {
    method,
    segments: pathname.split('/').slice(1),
    query: target.searchParams,
    body,
    later: [],
  };
  let answer: TAnswer;
  try {
    if (!authorized) throw new MonnifyRefusal(401, 'Invalid or expired token', '401');
    if (unreadable) throw new MonnifyRefusal(400, 'Malformed JSON request');
    const route = desk.routes.find((r) => r.method === method && r.path.test(pathname));
    if (!route) throw new MonnifyRefusal(404, 'Resource not found');
    answer = route.handle(ctx);
  } catch (error) {
    if (!(error instanceof MonnifyRefusal)) throw error;
    answer = refusalOf(error);
  }
  if (lose) request.socket.destroy();
  else respond(response, answer);
  for (const work of ctx.later) await work();
}

export async function startMonnifySimulator(
  options: TMonnifySimulatorOptions = {},
): Promise<TMonnifySimulator> {
  const apiKey = options.apiKey ?? DEFAULTS.apiKey;
  const secretKey = options.secretKey ?? DEFAULTS.secretKey;
  const now = options.clock ?? (() => new Date());
  const notices: TNoticeAttempt[] = [];
  const target = {
    url: options.noticeUrl ?? null,
    clientSecret: secretKey,
    retryDelaysMs: options.noticeRetryDelaysMs ?? [50, 200, 500],
    record: (attempt: TNoticeAttempt) => notices.push(attempt),
  };
  const sender = noticeSender(target);
  const state = createSimState({
    now,
    send: sender.send,
    accountSeconds: options.accountSeconds ?? 2_400,
    payoutOtp: options.payoutOtp ?? false,
    walletAccountNumber: DEFAULTS.walletAccountNumber,
  });
  const collecting = collections(state);
  const out = moneyOut(state, collecting.find);
  const desk: TDesk = {
    options: { apiKey, secretKey, tokenSeconds: options.tokenSeconds ?? 3_600 },
    now,
    tokens: new Map(),
    loginCount: 0,
    routes: [...collecting.routes, ...out.routes],
    requests: [],
    lostAnswers: [],
    failures: [],
    threeDsPage: collecting.answerThreeDs,
  };
  const server = createServer((request, response) => {
    handle(desk, request, response).catch((error: unknown) => {
      if (!response.headersSent)
        respond(response, { status: 500, body: { message: String(error) } });
    });
  });
  state.url = await listenLocally(server, options.port ?? 0);
  return {
    url: state.url,
    apiKey,
    secretKey,
    contractCode: options.contractCode ?? DEFAULTS.contractCode,
    walletAccountNumber: DEFAULTS.walletAccountNumber,
    requests: desk.requests,
    notices,
    sendNoticesTo(url) {
      target.url = url;
    },
    async close() {
      await sender.close();
      await closeServer(server);
    },
    payTransfer: collecting.payTransfer,
    answerThreeDs: collecting.answerThreeDs,
    expireTokens: () => desk.tokens.clear(),
    logins: () => desk.loginCount,
    loseNextAnswer(prefix) {
      desk.lostAnswers.push({ prefix });
    },
    failNext(prefix, status) {
      desk.failures.push({ prefix, status });
    },
    failNextRefund: out.failNextRefund,
    disbursementOtp: out.disbursementOtp,
    reverseDisbursement: out.reverseDisbursement,
    idle: () => sender.idle(),
  };
}

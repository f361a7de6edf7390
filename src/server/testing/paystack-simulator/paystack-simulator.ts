import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenLocally, readBody } from '../simulator-http';
import { DEFAULT_ACCOUNT_HOLDERS, bankByCode, bankRoutes } from './banks';
import { charges } from './charges';
import { customers } from './customers';
import { mandates } from './mandates';
import { noticeSender, type TNoticeAttempt } from './notices';
import { closePage, mandatePage, notFoundPage, threeDsPage } from './pages';
import { payouts } from './payouts';
import { refunds } from './refunds';
import { terminals } from './terminals';
import { contractBreach, type TContractBreach } from './published-contract';
import { PaystackRefusal, parseBody, type TBody } from './request-checks';
import {
  createSimState,
  type TAnswer,
  type TContext,
  type TRoute,
  type TSimState,
} from './simulator-state';

/**
 * A Paystack stand-in for tests and local runs, written from Paystack's OpenAPI description
 * (PaystackOSS/openapi) and its docs: the Charge API (cards with PIN/OTP/phone/birthday/3-D Secure
 * steps, pay with transfer), charging a saved authorization, verify, banks, customers and their
 * identification, refunds, transfers (payouts), direct-debit mandates, Paystack Terminal's push
 * payment requests (terminals.ts), and signed notices (webhooks) to one URL. State lives in
 * memory and dies with close(). README.md beside this file lists the test cards and controls.
 */

export type TPaystackSimulator = {
  /** e.g. http://127.0.0.1:PORT (the adapter's PAYSTACK_BASE_URL) */
  url: string;
  /** The sk_test_… it accepts. */
  secretKey: string;
  /** Where its notices go from now on (a server that listened after it started). */
  sendNoticesTo(url: string): void;
  close(): Promise<void>;
  /** Every API request it got: method, path (with its query), body (parsed), whether its bearer was right. */
  requests: Array<{ method: string; path: string; body: unknown; authorized: boolean }>;
  /**
   * Every request whose JSON body Paystack's published schema of its operation refuses
   * (published-contract.ts): each was answered 400 and did nothing.
   */
  contractBreaches: TContractBreach[];
  /** Every notice delivery attempt (a redelivery is another entry): event, body, signature, our answer's status. */
  notices: Array<{ event: string; body: string; signature: string; status: number | null }>;
  /**
   * Pays into a pay-with-transfer account it issued. The right amount, before the account
   * expires: charge.success (channel bank_transfer). A wrong amount: bank.transfer.rejected, and
   * the charge stays unpaid. After expiry, or into an account already paid: nothing (Paystack
   * sends the money back to the sender). Resolves once the notice's first delivery was answered.
   */
  payTransfer(
    accountNumber: string,
    amount: number,
    sender?: { accountNumber: string; accountName: string; bankCode: string },
  ): Promise<void>;
  /** The payer's answer on the 3-D Secure page (open_url) of a charge; approval sends charge.success. */
  answerThreeDs(reference: string, approved: boolean): Promise<void>;
  /** The next API request to this path takes effect but its answer is lost (the socket is destroyed). */
  loseNextAnswer(pathPrefix: string): void;
  /** The next API request to this path answers this status (500/503…) without effect. */
  failNext(pathPrefix: string, status: number): void;
  /**
   * An outage: from now on every API request is recorded, held `afterMs` without effect, and its
   * connection then dropped with no answer (a timeout as the caller meets it, cut short). null
   * ends it: Paystack answers again.
   */
  stopAnswering(outage: { afterMs: number } | null): void;
  /**
   * From now on, API requests whose path matches send their notices first, and answer only once
   * their first delivery was answered: a proxy between us and Paystack holding answers back.
   * null ends it.
   */
  noticesBeforeAnswer(path: RegExp | null): void;
  /**
   * From now on, API requests whose path matches answer 503 without effect, every one (Paystack
   * or the way to it down: no answer we can read); null ends it. A lost answer or a failNext
   * already set for a request comes first.
   */
  unavailable(path: RegExp | null): void;
  /** The payer's answer on the bank's page of a direct-debit mandate (its redirect_url). */
  answerMandate(reference: string, approved: boolean): Promise<void>;
  /** How the payer answered a mandate, by its reference: null while unanswered, or if unknown. */
  mandateAnswer(reference: string): 'approved' | 'declined' | null;
  /** Later charges of this authorization fail with this gateway response (e.g. 'Insufficient Funds'). */
  declineAuthorization(authorizationCode: string, gatewayResponse?: string): void;
  /** The next refund created ends failed (refund.failed) instead of processed. */
  failNextRefund(): void;
  /**
   * The next refund created needs attention (refund.needs-attention) until it is retried with the
   * customer's account (POST /refund/retry_with_customer_details/{id}).
   */
  nextRefundNeedsAttention(): void;
  /** A successful payout sent back by the recipient's bank: transfer.reversed. */
  reverseTransfer(reference: string): Promise<void>;
  /** Resolves when every notice has been delivered or given up. */
  idle(): Promise<void>;
  /** Registers a Paystack Terminal on the integration, online or not (terminals.ts). */
  addTerminal(terminalId: string, presence: { online: boolean; available?: boolean }): void;
  /** A terminal going on or off line, or busy (`available` false). */
  setTerminalPresence(terminalId: string, presence: { online: boolean; available?: boolean }): void;
  /**
   * The payer's card at a terminal, on the payment request it shows: approved (charge.success and
   * paymentrequest.success, unless `withNotices` is false: the notices never come) or declined
   * (the request `failed`, no notice). Resolves once the notices' first deliveries were answered.
   */
  cardAtTerminal(
    terminalId: string,
    outcome: 'approved' | 'declined',
    options?: { withNotices?: boolean },
  ): Promise<void>;
  /** The request code of the payment request a terminal shows; null for none. */
  terminalShowing(terminalId: string): string | null;
  /** How many payment requests were made. */
  paymentRequestCount(): number;
};

export type TPaystackSimulatorOptions = {
  secretKey?: string;
  /** Where notices go; null or absent sends none. */
  noticeUrl?: string | null;
  port?: number;
  clock?: () => Date;
  /** Waits before each redelivery of a notice our server did not answer 200 OK; default 3 tries. */
  noticeRetryDelaysMs?: number[];
  /** The integration's balance in kobo, which payouts draw on; charges add to it. */
  balance?: number;
  /**
   * Who holds each bank account, for Validate Customer: the holder's BVN, keyed
   * `${bankCode}:${accountNumber}`. By default every account that resolves is held under
   * 22200000011, but Access 0001234567 and Zenith 2000000001, held under 22200000022.
   */
  accountHolders?: Record<string, string>;
  /**
   * Whether a JSON body that Paystack's published schema of its operation refuses is answered
   * 400 and kept in `contractBreaches` (published-contract.ts): on by default, so every test of
   * the adapter holds its requests to Paystack's contract. Off, the simulator takes what
   * Paystack's servers take beyond it (an amount as a string of digits, as its examples send).
   */
  checkPublishedSchemas?: boolean;
};

type TPageAnswer = { status: number; html?: string; location?: string };

const DEFAULT_SECRET_KEY = 'sk_test_simulator0000000000000000000000000';

/** The simulator's parts once started: its state, its APIs, and what the test controls set. */
type TSimulatorDesk = {
  secretKey: string;
  state: TSimState;
  requests: TPaystackSimulator['requests'];
  contractBreaches: TContractBreach[];
  checkPublishedSchemas: boolean;
  routes: TRoute[];
  charging: ReturnType<typeof charges>;
  debits: ReturnType<typeof mandates>;
  lostAnswers: Array<{ prefix: string }>;
  failures: Array<{ prefix: string; status: number }>;
  controls: {
    noticesFirst: RegExp | null;
    outage: { afterMs: number } | null;
    down: RegExp | null;
  };
};

/** A request for a payer's page: its code, and the answer its form posted, if any. */
type TPageRequest = { method: string; pathname: string; code: string; answer: string | null };

/** The 3-D Secure page of a charge: its form, or the payer's answer applied and the page closed. */
const serveThreeDsPage = async (desk: TSimulatorDesk, page: TPageRequest): Promise<TPageAnswer> => {
  const { method, pathname, code, answer } = page;
  const transaction = desk.charging.threeDsPage(code);
  if (!transaction?.threeDs) return { status: 404, html: notFoundPage() };
  if (
    method === 'POST' &&
    transaction.threeDs.answer === null &&
    (answer === 'approve' || answer === 'decline')
  ) {
    const later = desk.charging.applyThreeDsAnswer(transaction, answer === 'approve');
    for (const work of later) await work();
    // The Charge API ends its 3-D Secure page on standard.paystack.co/close (its docs).
    return { status: 303, location: `${desk.state.url}/close` };
  }
  return {
    status: 200,
    html: threeDsPage({
      action: pathname,
      amount: transaction.amount,
      last4: transaction.card?.number.slice(-4) ?? '',
      answered: transaction.threeDs.answer,
    }),
  };
};

/** The bank's page of a mandate: its form, or the payer's answer applied and the payer sent back. */
const serveMandatePage = async (desk: TSimulatorDesk, page: TPageRequest): Promise<TPageAnswer> => {
  const { method, pathname, code, answer } = page;
  const mandate = desk.debits.mandatePage(code);
  if (!mandate) return { status: 404, html: notFoundPage() };
  // Customer Authorization's callback_url is where Paystack sends the payer back, with the
  // mandate's reference to verify.
  const returnTo = mandate.callbackUrl ? new URL(mandate.callbackUrl) : null;
  returnTo?.searchParams.set('reference', mandate.reference);
  if (
    method === 'POST' &&
    mandate.answer === null &&
    (answer === 'approve' || answer === 'decline')
  ) {
    await desk.debits.applyMandateAnswer(mandate, answer === 'approve');
    // Without a callback_url the page itself says the mandate is done.
    return {
      status: 303,
      location: returnTo ? returnTo.toString() : `${desk.state.url}${pathname}`,
    };
  }
  return {
    status: 200,
    html: mandatePage({
      action: pathname,
      email: mandate.email,
      bankName: bankByCode(mandate.account?.bankCode ?? '058')?.name ?? 'bank',
      answered: mandate.answer,
      returnTo: returnTo ? returnTo.toString() : null,
    }),
  };
};

/** The payer's pages: not the API, so no bearer and no entry in `requests`. */
const servePage = async (
  desk: TSimulatorDesk,
  method: string,
  pathname: string,
  raw: string,
): Promise<TPageAnswer | null> => {
  const [, kind, code] = /^\/(checkout\/3ds|mandate)\/([a-z0-9]+)$/.exec(pathname) ?? [];
  if (pathname === '/close' && method === 'GET')
    return { status: 200, html: closePage('Payment step finished') };
  if (!kind || !code) return null;
  const answer = new URLSearchParams(raw).get('answer');
  const page = { method, pathname, code, answer };
  return kind === 'checkout/3ds' ? serveThreeDsPage(desk, page) : serveMandatePage(desk, page);
};

/** Takes out of the list the first entry whose prefix starts the path. */
const takeMatching = <T extends { prefix: string }>(list: T[], path: string) => {
  const index = list.findIndex((entry) => path.startsWith(entry.prefix));
  return index === -1 ? undefined : list.splice(index, 1)[0];
};

const respondJson = (response: ServerResponse, answer: TAnswer) => {
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
};

/** Writes a payer's page: its HTML, or a redirect. */
const respondPage = (response: ServerResponse, pageAnswer: TPageAnswer) => {
  response.writeHead(pageAnswer.status, {
    'content-type': 'text/html; charset=utf-8',
    ...(pageAnswer.location ? { location: pageAnswer.location } : {}),
  });
  response.end(pageAnswer.html ?? '');
};

/**
 * The body as Paystack reads it, or the refusal it earns (answered after the bearer's check): one
 * it cannot read, or a JSON one its published schema refuses (the wording is the simulator's).
 */
const bodyOf = (desk: TSimulatorDesk, request: IncomingMessage, raw: string, pathname: string) => {
  const contentType = request.headers['content-type'];
  try {
    const body = parseBody(raw, contentType);
    const json =
      desk.checkPublishedSchemas &&
      raw.trim() !== '' &&
      !contentType?.includes('application/x-www-form-urlencoded');
    const breach = json ? contractBreach(request.method ?? 'GET', pathname, body) : null;
    if (!breach) return { body, recorded: body, bodyRefusal: null };
    desk.contractBreaches.push(breach);
    const message = `The body does not match ${breach.operation} in Paystack's published API: ${breach.errors}`;
    return { body, recorded: body, bodyRefusal: new PaystackRefusal(400, message) };
  } catch (error) {
    const bodyRefusal =
      error instanceof PaystackRefusal ? error : new PaystackRefusal(400, 'Invalid body');
    return { body: {} as TBody, recorded: raw, bodyRefusal };
  }
};

/** The API's answer: the bearer and the body checked, then the route that matches, or 404/405. */
const answerApi = (
  routes: TRoute[],
  ctx: TContext,
  checks: { pathname: string; authorized: boolean; bodyRefusal: PaystackRefusal | null },
): TAnswer => {
  const { method } = ctx;
  const { pathname } = checks;
  try {
    if (!checks.authorized) throw new PaystackRefusal(401, 'Invalid key');
    if (checks.bodyRefusal) throw checks.bodyRefusal;
    const route = routes.find(
      (candidate) => candidate.method === method && candidate.path.test(pathname),
    );
    if (!route) {
      const known = routes.some((candidate) => candidate.path.test(pathname));
      throw new PaystackRefusal(
        known ? 405 : 404,
        known ? 'Method not allowed' : 'Route not found',
      );
    }
    return route.handle(ctx);
  } catch (error) {
    if (!(error instanceof PaystackRefusal)) throw error;
    return {
      status: error.httpStatus,
      body: { status: false, message: error.message, ...error.extra },
    };
  }
};

/** One API request: recorded, failed or answered, its answer perhaps lost, its notices sent. */
const handleApi = async (
  desk: TSimulatorDesk,
  exchange: { request: IncomingMessage; response: ServerResponse; target: URL; raw: string },
) => {
  const { request, response, target, raw } = exchange;
  const method = request.method ?? 'GET';
  const pathname = target.pathname.replace(/\/+$/, '') || '/';
  const authorized = request.headers.authorization === `Bearer ${desk.secretKey}`;
  const { body, recorded, bodyRefusal } = bodyOf(desk, request, raw, pathname);
  const path = `${pathname}${target.search}`;
  desk.requests.push({ method, path, body: recorded, authorized });
  const { outage } = desk.controls;
  if (outage) {
    await new Promise((resolve) => setTimeout(resolve, outage.afterMs));
    request.socket.destroy();
    return;
  }

  const failure = takeMatching(desk.failures, pathname);
  const lose = failure ? undefined : takeMatching(desk.lostAnswers, pathname);
  const down = !lose && (desk.controls.down?.test(pathname) ?? false);
  if (failure || down) {
    // A provider's failure without effect: the body is not Paystack's documented one.
    respondJson(response, {
      status: failure?.status ?? 503,
      body: { status: false, message: 'Service unavailable, try again' },
    });
    return;
  }
  const held = desk.controls.noticesFirst?.test(pathname) ?? false;

  const ctx: TContext = {
    method,
    segments: pathname.split('/').slice(1),
    query: target.searchParams,
    body,
    later: [],
  };
  const answer = answerApi(desk.routes, ctx, { pathname, authorized, bodyRefusal });
  // Held back: the notices reach our server before the answer does.
  if (held) for (const work of ctx.later.splice(0)) await work();
  if (lose) {
    // The effect stands (the charge is recorded, the money moved); only the answer is lost.
    request.socket.destroy();
  } else {
    respondJson(response, answer);
  }
  for (const work of ctx.later) await work();
};

/** One request: a payer's page if it names one, else the API. */
const handle = async (desk: TSimulatorDesk, request: IncomingMessage, response: ServerResponse) => {
  const method = request.method ?? 'GET';
  const target = new URL(request.url ?? '/', 'http://simulator');
  const pathname = target.pathname.replace(/\/+$/, '') || '/';
  const raw = await readBody(request);

  const pageAnswer = await servePage(desk, method, pathname, raw);
  if (pageAnswer) {
    respondPage(response, pageAnswer);
    return;
  }
  await handleApi(desk, { request, response, target, raw });
};

/** The HTTP server, listening on 127.0.0.1 at the port asked for (any, by default). */
const listen = async (desk: TSimulatorDesk, port: number) => {
  const server = createServer((request, response) => {
    handle(desk, request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        respondJson(response, { status: 500, body: { status: false, message: String(error) } });
      }
    });
  });
  return { server, url: await listenLocally(server, port) };
};

/** The simulator's state and APIs, wired to the notice sender. */
const assemble = (
  options: TPaystackSimulatorOptions,
  secretKey: string,
  send: TSimState['send'],
) => {
  const state = createSimState({
    now: options.clock ?? (() => new Date()),
    send,
    balance: options.balance ?? 1_000_000_000,
  });
  const charging = charges(state);
  const refunding = refunds(state);
  const debits = mandates(state);
  const paying = payouts(state);
  const pos = terminals(state);
  const people = customers(state, {
    accountHolders: options.accountHolders ?? DEFAULT_ACCOUNT_HOLDERS,
  });
  const routes: TRoute[] = [
    ...charging.routes,
    ...bankRoutes,
    ...people.routes,
    ...refunding.routes,
    ...paying.routes,
    ...debits.routes,
    ...pos.routes,
  ];
  const desk: TSimulatorDesk = {
    secretKey,
    state,
    requests: [],
    contractBreaches: [],
    checkPublishedSchemas: options.checkPublishedSchemas ?? true,
    routes,
    charging,
    debits,
    lostAnswers: [],
    failures: [],
    controls: { noticesFirst: null, outage: null, down: null },
  };
  return { desk, refunding, paying, pos };
};

export async function startPaystackSimulator(
  options: TPaystackSimulatorOptions = {},
): Promise<TPaystackSimulator> {
  const secretKey = options.secretKey ?? DEFAULT_SECRET_KEY;
  const notices: TNoticeAttempt[] = [];
  // Read at each notice: a server that listens after the simulator is told where with sendNoticesTo.
  const noticeTarget = {
    url: options.noticeUrl ?? null,
    secretKey,
    retryDelaysMs: options.noticeRetryDelaysMs ?? [50, 200, 500],
    record: (attempt: TNoticeAttempt) => notices.push(attempt),
  };
  const sender = noticeSender(noticeTarget);
  const { desk, refunding, paying, pos } = assemble(options, secretKey, sender.send);
  const { state, charging, debits } = desk;
  const { server, url } = await listen(desk, options.port ?? 0);
  state.url = url;

  return {
    url: state.url,
    secretKey,
    requests: desk.requests,
    contractBreaches: desk.contractBreaches,
    notices,
    sendNoticesTo(url) {
      noticeTarget.url = url;
    },
    async close() {
      await sender.close();
      await closeServer(server);
    },
    payTransfer: charging.payTransfer,
    async answerThreeDs(reference, approved) {
      const transaction = state.transactions.get(reference);
      if (!transaction) throw new Error(`No charge with the reference ${reference}`);
      for (const work of charging.applyThreeDsAnswer(transaction, approved)) await work();
    },
    loseNextAnswer(pathPrefix) {
      desk.lostAnswers.push({ prefix: pathPrefix });
    },
    failNext(pathPrefix, status) {
      desk.failures.push({ prefix: pathPrefix, status });
    },
    stopAnswering(outage) {
      desk.controls.outage = outage;
    },
    unavailable(path) {
      desk.controls.down = path;
    },
    noticesBeforeAnswer(path) {
      desk.controls.noticesFirst = path;
    },
    answerMandate: debits.answerMandate,
    mandateAnswer: debits.mandateAnswer,
    declineAuthorization: charging.declineAuthorization,
    failNextRefund: refunding.failNextRefund,
    nextRefundNeedsAttention: refunding.nextRefundNeedsAttention,
    reverseTransfer: paying.reverseTransfer,
    idle: () => sender.idle(),
    addTerminal: pos.addTerminal,
    setTerminalPresence: pos.setPresence,
    cardAtTerminal: pos.cardAtTerminal,
    terminalShowing: pos.showing,
    paymentRequestCount: pos.requestCount,
  };
}

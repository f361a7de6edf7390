import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_ACCOUNT_HOLDERS, bankByCode, bankRoutes } from './banks';
import { charges } from './charges';
import { customers } from './customers';
import { mandates } from './mandates';
import { noticeSender, type TNoticeAttempt } from './notices';
import { closePage, mandatePage, notFoundPage, threeDsPage } from './pages';
import { payouts } from './payouts';
import { refunds } from './refunds';
import { PaystackRefusal, parseBody, type TBody } from './request-checks';
import { createSimState, type TAnswer, type TContext, type TRoute } from './simulator-state';

/**
 * A Paystack stand-in for tests and local runs, written from Paystack's OpenAPI description
 * (PaystackOSS/openapi) and its docs: the Charge API (cards with PIN/OTP/phone/birthday/3-D Secure
 * steps, pay with transfer), charging a saved authorization, verify, banks, customers and their
 * identification, refunds, transfers (payouts), direct-debit mandates, and signed notices
 * (webhooks) to one URL. State lives in
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
   * From now on, API requests whose path matches send their notices first, and answer only once
   * their first delivery was answered: a proxy between us and Paystack holding answers back.
   * null ends it.
   */
  noticesBeforeAnswer(path: RegExp | null): void;
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
};

type TPageAnswer = { status: number; html?: string; location?: string };

const DEFAULT_SECRET_KEY = 'sk_test_simulator0000000000000000000000000';

export async function startPaystackSimulator(
  options: TPaystackSimulatorOptions = {},
): Promise<TPaystackSimulator> {
  const secretKey = options.secretKey ?? DEFAULT_SECRET_KEY;
  const requests: TPaystackSimulator['requests'] = [];
  const notices: TNoticeAttempt[] = [];
  // Read at each notice: a server that listens after the simulator is told where with sendNoticesTo.
  const noticeTarget = {
    url: options.noticeUrl ?? null,
    secretKey,
    retryDelaysMs: options.noticeRetryDelaysMs ?? [50, 200, 500],
    record: (attempt: TNoticeAttempt) => notices.push(attempt),
  };
  const sender = noticeSender(noticeTarget);
  const state = createSimState({
    now: options.clock ?? (() => new Date()),
    send: sender.send,
    balance: options.balance ?? 1_000_000_000,
  });
  const charging = charges(state);
  const refunding = refunds(state);
  const debits = mandates(state);
  const paying = payouts(state);
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
  ];
  const lostAnswers: Array<{ prefix: string }> = [];
  const failures: Array<{ prefix: string; status: number }> = [];
  let noticesFirst: RegExp | null = null;

  /** The payer's pages: not the API, so no bearer and no entry in `requests`. */
  const servePage = async (
    method: string,
    pathname: string,
    raw: string,
  ): Promise<TPageAnswer | null> => {
    const [, kind, code] = /^\/(checkout\/3ds|mandate)\/([a-z0-9]+)$/.exec(pathname) ?? [];
    if (pathname === '/close' && method === 'GET')
      return { status: 200, html: closePage('Payment step finished') };
    if (!kind || !code) return null;
    const answer = new URLSearchParams(raw).get('answer');
    if (kind === 'checkout/3ds') {
      const transaction = charging.threeDsPage(code);
      if (!transaction?.threeDs) return { status: 404, html: notFoundPage() };
      if (
        method === 'POST' &&
        transaction.threeDs.answer === null &&
        (answer === 'approve' || answer === 'decline')
      ) {
        const later = charging.applyThreeDsAnswer(transaction, answer === 'approve');
        for (const work of later) await work();
        // The Charge API ends its 3-D Secure page on standard.paystack.co/close (its docs).
        return { status: 303, location: `${state.url}/close` };
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
    }
    const mandate = debits.mandatePage(code);
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
      await debits.applyMandateAnswer(mandate, answer === 'approve');
      // Without a callback_url the page itself says the mandate is done.
      return { status: 303, location: returnTo ? returnTo.toString() : `${state.url}${pathname}` };
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

  const readRaw = (request: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      request.on('error', reject);
    });

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

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method ?? 'GET';
    const target = new URL(request.url ?? '/', 'http://simulator');
    const pathname = target.pathname.replace(/\/+$/, '') || '/';
    const raw = await readRaw(request);

    const pageAnswer = await servePage(method, pathname, raw);
    if (pageAnswer) {
      response.writeHead(pageAnswer.status, {
        'content-type': 'text/html; charset=utf-8',
        ...(pageAnswer.location ? { location: pageAnswer.location } : {}),
      });
      response.end(pageAnswer.html ?? '');
      return;
    }

    const authorized = request.headers.authorization === `Bearer ${secretKey}`;
    let body: TBody = {};
    let bodyRefusal: PaystackRefusal | null = null;
    try {
      body = parseBody(raw, request.headers['content-type']);
    } catch (error) {
      bodyRefusal =
        error instanceof PaystackRefusal ? error : new PaystackRefusal(400, 'Invalid body');
    }
    const path = `${pathname}${target.search}`;
    requests.push({ method, path, body: bodyRefusal ? raw : body, authorized });

    const failure = takeMatching(failures, pathname);
    if (failure) {
      // A provider's failure without effect: the body is not Paystack's documented one.
      respondJson(response, {
        status: failure.status,
        body: { status: false, message: 'Service unavailable, try again' },
      });
      return;
    }
    const lose = takeMatching(lostAnswers, pathname);
    const held = noticesFirst?.test(pathname) ?? false;

    const ctx: TContext = {
      method,
      segments: pathname.split('/').slice(1),
      query: target.searchParams,
      body,
      later: [],
    };
    let answer: TAnswer;
    try {
      if (!authorized) throw new PaystackRefusal(401, 'Invalid key');
      if (bodyRefusal) throw bodyRefusal;
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
      answer = route.handle(ctx);
    } catch (error) {
      if (!(error instanceof PaystackRefusal)) throw error;
      answer = {
        status: error.httpStatus,
        body: { status: false, message: error.message, ...error.extra },
      };
    }
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

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        respondJson(response, { status: 500, body: { status: false, message: String(error) } });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: state.url,
    secretKey,
    requests,
    notices,
    sendNoticesTo(url) {
      noticeTarget.url = url;
    },
    async close() {
      await sender.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    payTransfer: charging.payTransfer,
    async answerThreeDs(reference, approved) {
      const transaction = state.transactions.get(reference);
      if (!transaction) throw new Error(`No charge with the reference ${reference}`);
      for (const work of charging.applyThreeDsAnswer(transaction, approved)) await work();
    },
    loseNextAnswer(pathPrefix) {
      lostAnswers.push({ prefix: pathPrefix });
    },
    failNext(pathPrefix, status) {
      failures.push({ prefix: pathPrefix, status });
    },
    noticesBeforeAnswer(path) {
      noticesFirst = path;
    },
    answerMandate: debits.answerMandate,
    mandateAnswer: debits.mandateAnswer,
    declineAuthorization: charging.declineAuthorization,
    failNextRefund: refunding.failNextRefund,
    nextRefundNeedsAttention: refunding.nextRefundNeedsAttention,
    reverseTransfer: paying.reverseTransfer,
    idle: () => sender.idle(),
  };
}

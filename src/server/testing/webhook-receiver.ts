// A merchant's webhook receiver on this machine, for the webhook tests.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export type TReceived = { headers: IncomingHttpHeaders; body: string };

type TAnswer = {
  status: number;
  /** Never answered (the connection is dropped when the receiver closes): a receiver that hangs. */
  hangs?: boolean;
  headers?: Record<string, string>;
  body?: string;
};

/** A merchant's receiver: answers each request as `answer` says, and keeps what it got. */
export function receiver(port = 0, host = '127.0.0.1') {
  const received: TReceived[] = [];
  let answer: (body: string) => TAnswer = () => ({ status: 200 });
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      const { status, hangs = false, headers = {}, body: answered = '' } = answer(body);
      if (!hangs) response.writeHead(status, headers).end(answered);
    });
  });
  return {
    received,
    answerWith(fn: typeof answer) {
      answer = fn;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      return `http://${host}:${(server.address() as AddressInfo).port}/hooks`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Registers a webhook at `url` for the client of `authorization`: its id and signing secret. */
export async function registerWebhook(app: FastifyInstance, authorization: string, url: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { authorization },
    payload: { url },
  });
  if (response.statusCode !== 201) throw new Error(`Webhook not registered: ${response.body}`);
  return response.json<{ id: string; secret: string }>();
}

/**
 * The page's grant of a consent whose immediate payment is paid, by a payer not signed in: the
 * call's answer.
 */
export const grantPaidConsent = (app: FastifyInstance, consentId: string) =>
  app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    payload: {
      originalRequestId: null,
      consentData: { consentId },
      userAuthenticated: false,
      attestDiscoveryId: null,
      immediatePayments: { granted: true, selectedAccounts: [], paymentMethods: [] },
    },
  });

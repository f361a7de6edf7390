// The outbox's crash test (docs/jobs.md "Crash tests"), on either database: a payer is made on a
// server that sends; a real server process that commits and never sends (JOBS_WORK=off) is killed,
// another is started on the same database, and each thing the killed one committed is sent once,
// with one id.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TReadyResponse } from '../../domain/schemas/health';
import {
  addPasskey,
  codeSession,
  loginWithCode,
  sendCode,
  signUp,
  signedGrant,
  softAuthenticatorFor,
  testPhone,
} from './identity';
import type { TKindBacklog } from '../jobs/engine';
import { linkByTestTransfer } from './payments';
import { stopServerProcess, type TServerProcess } from './server-process';
import type { SoftAuthenticator } from './soft-authenticator';
import { testConfig } from './test-app';

/**
 * `app.inject` answered by a server process over HTTP: the identity and payment helpers, written
 * for an app in the test's process, drive a real server with it. Its `jobs.backlog()` is the
 * server's own, read from GET /api/health/ready (the helpers wait on it for an SMS to be sent).
 */
export function remoteApp(base: string): FastifyInstance {
  const inject = async (request: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    payload?: unknown;
  }) => {
    const answer = await fetch(`${base}${request.url}`, {
      method: request.method,
      headers: {
        ...(request.payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      ...(request.payload === undefined ? {} : { body: JSON.stringify(request.payload) }),
    });
    const body = await answer.text();
    return {
      statusCode: answer.status,
      body,
      headers: Object.fromEntries(answer.headers),
      json: () => JSON.parse(body) as unknown,
    };
  };
  const backlog = async (): Promise<Pick<TKindBacklog, 'kind' | 'states'>[]> =>
    (await backlogOf(base)).map(({ kind, waiting, retrying, active, failed, dead }) => ({
      kind,
      states: { created: waiting, retry: retrying, active, completed: 0, failed, dead },
    }));
  return { inject, jobs: { backlog } } as unknown as FastifyInstance;
}

/** A webhook receiver on this machine: what it was sent, by the `webhook-id` of each request. */
export async function webhookReceiver() {
  const received: { id: string; type: string }[] = [];
  let holdMs = 0;
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { type } = JSON.parse(body) as { type: string };
      received.push({ id: String(request.headers['webhook-id']), type });
      const answer = () => response.writeHead(204).end();
      if (holdMs > 0) setTimeout(answer, holdMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** From now on each delivery is answered `ms` after it came: a slow merchant endpoint. */
    holdFor(ms: number) {
      holdMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A payer with a passkey and a linked account, and a second session of theirs signed in by an SMS
 * code alone, made on the server `base` while it sends (their codes are SMS jobs too). Every
 * server of the crash test listens at the same address: the passkeys are bound to its origin.
 */
type TPreparedPayer = {
  phone: string;
  token: string;
  soft: SoftAuthenticator;
  accountId: string;
  /** A session of a new phone, signed in by a code alone: a passkey it adds waits 24 h. */
  codeToken: string;
};

async function preparePayer(base: string): Promise<TPreparedPayer> {
  const app = remoteApp(base);
  const phone = testPhone();
  const { token } = await signUp(app, phone);
  const soft = softAuthenticatorFor(testConfig({ PUBLIC_URL: base }));
  await addPasskey(app, token, soft);
  const accountId = await linkByTestTransfer(app, token, 'links_by_test_transfer');
  return { phone, token, soft, accountId, codeToken: await codeSession(app, phone) };
}

/** What the first server committed, for the checks after the second one sent it. */
type TCommitted = {
  phone: string;
  consentId: string;
  paymentId: string;
  authorization: string;
  /** A number a sign-up code was asked for. */
  codePhone: string;
};

/**
 * On the server `base` (which must not send: JOBS_WORK=off), with a merchant `authorization`:
 * registers the receiver's webhook; the prepared payer grants a consent whose future payment falls
 * due a few seconds later (a collection, consent.granted for the webhook, the grant's SMS receipt)
 * and adds a passkey in their code-only session (the "A new device was added" SMS); and a sign-up
 * code is asked for a new number (its SMS).
 */
async function commitWithoutSending(
  base: string,
  authorization: string,
  hookUrl: string,
  payer: TPreparedPayer,
): Promise<TCommitted> {
  const app = remoteApp(base);
  const config = testConfig({ PUBLIC_URL: base });
  const hook = await app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { authorization },
    payload: { url: hookUrl },
  });
  expect(hook.statusCode, hook.body).toBe(201);

  const { phone, token, soft, accountId } = payer;
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization },
    payload: {
      payments: [
        {
          type: 'future',
          amount: 150_000,
          amountType: 'fixed',
          narration: 'Membership',
          dueDate: new Date(Date.now() + 3_000).toISOString(),
        },
      ],
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    futurePayments: {
      granted: true,
      selectedAccounts: [accountId],
      paymentMethods: [{ type: 'account' as const, accountId }],
    },
  };
  const granted = await app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: { authorization: `Bearer ${token}` },
    payload: await signedGrant(app, soft, token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  const consent = await app.inject({
    method: 'GET',
    url: `/api/v1/consents/${consentId}`,
    headers: { authorization },
  });
  const paymentId = consent.json<{ consent: { payments: { paymentId: string }[] } }>().consent
    .payments[0]?.paymentId;
  if (!paymentId) throw new Error(`no payment in ${consent.body}`);

  // A new phone, signed in by a code alone: its passkey waits, and the payer must hear of it.
  expect(await addPasskey(app, payer.codeToken, softAuthenticatorFor(config))).toMatchObject({
    approval: 'none',
  });
  const codePhone = testPhone();
  const code = await sendCode(app, codePhone);
  expect(code.statusCode, code.body).toBe(200);
  // Committed, and not sent: the SMS wait for a process that works on them.
  expect(await messagesTo(base, codePhone)).toEqual([]);
  expect((await messagesTo(base, phone)).filter(isReceipt)).toEqual([]);
  return { phone, consentId, paymentId, authorization, codePhone };
}

const isNewDevice = (body: string) => body.startsWith('A new device was added');
const isReceipt = (body: string) => body.startsWith('You granted');
const isDebitNotice = (body: string) => body.includes(' will debit ');

/** The SMS the sandbox sent `phone`, newest first (the server's /api/sandbox/messages). */
async function messagesTo(base: string, phone: string): Promise<string[]> {
  const answer = await fetch(`${base}/api/sandbox/messages?phone=${encodeURIComponent(phone)}`);
  return ((await answer.json()) as { messages: { body: string }[] }).messages.map((m) => m.body);
}

async function backlogOf(base: string) {
  const answer = await fetch(`${base}/api/health/ready`);
  return ((await answer.json()) as TReadyResponse).jobs;
}

/**
 * On the server `base` started after the crash: waits until every job the first one queued ran,
 * then finds the webhook sent once with one event id, each SMS sent once (the new device's, the
 * grant's receipt with its link to the consent, the code that signs the new number up), the
 * payment collected once (and its webhook once).
 */
async function expectEachSentOnce(
  base: string,
  committed: TCommitted,
  received: { id: string; type: string }[],
): Promise<void> {
  const ofType = (type: string) => received.filter((hook) => hook.type === type);
  await expect.poll(() => ofType('future_payment.collected').length).toBeGreaterThan(0);
  await expect.poll(() => ofType('consent.granted').length).toBeGreaterThan(0);
  await expect
    .poll(async () => (await messagesTo(base, committed.phone)).filter(isNewDevice).length)
    .toBeGreaterThan(0);
  await expect
    .poll(async () => (await messagesTo(base, committed.phone)).filter(isReceipt).length)
    .toBeGreaterThan(0);
  await expect.poll(async () => (await messagesTo(base, committed.codePhone)).length).toBe(1);
  // Nothing the first server queued is left to run.
  await expect
    .poll(async () =>
      (await backlogOf(base))
        .filter((kind) => ['sms.send', 'webhooks.deliver'].includes(kind.kind))
        .map((kind) => kind.waiting + kind.active + kind.retrying + kind.failed + kind.dead),
    )
    .toEqual([0, 0]);

  // One event id for the grant, sent once; the collection's once.
  expect(ofType('consent.granted')).toHaveLength(1);
  expect(ofType('future_payment.collected')).toHaveLength(1);
  expect(new Set(received.map((hook) => hook.id)).size).toBe(received.length);
  expect((await messagesTo(base, committed.phone)).filter(isNewDevice)).toHaveLength(1);
  const receipts = (await messagesTo(base, committed.phone)).filter(isReceipt);
  expect(receipts).toHaveLength(1);
  // The payer was told of the debit before it, once.
  expect((await messagesTo(base, committed.phone)).filter(isDebitNotice)).toHaveLength(1);
  // The receipt's link opens the consent granted before the crash.
  const link = new URL(/https?:\/\/\S+/.exec(receipts[0] ?? '')?.[0] ?? base);
  const receipt = await fetch(
    `${base}/api/consent-receipts/${encodeURIComponent(link.searchParams.get('receipt') ?? '')}`,
  );
  expect(((await receipt.json()) as { consent?: { consentId: string } }).consent?.consentId).toBe(
    committed.consentId,
  );
  // The one code sent to the new number is the one it was asked for: it signs the number up.
  const [codeSms] = await messagesTo(base, committed.codePhone);
  const signedUp = await loginWithCode(remoteApp(base), {
    phone: committed.codePhone,
    code: /code is (\d{6})/.exec(codeSms ?? '')?.[1] ?? '',
    fullName: 'Kemi Adebayo',
  });
  expect(signedUp.statusCode, signedUp.body).toBe(200);
  const payment = await fetch(`${base}/api/v1/payments/${committed.paymentId}`, {
    headers: { authorization: committed.authorization },
  });
  const { collections } = (
    (await payment.json()) as { payment: { collections: { status: string }[] } }
  ).payment;
  expect(collections.map((collection) => collection.status)).toEqual(['succeeded']);
}

/**
 * The crash, start to end. `start(env)` starts a server process on the test's database at the
 * test's one address; `authorization()` makes a merchant client once the committing server runs.
 * A payer is made on a server that sends, which stops; a server that commits and never sends
 * (JOBS_WORK=off) commits each thing and is killed (SIGKILL) with nothing sent; the next server
 * sends each once.
 */
export async function crashBetweenCommitAndSend(
  start: (env: Record<string, string>) => Promise<TServerProcess>,
  authorization: () => Promise<string>,
  receiver: { url: string; received: { id: string; type: string }[] },
): Promise<void> {
  // The payer's notice a moment before the debit rather than a day (DEBIT_NOTICE_HOURS takes a
  // fraction for a rehearsal), so the collection due seconds after its grant is made on its date.
  const given = start;
  start = (env) => given({ DEBIT_NOTICE_HOURS: '0.0003', ...env });
  const making = await start({});
  const payer = await preparePayer(making.base);
  await stopServerProcess(making.child);

  const first = await start({ JOBS_WORK: 'off' });
  const committed = await commitWithoutSending(
    first.base,
    await authorization(),
    receiver.url,
    payer,
  );
  await stopServerProcess(first.child, 'SIGKILL');
  // Nothing went out before the kill.
  expect(receiver.received).toEqual([]);

  const second = await start({});
  await expectEachSentOnce(second.base, committed, receiver.received);
}

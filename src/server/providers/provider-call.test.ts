import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  callProvider,
  onProviderCall,
  ProviderKeyRefused,
  ProviderNoAnswer,
  providerCaller,
  type TProviderCallEvent,
  type TProviderReading,
  type TProviderResponse,
} from './provider-call';

// The core of every provider call (provider-call.ts) against a provider played by a local HTTP
// server: what it answers decides the triage, and what it received shows what was sent and how
// many times.

type THandler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

type TReceived = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

const received: TReceived[] = [];
/** The answers, in order, to the calls the server gets; the last one answers every call after. */
let script: THandler[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      });
      const handler = script[Math.min(received.length, script.length) - 1];
      handler?.(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  received.length = 0;
  script = [];
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const answer =
  (status: number, body: string, headers: Record<string, string> = {}): THandler =>
  (_request, _body, response) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);

/** A provider's envelope, read as Paystack's is: { status, message, data }. */
function readEnvelope(response: TProviderResponse): TProviderReading<unknown> {
  const envelope = response.json as
    { status?: unknown; message?: unknown; data?: unknown; code?: unknown } | undefined;
  if (typeof envelope?.status !== 'boolean' || typeof envelope.message !== 'string') {
    return { outcome: 'unknown', reason: 'an answer that is not the provider’s' };
  }
  if (envelope.status && response.status < 300) return { outcome: 'answered', data: envelope.data };
  return {
    outcome: 'refused',
    reason: envelope.message,
    code: typeof envelope.code === 'string' ? envelope.code : null,
    data: envelope.data,
  };
}

const caller = () =>
  providerCaller({
    provider: 'testpay',
    baseUrl: `${baseUrl}/`,
    headers: { authorization: 'Bearer sk_test_secret' },
    timeoutMs: 2_000,
    retryDelaysMs: [50, 50],
    keySetting: 'TESTPAY_SECRET_KEY',
  });

/** A call that moves money: made once, whatever comes of it. */
const charge = () =>
  caller()({
    call: 'charge',
    method: 'POST',
    path: '/charge',
    body: { json: {} },
    read: readEnvelope,
  });

const events: TProviderCallEvent[] = [];
let stopListening: () => void;
beforeAll(() => {
  stopListening = onProviderCall((event) => events.push(event));
});
afterEach(() => {
  events.length = 0;
});
afterAll(() => stopListening());

describe('a provider call', () => {
  it('sends the described request and reads an answer', async () => {
    script = [answer(200, JSON.stringify({ status: true, message: 'ok', data: { id: 7 } }))];
    const result = await caller()({
      call: 'charge',
      method: 'POST',
      path: '/charge',
      body: { json: { amount: 50_000, reference: 'att_1' } },
      read: readEnvelope,
    });
    expect(result).toEqual({ outcome: 'answered', status: 200, data: { id: 7 } });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/charge' });
    expect(received[0]?.headers).toMatchObject({
      authorization: 'Bearer sk_test_secret',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ amount: 50_000, reference: 'att_1' });
    expect(events).toEqual([
      expect.objectContaining({
        provider: 'testpay',
        call: 'charge',
        method: 'POST',
        outcome: 'answered',
        status: 200,
      }),
    ]);
  });

  it('sends a form-encoded body and a query, and hands the reader the headers', async () => {
    script = [answer(201, '{"ok":1}', { 'x-request-id': 'r-9' })];
    const result = await caller()({
      call: 'messaging',
      method: 'POST',
      path: '/version1/messaging',
      query: { page: 2, q: 'a b' },
      headers: { apiKey: 'key' },
      body: { form: { username: 'sandbox', to: '+2348031234567', message: 'Hi & bye' } },
      read: (response) => ({
        outcome: 'answered',
        data: {
          id: response.headers.get('x-request-id'),
          json: response.json,
          text: response.text,
        },
      }),
    });
    expect(result).toEqual({
      outcome: 'answered',
      status: 201,
      data: { id: 'r-9', json: { ok: 1 }, text: '{"ok":1}' },
    });
    expect(received[0]?.url).toBe('/version1/messaging?page=2&q=a+b');
    expect(received[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(received[0]?.headers.apikey).toBe('key');
    expect(Object.fromEntries(new URLSearchParams(received[0]?.body))).toEqual({
      username: 'sandbox',
      to: '+2348031234567',
      message: 'Hi & bye',
    });
  });

  it('gives a refusal with its reason and code: the provider looked and did nothing', async () => {
    script = [
      answer(
        400,
        JSON.stringify({
          status: false,
          message: 'Duplicate Transaction Reference',
          code: 'duplicate_reference',
        }),
      ),
    ];
    const result = await charge();
    expect(result).toEqual({
      outcome: 'refused',
      status: 400,
      reason: 'Duplicate Transaction Reference',
      code: 'duplicate_reference',
      data: undefined,
    });
    expect(received).toHaveLength(1);
    expect(events.map((event) => event.outcome)).toEqual(['refused']);
  });

  it.each([500, 502, 503, 408, 429])(
    'takes HTTP %i as no answer, even with a refusal in its body',
    async (status) => {
      script = [answer(status, JSON.stringify({ status: false, message: 'Declined' }))];
      const made = charge();
      await expect(made).rejects.toThrow(ProviderNoAnswer);
      await expect(made).rejects.toMatchObject({
        provider: 'testpay',
        call: 'charge',
        reason: `HTTP ${status}`,
      });
      expect(received).toHaveLength(1);
      expect(events).toEqual([expect.objectContaining({ outcome: 'no_answer', status })]);
    },
  );

  it('takes an answer past its time as no answer', async () => {
    script = [() => undefined];
    const started = performance.now();
    const made = callProvider({
      provider: 'testpay',
      call: 'charge',
      method: 'POST',
      url: `${baseUrl}/charge`,
      body: { json: {} },
      timeoutMs: 200,
      read: readEnvelope,
    });
    await expect(made).rejects.toThrow(ProviderNoAnswer);
    await expect(made).rejects.toMatchObject({ reason: 'no answer within 200 ms' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(received).toHaveLength(1);
    expect(events).toEqual([expect.objectContaining({ outcome: 'no_answer', status: null })]);
  });

  it('takes a redirect as no answer and never follows it', async () => {
    script = [
      answer(302, JSON.stringify({ status: true, message: 'ok', data: {} }), {
        location: `${baseUrl}/elsewhere`,
      }),
      answer(200, JSON.stringify({ status: true, message: 'followed', data: {} })),
    ];
    const made = charge();
    await expect(made).rejects.toThrow(ProviderNoAnswer);
    await expect(made).rejects.toMatchObject({ reason: 'a redirect (HTTP 302), not followed' });
    expect(received.map((request) => request.url)).toEqual(['/charge']);
  });

  it('takes words its reader cannot read as no answer', async () => {
    script = [(_request, _body, response) => response.writeHead(200).end('<html>gateway</html>')];
    const garbled = caller()({
      call: 'verify',
      method: 'POST',
      path: '/verify',
      read: readEnvelope,
    });
    await expect(garbled).rejects.toThrow(ProviderNoAnswer);
    await expect(garbled).rejects.toMatchObject({
      reason: 'an answer that is not the provider’s (HTTP 200)',
    });

    const thrown = caller()({
      call: 'verify',
      method: 'POST',
      path: '/verify',
      read: (response) => ({
        outcome: 'answered',
        data: (response.json as { data: { id: string } }).data.id,
      }),
    });
    await expect(thrown).rejects.toThrow(ProviderNoAnswer);
    expect(received).toHaveLength(2);
  });

  it('asks a read again after each pause, and takes the answer that comes', async () => {
    script = [
      answer(503, ''),
      answer(200, JSON.stringify({ status: true, message: 'ok', data: { status: 'success' } })),
    ];
    const started = performance.now();
    const result = await caller()({
      call: 'transaction/verify',
      method: 'GET',
      path: '/transaction/verify/att_1',
      read: readEnvelope,
    });
    expect(result).toEqual({ outcome: 'answered', status: 200, data: { status: 'success' } });
    expect(received.map((request) => request.method)).toEqual(['GET', 'GET']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(events.map((event) => event.outcome)).toEqual(['no_answer', 'answered']);
  });

  it('gives up on a read after its last pause', async () => {
    script = [answer(503, '')];
    await expect(
      caller()({ call: 'list', method: 'GET', path: '/list', read: readEnvelope }),
    ).rejects.toThrow(ProviderNoAnswer);
    expect(received).toHaveLength(3);
  });

  it('never asks again a call that acts, nor one marked not repeatable', async () => {
    script = [answer(503, '')];
    await expect(
      caller()({
        call: 'transfer',
        method: 'POST',
        path: '/transfer',
        body: { json: {} },
        read: readEnvelope,
      }),
    ).rejects.toThrow(ProviderNoAnswer);
    expect(received).toHaveLength(1);
    await expect(
      caller()({
        call: 'page',
        method: 'GET',
        path: '/page',
        repeatable: false,
        read: readEnvelope,
      }),
    ).rejects.toThrow(ProviderNoAnswer);
    expect(received).toHaveLength(2);
  });

  it('asks again a POST the adapter marks as a read', async () => {
    script = [
      answer(502, ''),
      answer(200, JSON.stringify({ status: true, message: 'ok', data: 1 })),
    ];
    const result = await caller()({
      call: 'status',
      method: 'POST',
      path: '/status',
      body: { json: { reference: 'att_1' } },
      repeatable: true,
      read: readEnvelope,
    });
    expect(result).toMatchObject({ outcome: 'answered', data: 1 });
    expect(received).toHaveLength(2);
  });

  it.each([401, 403])(
    'throws a refused key on HTTP %i, never a refusal, and never asks again',
    async (status) => {
      script = [answer(status, JSON.stringify({ status: false, message: 'Invalid key' }))];
      const made = caller()({
        call: 'balance',
        method: 'GET',
        path: '/balance',
        read: readEnvelope,
      });
      await expect(made).rejects.toThrow(ProviderKeyRefused);
      await expect(made).rejects.toMatchObject({ provider: 'testpay', call: 'balance', status });
      const error = (await made.catch((thrown: unknown) => thrown)) as Error;
      expect(error.message).toContain('TESTPAY_SECRET_KEY');
      expect(error.message).not.toContain('sk_test_secret');
      // The provider's words, for an adapter that quotes them.
      expect((error as ProviderKeyRefused).answer?.json).toEqual({
        status: false,
        message: 'Invalid key',
      });
      expect(received).toHaveLength(1);
      expect(events).toEqual([expect.objectContaining({ outcome: 'key_refused', status })]);
    },
  );

  it('takes a connection refused as no answer, with nothing of the request in its words', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const made = callProvider({
      provider: 'testpay',
      call: 'charge',
      method: 'POST',
      url: `http://127.0.0.1:${port}/charge?key=sk_test_secret`,
      body: { json: { pin: '1234' } },
      retryDelaysMs: [],
      read: readEnvelope,
    });
    await expect(made).rejects.toThrow(ProviderNoAnswer);
    const error = (await made.catch((thrown: unknown) => thrown)) as Error;
    expect(error.message).toBe('testpay gave no answer to charge: fetch failed (ECONNREFUSED)');
  });
});

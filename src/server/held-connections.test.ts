// Connections a client holds: a request that trickles in is cut with a catalogue 408 after its time
// while a live event stream stays open past it, and an event stream answers HEAD and a refusing
// Accept at once, in the catalogue shape. Over real sockets, with the timeouts made short through
// the configuration.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '../domain/errors';
import { loadConfig } from './config';
import { SANDBOX_ACCOUNTS } from './sandbox/fixtures';
import { signUp, testPhone } from './testing/identity';
import { consentWithPayment, keepPageToken, pageQuery, sandboxTransfer } from './testing/payments';
import { collectSse, type TSseEvent } from './testing/sse';
import { startTestApp } from './testing/test-app';

// Short enough to keep the file quick, long enough that a busy machine's pause between a
// connection's accept and the read of its request (Node times a new connection from its accept)
// does not cut a request that was sent whole at once.
const REQUEST_TIMEOUT_MS = 2_500;
const HEADERS_TIMEOUT_MS = 1_500;
const CONNECTION_TIMEOUT_MS = 2_000;

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
let port: number;
beforeAll(async () => {
  ctx = await startTestApp({
    env: {
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      CONNECTION_TIMEOUT_MS: String(CONNECTION_TIMEOUT_MS),
      SSE_HEARTBEAT_MS: '100',
    },
  });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(base).port);
});
afterAll(() => ctx.close());

type TRawAnswer = { status: number; head: string; body: string; ms: number };

/**
 * Writes `head`, then `trickle` one byte every `everyMs` (a slowloris client), and reads what
 * the server answers until it closes the connection (or 8 s of silence pass).
 */
function slowRequest(head: string, trickle: string, everyMs = 100): Promise<TRawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++] ?? '');
    }, everyMs);
    const finish = () => {
      clearInterval(drip);
      const [top = '', body = ''] = answer.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(top)?.[1]);
      resolve({ status, head: top, body, ms: performance.now() - started });
    };
    socket.setTimeout(8_000, () => socket.destroy());
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('close', finish);
    socket.on('error', (error) => (answer ? undefined : reject(error)));
    socket.write(head);
  });
}

function expectCatalogue(body: string, code: string) {
  const parsed = JSON.parse(body) as { success: boolean; error: { code: string; message: string } };
  expect(parsed.success).toBe(false);
  expect(parsed.error.code).toBe(code);
  expect(isErrorCode(parsed.error.code)).toBe(true);
  expect(parsed.error.message.length).toBeGreaterThan(0);
}

/** How long the live stream is kept before its payment: past the request and quiet limits. */
const OUTLIVED_MS = Math.max(REQUEST_TIMEOUT_MS, CONNECTION_TIMEOUT_MS) + 500;

const slowBodyHead =
  'POST /api/auth/phone-codes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
  'Content-Length: 200\r\n\r\n';

const statuses = (events: TSseEvent[]) =>
  events.filter((e) => e.event === 'payment_status').map((e) => e.data.status);

describe('requests that arrive too slowly', () => {
  it('cuts a body that trickles in past REQUEST_TIMEOUT_MS with a catalogue 408, and closes', async () => {
    const answer = await slowRequest(slowBodyHead, `{"phone":"${'0'.repeat(180)}"}`);
    expect(answer.status).toBe(408);
    expect(answer.head).toMatch(/content-type: application\/json/i);
    expectCatalogue(answer.body, 'REQUEST_TIMEOUT');
    // Cut after its time, not at once, and long before the 20 s the trickle would take (the
    // margin is for a loaded machine).
    expect(answer.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 4_000);
  });

  it('cuts headers that trickle in past HEADERS_TIMEOUT_MS with a catalogue 408', async () => {
    const answer = await slowRequest(
      'GET /api/health HTTP/1.1\r\nHost: x\r\n',
      `X-Slow: ${'a'.repeat(100)}\r\n`,
    );
    expect(answer.status).toBe(408);
    expectCatalogue(answer.body, 'REQUEST_TIMEOUT');
    expect(answer.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(answer.ms).toBeLessThan(HEADERS_TIMEOUT_MS + 4_000);
  });

  it('keeps a live event stream open past every timeout while it cuts a slow body, and delivers on it', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    // A transfer the payer said they made: the page follows it with its one-time account's token.
    const account = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
    });
    const { accountNumber, amount } = keepPageToken(consent.paymentId, account).json<{
      transferDetails: { accountNumber: string; amount: number };
    }>().transferDetails;
    await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/${consent.paymentId}/transfer/confirm?consentId=${consent.consentId}`,
    });
    const url = `/api/events/payments/${consent.paymentId}?${pageQuery(consent, true)}`;
    let cut: TRawAnswer | undefined;
    const opened = performance.now();
    const { status, events } = await collectSse(
      base,
      url,
      (seen) => statuses(seen).includes('completed'),
      {},
      async () => {
        // While the stream is open: a slow body is cut, and time passes beyond the request
        // and connection timeouts; only then does the payment happen.
        cut = await slowRequest(slowBodyHead, '{"phone":"0803');
        const lived = performance.now() - opened;
        await new Promise((r) => setTimeout(r, OUTLIVED_MS - lived));
        const sent = await sandboxTransfer(ctx.app, { accountNumber, amount });
        expect(sent.json()).toMatchObject({ outcome: 'credited' });
      },
    );
    expect(cut?.status).toBe(408);
    expect(status).toBe(200);
    expect(statuses(events)).toEqual(['in_progress', 'completed']);
    expect(performance.now() - opened).toBeGreaterThan(OUTLIVED_MS);
  });
});

describe('the timeouts in the configuration', () => {
  it('refuses headers allowed longer than the request, and a quiet limit the heartbeat would hit', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '4000' })).toThrow(
      'Invalid configuration: HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS',
    );
    expect(() => loadConfig({ CONNECTION_TIMEOUT_MS: '15000', SSE_HEARTBEAT_MS: '15000' })).toThrow(
      'Invalid configuration: CONNECTION_TIMEOUT_MS must exceed SSE_HEARTBEAT_MS',
    );
    expect(loadConfig({}).timeouts).toEqual({
      requestMs: 120_000,
      headersMs: 20_000,
      connectionMs: 180_000,
      keepAliveMs: 72_000,
    });
  });
});

/** HEAD over real HTTP, read to its end: a stream that never ends fails by the time limit. */
async function head(url: string) {
  const response = await fetch(`${base}${url}`, {
    method: 'HEAD',
    headers: { accept: 'text/event-stream' },
    signal: AbortSignal.timeout(3_000),
  });
  const body = await response.arrayBuffer();
  return { status: response.status, headers: response.headers, bodyBytes: body.byteLength };
}

/** Each event stream with what opens it: the consent link, a card-linking or search ticket. */
async function openableStreams(): Promise<Array<[name: string, url: string]>> {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  const { token } = await signUp(ctx.app, testPhone());
  const authorization = `Bearer ${token}`;
  const ticket = await ctx.app.inject({
    method: 'POST',
    url: '/api/events/tickets',
    headers: { authorization },
    payload: { stream: 'card-linking' },
  });
  const account = SANDBOX_ACCOUNTS[0]?.accountNumber ?? '';
  const search = await ctx.app.inject({
    url: `/api/accounts/search?by=bank&q=${account}&v=new`,
    headers: { authorization },
  });
  const found = search.json<{
    banks: { results: Array<{ validationId: string }> };
    stream: { ticket: string };
  }>();
  return [
    [
      'payment',
      `/api/events/payments/${consent.paymentId}?consentId=${consent.consentId}&clientId=${consent.client.clientId}`,
    ],
    ['card-linking', `/api/events/card-linking?ticket=${ticket.json<{ ticket: string }>().ticket}`],
    [
      'bank-validation',
      `/api/events/bank-validation/${found.banks.results[0]?.validationId}?ticket=${found.stream.ticket}`,
    ],
  ];
}

describe('an event stream asked for in other ways than GET with Accept: text/event-stream', () => {
  it("answers HEAD at once with the stream's status and headers and no body", async () => {
    for (const [name, url] of await openableStreams()) {
      const answer = await head(url);
      expect({ name, status: answer.status }).toEqual({ name, status: 200 });
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      expect(answer.bodyBytes).toBe(0);
      // GET still opens it.
      const opened = await collectSse(base, url, (seen) => seen.length >= 1);
      expect({ name, status: opened.status }).toEqual({ name, status: 200 });
    }
    // Without a ticket, HEAD answers what GET would: its status, without the body.
    const refused = await head('/api/events/card-linking?ticket=est_' + 'x'.repeat(32));
    expect(refused.status).toBe(401);
    expect(refused.bodyBytes).toBe(0);
  });

  it.each([
    'application/json',
    'text/html,application/xhtml+xml',
    'text/event-stream;q=0, application/json',
  ])('answers Accept: %s with a catalogue 406', async (accept) => {
    const [[, url = ''] = []] = await openableStreams();
    const response = await ctx.app.inject({ url, headers: { accept } });
    expect(response.statusCode).toBe(406);
    expectCatalogue(response.body, 'NOT_ACCEPTABLE');
    const refused = await ctx.app.inject({
      method: 'HEAD',
      url: '/api/events/card-linking',
      headers: { accept },
    });
    expect(refused.statusCode).toBe(406);
  });
});

describe('HEAD on an event stream', () => {
  it('answers its headers and closes the connection, holding no stream', async () => {
    const [[, url = ''] = []] = await openableStreams();
    // An HTTP/1.1 request keeps its connection unless told otherwise: the server must end it.
    const answer = await slowRequest(
      `HEAD ${url} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`,
      '',
    );
    expect(answer.status).toBe(200);
    expect(answer.head).toMatch(/content-type: text\/event-stream/i);
    expect(answer.head).toMatch(/connection: close/i);
    expect(answer.body).toBe('');
    expect(ctx.app.streamSlots.open()).toBe(0);
  });
});

describe('event streams one address holds', () => {
  const MAX = 3;
  let capped: Awaited<ReturnType<typeof startTestApp>>;
  let cappedBase: string;
  beforeAll(async () => {
    capped = await startTestApp({
      env: { SSE_MAX_PER_ADDRESS: String(MAX), TRUST_PROXY: 'true' },
    });
    cappedBase = await capped.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => capped.close());

  /** Opens a stream as `address` (by X-Forwarded-For) and, when it opens, reads to its 'ready'. */
  async function open(url: string, address: string) {
    const abort = new AbortController();
    const response = await fetch(`${cappedBase}${url}`, {
      headers: { accept: 'text/event-stream', 'x-forwarded-for': address },
      signal: abort.signal,
    });
    if (response.status === 200 && response.body) {
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let seen = '';
      while (!seen.includes('event: ready')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += value;
      }
      return { status: 200, body: seen, close: () => abort.abort() };
    }
    return { status: response.status, body: await response.text(), close: () => abort.abort() };
  }

  /** Waits until `condition` holds, asking every 20 ms (the server frees a slot on its own time). */
  async function until(condition: () => boolean) {
    const deadline = Date.now() + 15_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('the condition did not come');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('refuses the stream past the cap with a catalogue 429, lets another address open, and frees a closed stream’s slot', async () => {
    const consent = await consentWithPayment(capped.app, capped.database);
    const url = `/api/events/payments/${consent.paymentId}?consentId=${consent.consentId}&clientId=${consent.client.clientId}`;
    const held = [];
    for (let i = 0; i < MAX; i++) held.push(await open(url, '203.0.113.7'));
    expect(held.map((stream) => stream.status)).toEqual(Array(MAX).fill(200));
    expect(capped.app.streamSlots.heldBy('203.0.113.7')).toBe(MAX);

    const refused = await open(url, '203.0.113.7');
    expect(refused.status).toBe(429);
    expectCatalogue(refused.body, 'TOO_MANY_STREAMS');
    // HEAD holds nothing, so it is answered even at the cap.
    const head = await fetch(`${cappedBase}${url}`, {
      method: 'HEAD',
      headers: { accept: 'text/event-stream', 'x-forwarded-for': '203.0.113.7' },
    });
    expect(head.status).toBe(200);

    const elsewhere = await open(url, '198.51.100.20');
    expect(elsewhere.status).toBe(200);

    // A client that drops its stream (the socket torn down, no goodbye) frees its slot.
    held[0]?.close();
    await until(() => capped.app.streamSlots.heldBy('203.0.113.7') === MAX - 1);
    const again = await open(url, '203.0.113.7');
    expect(again.status).toBe(200);

    for (const stream of [...held, elsewhere, again]) stream.close();
    await until(() => capped.app.streamSlots.open() === 0);
  });
});

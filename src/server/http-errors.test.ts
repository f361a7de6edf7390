import { connect } from 'node:net';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isErrorCode } from '../domain/errors';
import { handleError } from './http-errors';
import { startTestApp } from './testing/test-app';

// Every refusal carries the catalogue shape, including what Fastify's router and Node's HTTP
// parser refuse before any route runs. The raw ones need a real socket, so the app listens.

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let port: number;

beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  port = address.port;
});
afterAll(() => ctx.close());

/** Sends raw bytes and reads everything the server answers until it closes or goes quiet. */
function rawRequest(bytes: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const finish = () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body });
    };
    socket.setTimeout(3_000, () => socket.destroy());
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('close', finish);
    socket.on('error', (error) => (answer ? finish() : reject(error)));
    socket.write(bytes);
  });
}

function expectCatalogue(body: string, code: string) {
  const parsed = JSON.parse(body) as { success: boolean; error: { code: string; message: string } };
  expect(parsed.success).toBe(false);
  expect(parsed.error.code).toBe(code);
  expect(isErrorCode(parsed.error.code)).toBe(true);
  expect(parsed.error.message.length).toBeGreaterThan(0);
}

describe('refusals before any route runs', () => {
  it.each(['/api/consent/%zz?clientId=x', '/api/consent/a%E0%A4%A?clientId=x'])(
    'answers bad percent-encoding (%s) with a catalogue 400',
    async (url) => {
      const response = await ctx.app.inject({ url });
      expect(response.statusCode).toBe(400);
      expectCatalogue(response.body, 'VALIDATION_FAILED');
    },
  );

  it('answers an over-long path parameter with a catalogue 414', async () => {
    const response = await ctx.app.inject({ url: `/api/consent/${'a'.repeat(1_000)}?clientId=x` });
    expect(response.statusCode).toBe(414);
    expectCatalogue(response.body, 'URL_TOO_LONG');
  });

  it('answers a body of the wrong type with a catalogue 415, and one too large with 413', async () => {
    const xml = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/phone-codes',
      headers: { 'content-type': 'application/xml' },
      payload: '<phone/>',
    });
    expect(xml.statusCode).toBe(415);
    expectCatalogue(xml.body, 'UNSUPPORTED_MEDIA_TYPE');
    const huge = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/phone-codes',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ phone: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expectCatalogue(huge.body, 'PAYLOAD_TOO_LARGE');
  });

  it('answers headers too large for Node with a catalogue 431', async () => {
    const answer = await rawRequest(
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expectCatalogue(answer.body, 'HEADERS_TOO_LARGE');
  });

  it.each([
    ['a malformed request line', 'NOT A REQUEST\r\n\r\n'],
    ['a bad header line', 'GET /api/health HTTP/1.1\r\nHost localhost\r\n\r\n'],
    [
      'a bad chunked body',
      'POST /api/auth/discovery HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ],
  ])('answers %s with a catalogue 400', async (_name, bytes) => {
    const answer = await rawRequest(bytes);
    expect(answer.status).toBe(400);
    expectCatalogue(answer.body, 'VALIDATION_FAILED');
  });

  it('still serves a well-formed request on the same server', async () => {
    const answer = await rawRequest(
      'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer.status).toBe(200);
  });
});

describe('a body no option of a union matches', () => {
  it('names the field of the option it came closest to, at its full path, inside arrays too', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setErrorHandler(handleError);
    const ZItem = z.union([
      z.strictObject({ kind: z.literal('note'), text: z.string() }),
      z.strictObject({ kind: z.literal('amount'), amount: z.number(), currency: z.string() }),
    ]);
    app
      .withTypeProvider<ZodTypeProvider>()
      .post('/items', { schema: { body: z.object({ items: z.array(ZItem) }) } }, () => ({}));
    try {
      const refused = (items: unknown[]) =>
        app.inject({ method: 'POST', url: '/items', payload: { items } });
      const messages = [];
      for (const items of [
        [
          { kind: 'note', text: 'a' },
          { kind: 'amount', amount: '12', currency: 'NGN' },
        ],
        [{ kind: 'note' }],
      ]) {
        const response = await refused(items);
        expect(response.statusCode).toBe(400);
        messages.push(response.json().error.message);
      }
      expect(messages).toEqual([
        'items.1.amount: Invalid input: expected number, received string',
        'items.0.text: Invalid input: expected string, received undefined',
      ]);
    } finally {
      await app.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consents } from '../db/schema';
import { MAX_JSON_DEPTH } from '../json-body';
import { createTestClient, startTestApp } from '../testing/test-app';

// Requests that once answered 500 (a database refusing a NUL byte, a lone surrogate or year 0,
// a stack overflowing on deep JSON): each is now a 400 naming the field, and writes nothing.

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let client: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  ctx = await startTestApp();
  client = await createTestClient(ctx.database, { name: 'Iya Basira Kitchen' });
});
afterAll(() => ctx.close());

const immediate = { type: 'immediate', amount: 150_000, narration: 'Lunch order' };

/** POST /api/v1/consents with a raw JSON text, so escapes such as \ud800 reach the server as sent. */
const postRaw = (json: string, authorization = client.authorization) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization, 'content-type': 'application/json' },
    payload: json,
  });

const consentCount = async () => (await ctx.database.db.select().from(consents)).length;

function expectFieldRefused(
  response: Awaited<ReturnType<typeof postRaw>>,
  field: string,
  status = 400,
) {
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe('VALIDATION_FAILED');
  expect(body.error.message.startsWith(`${field}: `)).toBe(true);
}

describe('strings the database cannot hold', () => {
  it.each([
    ['a NUL byte', String.raw`"Lunch\u0000order"`],
    ['a lone surrogate', String.raw`"Lunch \ud800"`],
    ['a right-to-left override', String.raw`"Lunch \u202e"`],
  ])('refuses %s in a narration, naming the field', async (_name, narration) => {
    const before = await consentCount();
    const response = await postRaw(
      `{"payments":[{"type":"immediate","amount":100,"narration":${narration}}]}`,
    );
    expectFieldRefused(response, 'payments.0.narration');
    expect(await consentCount()).toBe(before);
  });

  it('refuses a NUL byte or a lone surrogate in a path parameter', async () => {
    for (const id of ['%00', 'cns_%ED%A0%80', 'cns_%F0%9F']) {
      const response = await ctx.app.inject({ url: `/api/consent/${id}?clientId=cli_x` });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a NUL byte in a query parameter, naming it', async () => {
    const response = await ctx.app.inject({ url: '/api/consent/cns_x?clientId=cli%00x' });
    expectFieldRefused(response, 'clientId');
  });

  it('refuses a repeated query parameter, naming it', async () => {
    const response = await ctx.app.inject({ url: '/api/consent/cns_x?clientId=a&clientId=b' });
    expectFieldRefused(response, 'clientId');
  });

  it('answers a Basic clientId holding a NUL byte, or 10,000 characters, with the usual 401', async () => {
    for (const clientId of [`${client.clientId}\u0000`, 'c'.repeat(10_000), '\ud800']) {
      const authorization = `Basic ${Buffer.from(`${clientId}:${client.secret}`).toString('base64')}`;
      const response = await postRaw(JSON.stringify({ payments: [immediate] }), authorization);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('INVALID_CLIENT_CREDENTIALS');
    }
  });

  it('refuses a lone surrogate in a phone number', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/phone-codes',
      headers: { 'content-type': 'application/json' },
      payload: String.raw`{"phone":"0803\ud800"}`,
    });
    expectFieldRefused(response, 'phone');
  });
});

describe('dates and sizes out of range', () => {
  it.each(['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '9999-12-31T23:59:59Z'])(
    'refuses the due date %s, naming it',
    async (dueDate) => {
      const payment = { type: 'future', amount: 100, narration: 'Rent', dueDate };
      const response = await postRaw(JSON.stringify({ payments: [payment] }));
      expectFieldRefused(response, 'payments.0.dueDate');
    },
  );

  it('refuses an expiry in year 0, naming it', async () => {
    const response = await postRaw(
      JSON.stringify({ payments: [immediate], expiresAt: '0000-01-01T00:00:00Z' }),
    );
    expectFieldRefused(response, 'expiresAt');
  });

  it('refuses an endDate before its startDate', async () => {
    const payment = {
      type: 'future',
      amount: 100,
      narration: 'Rent',
      startDate: '2027-03-01',
      endDate: '2027-02-01',
    };
    expectFieldRefused(
      await postRaw(JSON.stringify({ payments: [payment] })),
      'payments.0.endDate',
    );
  });

  it.each([
    ['a time before year 1', '-005000-01-01T00:00:00Z|cns_x'],
    ['a time past what PostgreSQL holds', '+275760-09-13T00:00:00Z|cns_x'],
    ['a NUL in the id', '2027-01-01T00:00:00Z|cns_\u0000x'],
  ])('refuses a list cursor holding %s, naming it', async (_name, content) => {
    const cursor = Buffer.from(content, 'utf8').toString('base64url');
    const response = await ctx.app.inject({
      url: `/api/v1/consents?cursor=${cursor}`,
      headers: { authorization: client.authorization },
    });
    expect(response.json()).toEqual({
      success: false,
      error: { code: 'VALIDATION_FAILED', message: 'cursor: must be a nextCursor this list gave' },
    });
  });

  it('refuses a consent that asks for nothing', async () => {
    expectFieldRefused(await postRaw('{}'), 'payments');
  });

  it('refuses 50,000 data-sharing items, naming the field', async () => {
    const items = Array.from({ length: 50_000 }, (_, i) => `i${i}`);
    const response = await postRaw(JSON.stringify({ dataSharing: { bankAccounts: items } }));
    expectFieldRefused(response, 'dataSharing.bankAccounts');
  });

  it.each([
    ['arrays', '['.repeat(5_000) + ']'.repeat(5_000)],
    ['objects', '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000)],
  ])(
    `refuses JSON %s nested deeper than ${MAX_JSON_DEPTH} levels before parsing it`,
    async (_kind, json) => {
      const response = await postRaw(json);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: 'VALIDATION_FAILED',
        message: `body: is nested deeper than ${MAX_JSON_DEPTH} levels`,
      });
    },
  );

  it('still reads brackets inside strings as text, not nesting', async () => {
    const narration = '['.repeat(100);
    const response = await postRaw(
      JSON.stringify({ payments: [{ ...immediate, narration: narration.slice(0, 140) }] }),
    );
    expect(response.statusCode).toBe(201);
  });
});

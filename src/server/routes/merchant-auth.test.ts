// Merchant client secrets: HMAC-SHA-256 under a server key, scrypt hashes of before still accepted
// and replaced on their first success, and one 401 for every way of being wrong, with the Basic
// challenge a client may wait for before it sends credentials. That an answer's time tells no right
// secret, wrong secret or unknown client id apart is a benchmark: bench/merchant-auth.ts.
import { execFile } from 'node:child_process';
import { createHmac, randomBytes, scryptSync } from 'node:crypto';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../domain/errors';
import { apiClients, serverSecrets } from '../db/schema';
import { createTestClient, useTestApp } from '../testing/test-app';

const ctx = useTestApp();

const body = { payments: [{ type: 'immediate', amount: 250_000, narration: 'Order 17' }] };

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

let addressSeq = 0;
const newAddress = () => {
  addressSeq += 1;
  return `10.6.${addressSeq >> 8}.${addressSeq & 255}`;
};

/** Each call from its own address, so the limits on failures stay out of these tests. */
const post = (authorization: string | undefined) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    remoteAddress: newAddress(),
    headers: authorization === undefined ? {} : { authorization },
    payload: body,
  });

const storedHash = async (clientId: string) => {
  const [row] = await ctx.database.db
    .select({ secretHash: apiClients.secretHash })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId));
  return row?.secretHash ?? '';
};

/** How secrets were stored before HMAC (src/server/crypto/secret-hash.ts at 3a280bb). */
function scryptHash(secret: string): string {
  const [N, r, p] = [16384, 8, 1];
  const salt = randomBytes(16);
  const hash = scryptSync(secret, salt, 32, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

describe('merchant client secrets', () => {
  it('stores a new secret as an HMAC-SHA-256 under the server key, never the secret itself', async () => {
    const client = await createTestClient(ctx.database);

    const stored = await storedHash(client.clientId);

    expect(stored.startsWith('hmac-sha256$')).toBe(true);
    expect(stored).not.toContain(client.secret);
    const [key] = await ctx.database.db
      .select()
      .from(serverSecrets)
      .where(eq(serverSecrets.name, 'client-secret-key'));
    const expected = createHmac('sha256', Buffer.from(key?.value ?? '', 'base64url'))
      .update(client.secret)
      .digest('base64url');
    expect(stored).toBe(`hmac-sha256$${expected}`);
    expect((await post(client.authorization)).statusCode).toBe(201);
  });

  it('accepts a secret stored as scrypt before, replaces it with an HMAC on success, and accepts it again', async () => {
    const client = await createTestClient(ctx.database);
    const legacy = scryptHash(client.secret);
    await ctx.database.db
      .update(apiClients)
      .set({ secretHash: legacy })
      .where(eq(apiClients.clientId, client.clientId));

    // A wrong secret neither passes nor replaces the hash.
    expect((await post(basic(`${client.clientId}:sk_wrong`))).statusCode).toBe(401);
    expect(await storedHash(client.clientId)).toBe(legacy);

    expect((await post(client.authorization)).statusCode).toBe(201);
    const upgraded = await storedHash(client.clientId);
    expect(upgraded.startsWith('hmac-sha256$')).toBe(true);
    expect(upgraded).not.toContain(client.secret);

    expect((await post(client.authorization)).statusCode).toBe(201);
    expect(await storedHash(client.clientId)).toBe(upgraded);
  });

  it('answers every way of being wrong with one and the same 401 body', async () => {
    const { clientId: knownClientId } = await createTestClient(ctx.database);
    const ways: Array<[string, string | undefined]> = [
      ['a wrong secret for a known client', basic(`${knownClientId}:sk_wrong`)],
      ['an unknown client id', basic(`cli_${randomBytes(9).toString('base64url')}:sk_x`)],
      ['no Authorization header', undefined],
      ['a Bearer token', 'Bearer sk_x'],
      ['Basic with bad base64', 'Basic %%%not-base64%%%'],
      ['Basic without a colon', basic('cli_nobody')],
      ['Basic with an empty client id', basic(':sk_x')],
      ['a client id with a NUL byte', basic(`${knownClientId}\u0000:sk_x`)],
      ['a client id of 10,000 characters', basic(`${'c'.repeat(10_000)}:sk_x`)],
    ];

    const answers = [];
    for (const [way, authorization] of ways) {
      const response = await post(authorization);
      answers.push([
        way,
        response.statusCode,
        response.json(),
        response.headers['www-authenticate'],
      ]);
    }

    const refused = errorBody('INVALID_CLIENT_CREDENTIALS');
    expect(refused.error.message).toBe('Invalid client credentials');
    expect(answers).toEqual(
      ways.map(([way]) => [way, 401, refused, 'Basic realm="Oya merchant API", charset="UTF-8"']),
    );
  });

  it('challenges on every merchant route, and answers a success without a challenge', async () => {
    const client = await createTestClient(ctx.database);
    const routes = [
      { method: 'GET', url: '/api/v1/client' },
      { method: 'GET', url: '/api/v1/consents/consent_nobody' },
      { method: 'GET', url: '/api/v1/webhooks' },
    ] as const;
    for (const route of routes) {
      const refused = await ctx.app.inject({ ...route, remoteAddress: newAddress() });
      expect([route.url, refused.statusCode, refused.headers['www-authenticate']]).toEqual([
        route.url,
        401,
        'Basic realm="Oya merchant API", charset="UTF-8"',
      ]);
    }
    const answered = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/client',
      remoteAddress: newAddress(),
      headers: { authorization: client.authorization },
    });
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['www-authenticate']).toBeUndefined();
  });
});

describe('a client that waits for the challenge', () => {
  let base = '';
  beforeAll(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('creates a consent with curl --anyauth, which sends its credentials only once challenged', async () => {
    const client = await createTestClient(ctx.database);
    const { stdout, stderr } = await promisify(execFile)(
      'curl',
      [
        '--silent',
        '--show-error',
        '--verbose',
        '--anyauth',
        '--user',
        `${client.clientId}:${client.secret}`,
        '--header',
        'Content-Type: application/json',
        '--data',
        JSON.stringify(body),
        '--write-out',
        '\n%{http_code}',
        `${base}/api/v1/consents`,
      ],
      { timeout: 60_000 },
    );
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('201');
    expect(JSON.parse(lines.slice(0, -1).join('\n'))).toMatchObject({ success: true });
    // The first request went without credentials, the second with them, after the challenge.
    const sent = stderr.split('\n').filter((line) => /^> (POST|Authorization)/i.test(line));
    expect(sent.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      '> POST',
      '> POST',
      '> Authorization:',
    ]);
    expect(stderr).toMatch(/^< WWW-Authenticate: Basic realm="Oya merchant API"/im);
  });
});

// A merchant's client (docs/merchant-clients.md): its read, secret rotation with a grace period,
// origin changes, and the operator's calls, on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { webOriginProblem } from '../../domain/web-origin';
import { buildApp } from '../app';
import { apiClients } from '../db/schema';
import { embedOriginsOfConsent } from '../services/merchants/embed-origins';
import { changeClientOrigins } from '../services/merchants/merchant-clients';
import {
  createTestClient,
  openTestDatabase,
  startTestApp,
  useTestApp,
  testClock,
  testConfig,
} from '../testing/test-app';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';
const clock = testClock('2026-11-23T10:00:00Z');
const ctx = useTestApp({ clock, operatorToken: OPERATOR_TOKEN });

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

const readClient = (authorization: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/client', headers: { authorization } });

const rotate = (authorization: string, body?: object) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/client/secret',
    headers: { authorization },
    ...(body ? { payload: body } : {}),
  });

describe('GET /api/v1/client', () => {
  it('answers the client, its origins and no secret', async () => {
    const client = await createTestClient(ctx.database, { origins: ['https://shop.example'] });
    const response = await readClient(client.authorization);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      clientId: client.clientId,
      merchantId: client.merchantId,
      allowedOrigins: ['https://shop.example'],
      previousSecretValidUntil: null,
    });
    expect(response.body).not.toContain(client.secret);
  });
});

describe('POST /api/v1/client/secret', () => {
  it('gives a new secret and keeps the old one valid for the grace period, then not', async () => {
    const client = await createTestClient(ctx.database);
    const response = await rotate(client.authorization, { graceHours: 2 });
    expect(response.statusCode).toBe(201);
    const rotated = response.json<{ secret: string; previousSecretValidUntil: string }>();
    expect(rotated.secret).toMatch(/^sk_/);
    expect(rotated.secret).not.toBe(client.secret);
    expect(rotated.previousSecretValidUntil).toBe(
      new Date(clock.now().getTime() + 2 * 3_600_000).toISOString(),
    );
    const fresh = basic(client.clientId, rotated.secret);
    expect((await readClient(fresh)).statusCode).toBe(200);
    expect((await readClient(client.authorization)).statusCode).toBe(200);
    expect((await readClient(fresh)).json()).toMatchObject({
      previousSecretValidUntil: rotated.previousSecretValidUntil,
    });

    clock.advance(2 * 3_600_000 + 1);
    const old = await readClient(client.authorization);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual({
      success: false,
      error: { code: 'INVALID_CLIENT_CREDENTIALS', message: 'Invalid client credentials' },
    });
    expect((await readClient(fresh)).json()).toMatchObject({ previousSecretValidUntil: null });
  });

  it('defaults to 24 hours of grace; 0 ends the old secret at once', async () => {
    const client = await createTestClient(ctx.database);
    const first = (await rotate(client.authorization)).json<{
      secret: string;
      previousSecretValidUntil: string;
    }>();
    expect(first.previousSecretValidUntil).toBe(
      new Date(clock.now().getTime() + 24 * 3_600_000).toISOString(),
    );
    const second = await rotate(basic(client.clientId, first.secret), { graceHours: 0 });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ previousSecretValidUntil: null });
    expect((await readClient(basic(client.clientId, first.secret))).statusCode).toBe(401);
    // The first rotation's replaced secret was the one before it; a rotation without grace
    // ends it too, so no secret but the newest works.
    expect((await readClient(client.authorization)).statusCode).toBe(401);
    const newest = second.json<{ secret: string }>().secret;
    expect((await readClient(basic(client.clientId, newest))).statusCode).toBe(200);
  });

  it('retried with the old secret (its answer lost), replaces the lost secret and keeps the old one only as long as before', async () => {
    const client = await createTestClient(ctx.database);
    const lost = (await rotate(client.authorization, { graceHours: 1 })).json<{
      secret: string;
      previousSecretValidUntil: string;
    }>();
    clock.advance(10 * 60_000);
    const retry = await rotate(client.authorization, { graceHours: 48 });
    expect(retry.statusCode).toBe(201);
    const kept = retry.json<{ secret: string; previousSecretValidUntil: string }>();
    expect(kept.previousSecretValidUntil).toBe(lost.previousSecretValidUntil);
    expect((await readClient(basic(client.clientId, lost.secret))).statusCode).toBe(401);
    expect((await readClient(basic(client.clientId, kept.secret))).statusCode).toBe(200);
    expect((await readClient(client.authorization)).statusCode).toBe(200);
  });

  it(
    'two rotations with the same secret at once: one gets the new secret, the other a 409',
    { tags: ['postgres'] },
    async () => {
      const client = await createTestClient(ctx.database);
      const answers = await Promise.all([
        rotate(client.authorization),
        rotate(client.authorization),
      ]);
      const statuses = answers.map((a) => a.statusCode).sort();
      // Both may pass the guard before either UPDATE runs: the first replaces the secret, and
      // the second, presenting what is now the replaced one, replaces the new secret instead.
      // Either way, one client id never ends up with two valid new secrets.
      const created = answers.filter((a) => a.statusCode === 201).map((a) => a.json().secret);
      const valid = [];
      for (const secret of created) {
        if ((await readClient(basic(client.clientId, secret))).statusCode === 200)
          valid.push(secret);
      }
      expect(valid).toHaveLength(1);
      for (const answer of answers.filter((a) => a.statusCode !== 201)) {
        expect(answer.statusCode).toBe(409);
        expect(answer.json().error.code).toBe('CLIENT_SECRET_CHANGED');
      }
      expect(statuses[0]).toBe(201);
    },
  );

  it('refuses a grace period out of range', async () => {
    const client = await createTestClient(ctx.database);
    for (const graceHours of [-1, 169, 1.5]) {
      const response = await rotate(client.authorization, { graceHours });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await readClient(client.authorization)).statusCode).toBe(200);
  });
});

describe('PATCH /api/v1/client/origins', () => {
  const change = (authorization: string, payload: object) =>
    ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/client/origins',
      headers: { authorization },
      payload,
    });

  it('adds then removes origins, without repeats, in the order first added', async () => {
    const client = await createTestClient(ctx.database, { origins: ['https://a.example'] });
    const response = await change(client.authorization, {
      add: ['https://b.example', 'https://a.example', 'http://localhost:8080', 'https://b.example'],
      remove: ['https://a.example'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      allowedOrigins: ['https://b.example', 'http://localhost:8080'],
    });
    expect((await readClient(client.authorization)).json().allowedOrigins).toEqual([
      'https://b.example',
      'http://localhost:8080',
    ]);
  });

  it('two changes at once both land', { tags: ['postgres'] }, async () => {
    const client = await createTestClient(ctx.database);
    await Promise.all([
      change(client.authorization, { add: ['https://one.example'] }),
      change(client.authorization, { add: ['https://two.example'] }),
    ]);
    const origins = (await readClient(client.authorization)).json().allowedOrigins;
    expect([...origins].sort()).toEqual(['https://one.example', 'https://two.example']);
  });

  it(
    'keeps a client to 50 origins, however many changes arrive at once',
    { tags: ['postgres'] },
    async () => {
      const client = await createTestClient(ctx.database);
      const batch = (from: number) =>
        Array.from({ length: 20 }, (_, n) => `https://shop${from + n}.example`);
      const answers = await Promise.all(
        [0, 20, 40].map((from) => change(client.authorization, { add: batch(from) })),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 400]);
      const refused = answers.find((a) => a.statusCode === 400);
      expect(refused?.json().error.message).toBe('add: a client has at most 50 origins');
      expect((await readClient(client.authorization)).json().allowedOrigins).toHaveLength(40);
    },
  );

  it('refuses an empty change and an origin that is not http(s)', async () => {
    const client = await createTestClient(ctx.database);
    for (const payload of [{}, { add: [] }, { add: ['ftp://files.example'] }]) {
      const response = await change(client.authorization, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  // Each of these went into the consent page's frame-ancestors (probe finding 4): a comma ends
  // the policy, a wildcard lets any subdomain frame the page.
  it.each([
    ['two origins in one', 'https://x.example,https://y.example'],
    ['a wildcard', 'https://*.example'],
    ['a path', 'https://shop.example/pay'],
    ['a trailing slash', 'https://shop.example/'],
    ['a user', 'https://user@shop.example'],
    ['an uppercase host', 'https://Shop.example'],
    ['the default port', 'https://shop.example:443'],
    ['an IDN not in its xn-- form', 'https://bücher.example'],
    ['http to a host that is not localhost', 'http://shop.example'],
    ['a space', 'https://shop.example https://y.example'],
    ["the opaque origin's name", 'null'],
  ])('refuses %s with 400 naming the field and why, and keeps the list', async (_what, origin) => {
    const client = await createTestClient(ctx.database, { origins: ['https://a.example'] });
    const response = await change(client.authorization, { add: ['https://b.example', origin] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      error: { code: 'VALIDATION_FAILED', message: `add.1: ${webOriginProblem(origin)}` },
    });
    expect((await readClient(client.authorization)).json().allowedOrigins).toEqual([
      'https://a.example',
    ]);
  });

  it('removes an origin stored before the rule as it is written, and refuses a near miss', async () => {
    const client = await createTestClient(ctx.database, { origins: ['https://a.example'] });
    const stray = 'https://a.example,b.example';
    await ctx.database.db
      .update(apiClients)
      .set({ allowedOrigins: ['https://a.example', stray] })
      .where(eq(apiClients.clientId, client.clientId));

    const nearMiss = await change(client.authorization, { remove: ['https://a.example/'] });
    expect(nearMiss.statusCode).toBe(400);
    expect(nearMiss.json().error.message).toBe(
      `remove.0: ${webOriginProblem('https://a.example/')}`,
    );
    const removed = await change(client.authorization, { remove: [stray] });
    expect(removed.json()).toEqual({ success: true, allowedOrigins: ['https://a.example'] });
  });
});

describe('origins stored before the rule', () => {
  it('stop the start with one line naming the client and the origin, and are not framed meanwhile', async () => {
    const database = await openTestDatabase();
    try {
      const client = await createTestClient(database, { origins: ['https://shop.example'] });
      const stray = 'https://x.example,https://y.example';
      await database.db
        .update(apiClients)
        .set({ allowedOrigins: ['https://shop.example', stray, 'https://*.example'] })
        .where(eq(apiClients.clientId, client.clientId));
      // What the page's frame-ancestors is built from, had a server started anyway.
      expect(await embedOriginsOfConsent(database.db, 'cns_none', client.clientId)).toEqual([
        'https://shop.example',
      ]);

      const start = () =>
        buildApp({ config: testConfig(), database, logger: false, webhookDelivery: 'manual' });
      await expect(start()).rejects.toThrow(
        new Error(
          `Client ${client.clientId}: the embedding origin "${stray}" must be one origin (no commas): register each origin apart (and 1 more). Remove it (npm run client:origins -- --client ${client.clientId} --remove "${stray}") and register each origin as a browser writes it.`,
        ),
      );

      await changeClientOrigins(database.db, client.clientId, {
        remove: [stray, 'https://*.example'],
      });
      const app = await start();
      await app.close();
    } finally {
      await database.close();
    }
  });
});

describe('the operator calls', () => {
  const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

  it('create a client, rotate its secret, change its origins and register a webhook', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/operator/clients',
      headers: operator,
      payload: { name: 'Tola Stores', origins: ['https://shop.tola.example'] },
    });
    expect(created.statusCode).toBe(201);
    const { clientId, secret } = created.json<{ clientId: string; secret: string }>();
    expect((await readClient(basic(clientId, secret))).json().allowedOrigins).toEqual([
      'https://shop.tola.example',
    ]);

    const rotated = await ctx.app.inject({
      method: 'POST',
      url: `/api/operator/clients/${clientId}/secret`,
      headers: operator,
      payload: { graceHours: 1 },
    });
    expect(rotated.statusCode).toBe(201);
    expect((await readClient(basic(clientId, rotated.json().secret))).statusCode).toBe(200);
    expect((await readClient(basic(clientId, secret))).statusCode).toBe(200);

    const origins = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/operator/clients/${clientId}/origins`,
      headers: operator,
      payload: { add: ['https://staging.tola.example'] },
    });
    expect(origins.json().allowedOrigins).toEqual([
      'https://shop.tola.example',
      'https://staging.tola.example',
    ]);

    const webhook = await ctx.app.inject({
      method: 'POST',
      url: `/api/operator/clients/${clientId}/webhooks`,
      headers: operator,
      payload: { url: 'https://shop.tola.example/hooks' },
    });
    expect(webhook.statusCode).toBe(201);
    expect(webhook.json().secret).toMatch(/^whsec_/);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/webhooks',
      headers: { authorization: basic(clientId, rotated.json().secret) },
    });
    expect(listed.json().webhooks).toEqual([
      expect.objectContaining({ url: 'https://shop.tola.example/hooks' }),
    ]);
  });

  it('refuse to create a client with an origin that is not one, naming it', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/operator/clients',
      headers: operator,
      payload: { name: 'Tola Stores', origins: ['https://shop.tola.example', 'https://*.example'] },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().error).toEqual({
      code: 'VALIDATION_FAILED',
      message: `origins.1: ${webOriginProblem('https://*.example')}`,
    });
  });

  it('answer 404 for an unknown client', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/operator/clients/cli_nobody', undefined],
      ['POST', '/api/operator/clients/cli_nobody/secret', {}],
      ['PATCH', '/api/operator/clients/cli_nobody/origins', { add: ['https://x.example'] }],
      ['POST', '/api/operator/clients/cli_nobody/webhooks', { url: 'https://x.example/h' }],
    ] as const) {
      const response = await ctx.app.inject({ method, url, headers: operator, payload });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({
        success: false,
        error: { code: 'CLIENT_NOT_FOUND', message: 'No client has this client id' },
      });
    }
  });

  it('refuse a wrong or missing token with the Bearer challenge, and every call of a server started without one', async () => {
    const challenges = {
      none: 'Bearer realm="Oya operator API"',
      wrong: 'Bearer realm="Oya operator API", error="invalid_token"',
    };
    for (const [authorization, challenge] of [
      [undefined, challenges.none],
      ['Bearer wrong', challenges.wrong],
      [`Basic ${OPERATOR_TOKEN}`, challenges.none],
    ] as const) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/operator/clients',
        headers: authorization ? { authorization } : {},
        payload: { name: 'X' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('INVALID_ADMIN_TOKEN');
      expect(response.headers['www-authenticate']).toBe(challenge);
    }
    const bare = await startTestApp({});
    try {
      const response = await bare.app.inject({
        method: 'POST',
        url: '/api/operator/clients',
        headers: { authorization: 'Bearer ' },
        payload: { name: 'X' },
      });
      expect(response.statusCode).toBe(401);
    } finally {
      await bare.close();
    }
  });
});

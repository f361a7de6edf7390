// The OpenAPI 3.1 document (docs/openapi.md): served, valid by a real validator, complete, and
// held against real answers (every test app checks its answers and webhooks against it:
// testing/openapi-answers.ts, wired into startTestApp).
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, isErrorCode } from '../../domain/errors';
import { WEBHOOK_EVENT_TYPES } from '../../domain/schemas/webhooks';
import { merchantEvents } from '../db/schema';
import { DOCUMENTED_OUTSIDE_API, UNDOCUMENTED_ROUTES } from '../openapi/openapi-content';
import {
  openApiChecker,
  openApiPath,
  webhookMismatches,
  type TOpenApiDocument,
} from '../testing/openapi-answers';
import { createTestClient, startTestApp } from '../testing/test-app';

type TTestApp = Awaited<ReturnType<typeof startTestApp>>;
type TMedia = { schema?: unknown; examples?: Record<string, { value: unknown }> };
type TOperation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, unknown>>;
  requestBody?: { content: Record<string, TMedia> };
  responses: Record<string, { description?: string; content?: Record<string, TMedia> }>;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
};
type TDocument = TOpenApiDocument & {
  openapi: string;
  paths: Record<string, Record<string, TOperation>>;
  webhooks: Record<string, { post: TOperation }>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
};

let test: TTestApp;
let document: TDocument;

/**
 * The document as a deployed server serves it: its `servers` entry is the server's PUBLIC_URL
 * (a developer's own server names localhost, as it should).
 */
const DEPLOYED_URL = 'https://pay.oya.test';

beforeAll(async () => {
  test = await startTestApp({ env: { PUBLIC_URL: DEPLOYED_URL } });
  const response = await test.app.inject({ method: 'GET', url: '/api/openapi.json' });
  document = response.json<TDocument>();
});
afterAll(() => test.close());

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );

/** A JSON pointer into the document, as linters report places (RFC 6901). */
const pointerOf = (...keys: string[]) =>
  `#/${keys.map((key) => key.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/** Problems the linter finds that are let through, each with why: rule → the places it reports. */
const LINT_LET_THROUGH: Record<string, string[]> = {
  // GET /api/consent/payment-request/{id} is spec §7's, and every released embed script
  // (sdk-releases/) calls /api/consent/{consentId}/embed-check. Only a consent id
  // 'payment-request' would fit both, and consent ids are `cns_…`; the router takes the fixed
  // segment first.
  'no-ambiguous-paths': [pointerOf('paths', '/api/consent/payment-request/{paymentRequestId}')],
};

let documentProblems: Promise<string[]> | undefined;
/** The served document's problems, linted once for the tests that ask. */
const servedDocumentProblems = () => (documentProblems ??= lintProblems(document));

/** The linter's problems with a document, each as `severity rule at place: message`. */
async function lintProblems(linted: unknown): Promise<string[]> {
  const source = 'openapi.json';
  const ignore = {
    [source]: Object.fromEntries(
      Object.entries(LINT_LET_THROUGH).map(([rule, places]) => [rule, new Set(places)]),
    ),
  };
  // Redocly's `recommended` rules, all of them, as a merchant's toolchain would lint it.
  const config = await createConfig({ extends: ['recommended'] }, { ignore });
  const problems = await lintFromString({
    source: JSON.stringify(linted),
    absoluteRef: source,
    config,
  });
  return problems
    .filter((problem) => !problem.ignored)
    .map(
      ({ severity, ruleId, location, message }) =>
        `${severity} ${ruleId} at ${location[0]?.pointer ?? ''}: ${message}`,
    );
}

describe('the OpenAPI document', () => {
  it('is served at /api/openapi.json as OpenAPI 3.1, public and cacheable', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(document.openapi).toBe('3.1.0');
  });

  it('passes a real OpenAPI validator (swagger-parser), which refuses a broken copy', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    const broken = structuredClone(document) as unknown as Record<string, unknown>;
    delete broken.info;
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/info/);
  });

  it('names every operation, webhooks too, with a unique operationId and a summary', () => {
    const named = [
      ...operations().map(({ path, method, operation }) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
      ...Object.entries(document.webhooks).map(([type, { post }]) => ({
        key: `webhook ${type}`,
        operation: post,
      })),
    ];
    expect(named.length).toBeGreaterThan(100);
    const unnamed = named.filter(({ operation }) => !operation.operationId || !operation.summary);
    expect(unnamed.map(({ key }) => key)).toEqual([]);
    const ids = named.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, at) => ids.indexOf(id) !== at)).toEqual([]);
    // What a generated client calls its methods: identifiers, and a summary is one line.
    for (const { key, operation } of named) {
      expect(operation.operationId, key).toMatch(/^[a-z][A-Za-z0-9]*$|^webhook\.[a-z_.]+$/);
      expect(operation.summary, key).not.toMatch(/\n|\.$/);
    }
  });

  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    expect(await servedDocumentProblems()).toEqual([]);
  });

  it('names its licence and the deployed server’s PUBLIC_URL', () => {
    const { info, servers } = document as unknown as {
      info: { license: { name: string; identifier: string } };
      servers: Array<{ url: string }>;
    };
    expect(info.license).toEqual({
      name: 'Proprietary: used under the merchant agreement',
      identifier: 'LicenseRef-Proprietary',
    });
    expect(servers.map(({ url }) => url)).toEqual([DEPLOYED_URL]);
  });

  it('names no localhost server when a developer’s own server publishes it, and lints clean', async () => {
    const local = await startTestApp();
    try {
      expect(local.app.appContext.config.publicUrl).toMatch(/^http:\/\/localhost:/);
      const served = await local.app.inject({ method: 'GET', url: '/api/openapi.json' });
      const localDocument = served.json<{ servers: Array<{ url: string }> }>();
      expect(localDocument.servers.map(({ url }) => url)).toEqual(['/']);
      expect(await lintProblems(localDocument)).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('fails the linter for an operation without an operationId or a summary, a repeated id, and a local server', async () => {
    const broken = structuredClone(document);
    const health = broken.paths['/api/health']?.get;
    const ready = broken.paths['/api/health/ready']?.get;
    if (!health || !ready) throw new Error('no health operations');
    delete health.operationId;
    delete health.summary;
    ready.operationId = 'getPublicConfig';
    (broken as unknown as { servers: Array<{ url: string }> }).servers = [
      { url: 'http://localhost:3999' },
    ];
    const served = await servedDocumentProblems();
    const found = (await lintProblems(broken)).filter((problem) => !served.includes(problem));
    expect(found).toEqual([
      expect.stringMatching(/^warn no-server-example.com at #\/servers\/0\/url:/),
      expect.stringMatching(/^warn operation-operationId at #\/paths\/~1api~1health\/get\//),
      expect.stringMatching(/^error operation-summary at #\/paths\/~1api~1health\/get\//),
      expect.stringMatching(/^error operation-operationId-unique at .*: .*unique `operationId`/),
    ]);
  });

  it('names only formats that JSON Schema and OpenAPI define, which validators and generators know', () => {
    const named: string[] = [];
    JSON.stringify(document, (key, value: unknown) => {
      if (key === 'format' && typeof value === 'string') named.push(value);
      return value;
    });
    expect(named.length).toBeGreaterThan(0);
    expect([...new Set(named)].filter((format) => !(format in fullFormats))).toEqual([]);
  });

  it('describes every /api route of the app and /metrics, leaving out only test and debugging routes', () => {
    const documented = new Set(
      operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`),
    );
    const routes = test.app.routeTable.filter(
      (route) =>
        (route.url.startsWith('/api/') || DOCUMENTED_OUTSIDE_API.includes(route.url)) &&
        !route.url.startsWith('/api/test/') &&
        !(`${route.method} ${route.url}` in UNDOCUMENTED_ROUTES),
    );
    const missing = routes
      .map((route) => `${route.method} ${openApiPath(route.url)}`)
      .filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
    expect(documented.size).toBe(routes.length);
    expect([...documented].filter((key) => !key.includes(' /api/'))).toEqual(['GET /metrics']);
  });

  it('asks for the merchant’s Basic credentials on every merchant call and the operator’s token on the operator’s', () => {
    expect(document.components.securitySchemes).toMatchObject({
      merchantBasic: { type: 'http', scheme: 'basic' },
      payerBearer: { type: 'http', scheme: 'bearer' },
      operatorBearer: { type: 'http', scheme: 'bearer' },
    });
    const merchant = operations().filter(
      ({ path }) => path.startsWith('/api/v1/') && path !== '/api/v1/form-files/{fileId}',
    );
    expect(merchant.length).toBeGreaterThan(15);
    for (const { operation } of merchant) {
      expect(operation.security).toEqual([{ merchantBasic: [] }]);
      expect(operation.tags).toEqual(['merchant']);
    }
    for (const { path, operation } of operations()) {
      if (path.startsWith('/api/operator/') || path === '/metrics')
        expect(operation.security).toEqual([{ operatorBearer: [] }]);
    }
  });

  it('has one webhook per event type, its body and the Standard Webhooks headers', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const [type, { post }] of Object.entries(document.webhooks)) {
      expect(post.parameters?.filter((p) => p.in === 'header' && p.required)).toEqual([
        expect.objectContaining({ name: 'webhook-id' }),
        expect.objectContaining({ name: 'webhook-timestamp' }),
        expect.objectContaining({ name: 'webhook-signature' }),
      ]);
      const body = post.requestBody?.content['application/json']?.schema as {
        properties: { type: { const?: string } };
      };
      expect(body.properties.type.const).toBe(type);
    }
    expect(JSON.stringify(document)).not.toMatch(/oya-signature/i);
  });

  it('answers its event streams as text/event-stream, naming each event with its data schema', () => {
    const streams = operations().filter(
      ({ path, method }) => path.startsWith('/api/events/') && method === 'get',
    );
    expect(streams.map(({ path }) => path).sort()).toEqual([
      '/api/events/account-links/{accountLinkId}',
      '/api/events/bank-validation/{validationId}',
      '/api/events/card-linking',
      '/api/events/payments/{paymentId}',
    ]);
    for (const { operation } of streams) {
      const ok = operation.responses['200'];
      const media = ok?.content?.['text/event-stream'] as TMedia & {
        'x-events': Record<string, unknown>;
      };
      expect(Object.keys(ok?.content ?? {})).toEqual(['text/event-stream']);
      expect(Object.keys(media['x-events']).length).toBeGreaterThan(1);
      expect(media['x-events']).toHaveProperty('ready');
    }
    const payment = document.paths['/api/events/payments/{paymentId}']?.get;
    expect(payment?.responses['200']?.content?.['text/event-stream']).toMatchObject({
      'x-events': { payment_status: expect.any(Object) },
    });
    // The bank-validation stream's ticket is the account search's, not POST /api/events/tickets'.
    const validation = document.paths['/api/events/bank-validation/{validationId}']?.get;
    expect(validation?.responses['200']?.description).toContain('`stream.ticket`');
    const tickets = document.paths['/api/events/tickets']?.post;
    const ticketBody = JSON.stringify(tickets?.requestBody?.content['application/json']?.schema);
    expect(ticketBody).not.toContain('bank-validation');
  });

  it('gives examples of the merchant calls, each one valid against its own schema', () => {
    const checker = openApiChecker(document);
    let checked = 0;
    for (const { path, method, operation } of operations()) {
      const media: Array<[string[], TMedia | undefined]> = [
        [
          ['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'],
          operation.requestBody?.content['application/json'],
        ],
        ...Object.entries(operation.responses).map(
          ([status, answer]): [string[], TMedia | undefined] => [
            ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema'],
            answer.content?.['application/json'],
          ],
        ),
      ];
      for (const [at, content] of media) {
        for (const [name, { value }] of Object.entries(content?.examples ?? {})) {
          expect(checker.at(at, value), `${method} ${path} example '${name}'`).toBeNull();
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    const merchant = operations().filter(
      ({ path, method }) => path.startsWith('/api/v1/consents') && method !== 'delete',
    );
    for (const { operation } of merchant) {
      const success = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
      for (const [, answer] of success) {
        expect(Object.keys(answer.content?.['application/json']?.examples ?? {})).not.toEqual([]);
      }
    }
  });

  it('shows the catalogue’s failures: every code in the introduction, 4xx examples of 4xx codes', () => {
    const description = (document as unknown as { info: { description: string } }).info.description;
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(description).toContain(`\`${code}\``);
    const created = document.paths['/api/v1/consents']?.post?.responses['4XX'];
    const examples = created?.content?.['application/json']?.examples ?? {};
    expect(Object.keys(examples)).toEqual(
      expect.arrayContaining(['VALIDATION_FAILED', 'INVALID_CLIENT_CREDENTIALS']),
    );
    for (const { operation } of operations()) {
      const failures = operation.responses['4XX']?.content?.['application/json']?.examples ?? {};
      for (const code of Object.keys(failures)) {
        expect(isErrorCode(code) && ERROR_CATALOGUE[code].status).toBeGreaterThanOrEqual(400);
        expect(isErrorCode(code) && ERROR_CATALOGUE[code].status).toBeLessThan(500);
      }
    }
  });

  it('is read on a reference page whose scripts are all files of our own origin (CSP)', async () => {
    const page = await test.app.inject({ method: 'GET', url: '/docs/api/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page.body).not.toMatch(/https?:\/\//);
    // Titled for the product, without the bar that explores other documents.
    expect(page.body).toContain('<title>API reference - Oya consent</title>');
    const theme = await test.app.inject({
      method: 'GET',
      url: '/docs/api/static/theme/reference.css',
    });
    expect(theme.body).toContain('.topbar { display: none; }');
    const bundle = await test.app.inject({
      method: 'GET',
      url: '/docs/api/static/swagger-ui-bundle.js',
    });
    expect(bundle.statusCode).toBe(200);
    const initializer = await test.app.inject({
      method: 'GET',
      url: '/docs/api/static/swagger-initializer.js',
    });
    expect(initializer.body).toContain("resolveUrl('./json')");
    const json = await test.app.inject({ method: 'GET', url: '/docs/api/json' });
    expect(json.json()).toEqual(document);
  });
});

describe('docs/payments.md, as the document states the answers', () => {
  const prose = readFileSync('docs/payments.md', 'utf8');
  const jsonSchema = (path: string, method: string, status: string) =>
    document.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };

  it('names the transfer answer’s transferDetails key', () => {
    const opened = jsonSchema('/api/payments/{paymentId}/transfer', 'post', '200');
    expect(Object.keys(opened.properties)).toContain('transferDetails');
    expect(prose).toMatch(/`\{ success, paymentId, transferDetails \}`/);
  });

  it('takes the bank-validation stream’s ticket from the search answer’s stream.ticket, not from POST /api/events/tickets', () => {
    const search = jsonSchema('/api/accounts/search', 'get', '200');
    expect(Object.keys(search.properties.stream?.properties ?? {})).toContain('ticket');
    const tickets = JSON.stringify(
      document.paths['/api/events/tickets']?.post?.requestBody?.content['application/json']?.schema,
    );
    expect(tickets).not.toContain('bank-validation');
    expect(prose).toContain('`?ticket=` from the account search');
    expect(prose).toContain('`stream.ticket`');
    expect(prose).toContain('(not the bank-validation stream: its ticket comes with the search)');
  });
});

describe('what the document allows, the server takes', () => {
  type TParameter = { name: string; in: string; schema: unknown };
  /** The document's schema of a query parameter, as a validator of it reads the document. */
  const queryChecker = (path: string, name: string) => {
    const parameters = (document.paths[path]?.get?.parameters ?? []) as TParameter[];
    const at = parameters.findIndex((p) => p.in === 'query' && p.name === name);
    expect(at, `${path} ?${name}`).toBeGreaterThanOrEqual(0);
    const checker = openApiChecker(document);
    return (value: string) =>
      checker.at(['paths', path, 'get', 'parameters', String(at), 'schema'], value) === null;
  };
  const LISTS = ['/api/v1/payments', '/api/v1/events'];

  it.each(LISTS)(
    'takes at %s a createdFrom with any offset RFC 3339 allows (+16:00 was a 500)',
    async (path) => {
      const merchant = await createTestClient(test.database);
      const allows = queryChecker(path, 'createdFrom');
      for (const createdFrom of [
        '2027-01-01T00:00:00+16:00',
        '2027-01-01T00:00:00+23:59',
        '2027-01-01T00:00:00-23:59',
        '2000-01-01T00:00:00+23:59',
      ]) {
        expect(allows(createdFrom), createdFrom).toBe(true);
        const response = await test.app.inject({
          method: 'GET',
          url: `${path}?createdFrom=${encodeURIComponent(createdFrom)}&createdTo=${encodeURIComponent(createdFrom)}`,
          headers: { authorization: merchant.authorization },
        });
        expect(response.statusCode, `${createdFrom}: ${response.body}`).toBe(200);
      }
    },
  );

  it.each(LISTS)('states at %s the dates it refuses: years outside 2000 to 2100', async (path) => {
    const merchant = await createTestClient(test.database);
    const allows = queryChecker(path, 'createdFrom');
    for (const createdFrom of [
      '1999-12-31T23:59:59Z',
      '2101-01-01T00:00:00Z',
      '0000-01-01T00:00:00Z',
    ]) {
      expect(allows(createdFrom), createdFrom).toBe(false);
      const response = await test.app.inject({
        method: 'GET',
        url: `${path}?createdFrom=${encodeURIComponent(createdFrom)}`,
        headers: { authorization: merchant.authorization },
      });
      expect(response.statusCode).toBe(400);
    }
  });

  it('states the control characters a text refuses, and takes the printable text it allows', async () => {
    const merchant = await createTestClient(test.database);
    const body = [
      'paths',
      '/api/v1/consents',
      'post',
      'requestBody',
      'content',
      'application/json',
      'schema',
    ];
    const checker = openApiChecker(document);
    const consent = (narration: string) => ({
      payments: [{ type: 'immediate', amount: 250_000, narration }],
    });
    for (const narration of [
      'Order\u0000 17',
      'Order\u0007',
      'Order \u202e71',
      'Line\nbreak',
      ' \u00a0 ',
    ]) {
      expect(checker.at(body, consent(narration)), JSON.stringify(narration)).not.toBeNull();
      const refused = await test.app.inject({
        method: 'POST',
        url: '/api/v1/consents',
        headers: { authorization: merchant.authorization },
        payload: consent(narration),
      });
      expect(refused.statusCode).toBe(400);
    }
    for (const narration of ['Jollof 🍛 Friday', 'Ọlábísí Ògúnlẹ̀', '₦2,500 order']) {
      expect(checker.at(body, consent(narration))).toBeNull();
      const created = await test.app.inject({
        method: 'POST',
        url: '/api/v1/consents',
        headers: { authorization: merchant.authorization },
        payload: consent(narration),
      });
      expect(created.statusCode, created.body).toBe(201);
    }
  });
});

describe('real answers against the document', () => {
  it('finds a merchant flow’s answers agreeing with it', async () => {
    const merchant = await createTestClient(test.database);
    const headers = { authorization: merchant.authorization };
    const created = await test.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers,
      payload: { payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #1042' }] },
    });
    expect(created.statusCode).toBe(201);
    const { consentId } = created.json<{ consentId: string }>();
    for (const url of [`/api/v1/consents/${consentId}`, '/api/v1/consents', '/api/v1/client']) {
      expect((await test.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
    }
    const refused = await test.app.inject({ method: 'GET', url: '/api/v1/consents' });
    expect(refused.statusCode).toBe(401);
    expect(test.openApiMismatches).toEqual([]);
  });

  it('records an answer that disagrees with the document, so the test app’s close fails', async () => {
    // A public URL of its own: a document no other test app of this worker makes (test apps that
    // would make the same one share its checker, testing/openapi-answers.ts).
    const own = await startTestApp({ env: { PUBLIC_URL: 'http://disagreeing.localhost:3999' } });
    try {
      // The document as the app serves it, with the health answer asking for a field it lacks.
      const served = own.app.swagger() as unknown as TDocument;
      const health = served.paths['/api/health']?.get?.responses['200']?.content?.[
        'application/json'
      ]?.schema as { required: string[] };
      health.required.push('uptimeInFortnights');
      await own.app.inject({ method: 'GET', url: '/api/health' });
      expect(own.openApiMismatches).toEqual([
        expect.stringMatching(/^GET \/api\/health → 200: .*uptimeInFortnights/),
      ]);
      own.openApiMismatches.length = 0;
    } finally {
      await own.close();
    }
  });

  it('finds a webhook event whose data is not the documented one', async () => {
    const merchant = await createTestClient(test.database);
    await test.database.db.insert(merchantEvents).values({
      publicId: 'evt_documented_not',
      clientId: merchant.clientId,
      consentId: null,
      type: 'payment.completed',
      data: { consentId: 'cns_1', paymentId: 'pay_1', amount: '2500.00' },
    });
    const problems = await webhookMismatches(test.app, test.database.db);
    expect(problems).toEqual([expect.stringMatching(/^webhook payment.completed .*amount/)]);
    await test.database.db.delete(merchantEvents);
  });
});

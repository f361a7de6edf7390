import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { REDACTED_FIELDS } from './log-redaction';
import { signUp, testPhone } from './testing/identity';
import {
  createTestClient,
  openTestDatabase,
  RELAXED_RATE_LIMITS,
  testConfig,
} from './testing/test-app';

// Every card, PIN, BVN, token and secret field a request body may carry (read from the OpenAPI
// document's request schemas, so a new field is found as soon as a route declares it) is on the
// log's redaction list, and a value sent in it through the real app, at the most talkative log
// level, appears in no log line (docs/operations.md "Logs").

/** The names of fields that hold such values: a card's data, PIN, BVN/NIN, codes, tokens, keys. */
const SENSITIVE =
  /^(pan|pin|pin_block|track2|icc_data|otp|bvn|expirydate|token|secret)$|card(Number|Details)|cvv|encrypted|token$|secret|password|^(bvn|nin)Data$/i;

const OPERATOR_TOKEN = 'fields-operator-token-0123456789abcdefghij';

type TSchema = {
  type?: string | string[];
  properties?: Record<string, TSchema>;
  items?: TSchema;
  anyOf?: TSchema[];
  oneOf?: TSchema[];
  allOf?: TSchema[];
};
type TOperation = {
  requestBody?: { content?: Record<string, { schema?: TSchema }> };
  security?: Array<Record<string, unknown>>;
};

const lines: string[] = [];
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({
    config: { ...testConfig(), logLevel: 'trace' },
    database,
    rateLimits: RELAXED_RATE_LIMITS,
    operatorToken: OPERATOR_TOKEN,
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

let canaries = 0;
/** A value no log could hold by chance. */
const canary = () => `canary${(canaries += 1)}Qz7`;

/**
 * Bodies for `schema`: one per branch of a union, every property filled (up to a depth), each
 * sensitive string field with a canary of its own.
 */
function bodiesOf(schema: TSchema | undefined, field = '', depth = 0): unknown[] {
  if (!schema || depth > 5) return [null];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.flatMap((branch) => bodiesOf(branch, field, depth + 1));
  if (schema.allOf) return bodiesOf(Object.assign({}, ...schema.allOf), field, depth + 1);
  const type = [schema.type].flat()[0];
  if (schema.properties || type === 'object') {
    let bodies: Array<Record<string, unknown>> = [{}];
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const values = bodiesOf(property, name, depth + 1).slice(0, 3);
      bodies = bodies.flatMap((body) => values.map((value) => ({ ...body, [name]: value })));
    }
    return bodies.slice(0, 6);
  }
  if (type === 'array') return bodiesOf(schema.items, field, depth + 1).map((item) => [item]);
  if (type === 'integer' || type === 'number') return [1];
  if (type === 'boolean') return [true];
  return [SENSITIVE.test(field) ? canary() : 'x'];
}

/** The names of the properties of `schema`, at any depth, that SENSITIVE matches. */
function sensitiveFieldsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return found;
  const { properties } = schema as TSchema;
  for (const name of Object.keys(properties ?? {})) if (SENSITIVE.test(name)) found.add(name);
  for (const value of Object.values(schema)) sensitiveFieldsOf(value, found);
  return found;
}

const operations = () => {
  const document = app.swagger() as unknown as {
    paths: Record<string, Record<string, TOperation>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
};

describe('the log’s redaction list', () => {
  it('names every card, PIN, BVN, token and secret field of the documented request bodies', () => {
    const found = new Set<string>();
    for (const { operation } of operations()) sensitiveFieldsOf(operation.requestBody, found);
    // The probe finds what it should: the card's encrypted fields, the chip's, the BVN, codes.
    expect([...found]).toEqual(
      expect.arrayContaining(['encryptedPin', 'pan', 'pin_block', 'track2', 'bvn', 'otp']),
    );
    expect(
      [...found].filter((field) => !(REDACTED_FIELDS as readonly string[]).includes(field)),
    ).toEqual([]);
  });

  it('keeps every value sent in such a field out of the log, whatever the route answers', async () => {
    const payer = await signUp(app, testPhone());
    const client = await createTestClient(database, { name: 'Redaction Stores' });
    const credentials: Record<string, string> = {
      payerBearer: `Bearer ${payer.token}`,
      merchantBasic: client.authorization,
      operatorBearer: `Bearer ${OPERATOR_TOKEN}`,
    };
    const sent: string[] = [];
    for (const { path, method, operation } of operations()) {
      // The JSON body's schema (the document's media type for it may carry parameters).
      const schema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
      if (sensitiveFieldsOf(schema).size === 0) continue;
      const scheme = Object.keys(operation.security?.find((s) => Object.keys(s).length) ?? {})[0];
      for (const body of bodiesOf(schema)) {
        const response = await app.inject({
          method: method.toUpperCase() as 'POST',
          url: path.replace(/\{[^}]+\}/g, 'x'),
          headers: scheme ? { authorization: credentials[scheme] ?? '' } : {},
          payload: body as object,
        });
        expect(response.statusCode, `${method} ${path}`).toBeLessThan(500);
        sent.push(...(JSON.stringify(body).match(/canary\d+Qz7/g) ?? []));
      }
    }
    expect(sent.length).toBeGreaterThan(20);
    const text = lines.join('');
    expect(text).toContain('request completed');
    expect(sent.filter((value) => text.includes(value))).toEqual([]);
  });

  it('censors such a field at any of a line’s first four levels, should a line carry a body', () => {
    const values = Object.fromEntries(REDACTED_FIELDS.map((field) => [field, canary()]));
    app.log.info(values, 'top level');
    app.log.info({ body: values }, 'a body');
    app.log.info({ body: { cardDetails: { ...values } } }, 'a nested body');
    app.log.info({ request: { body: { card: values } } }, 'deeper');
    const text = lines.join('');
    expect(Object.values(values).filter((value) => text.includes(value))).toEqual([]);
    expect(text).toContain('[redacted]');
  });
});

import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { consentEvents } from './db/schema';
import { serializeError } from './log-redaction';
import { createTestClient, openTestDatabase, testConfig } from './testing/test-app';

// What reaches the log: never a query string (payers' phone numbers ride in them), never a SQL
// parameter (request values), never a credential.

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({
    config: { ...testConfig(), logLevel: 'info' },
    database,
    logStream: sink,
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const logText = () => lines.join('');

describe('the log', () => {
  it('names a request by its path, never its query string', async () => {
    await app.inject({ url: '/api/sandbox/messages?phone=08031234567' });
    await app.inject({ url: '/api/consent/cns_x?clientId=cli_secretish' });
    const text = logText();
    expect(text).toContain('/api/sandbox/messages');
    expect(text).not.toContain('08031234567');
    expect(text).not.toContain('cli_secretish');
  });

  it('keeps the SQL of a failed query and drops its parameters', async () => {
    const client = await createTestClient(database, { name: 'Log Test Stores' });
    // A fault injected in the database: the audit event of a new consent is refused.
    await database.db.execute(sql`
      create function refuse_event() returns trigger language plpgsql as $$
      begin raise exception 'refused by test'; end $$`);
    await database.db.execute(sql`
      create trigger refuse_event before insert on consent_events
      for each row execute function refuse_event()`);
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/consents',
        headers: { authorization: client.authorization },
        payload: {
          payments: [{ type: 'immediate', amount: 100, narration: 'Adaeze secret note' }],
        },
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await database.db.execute(sql`drop trigger refuse_event on consent_events`);
      await database.db.execute(sql`drop function refuse_event`);
    }
    const text = logText();
    expect(text).toContain('unhandled error');
    expect(text).toContain('consent_events');
    expect(text).toContain('params: [redacted]');
    expect(text).not.toContain(client.clientId);
    expect(text).not.toContain(client.secret);
    expect(text).not.toContain('Basic ');
    // Neither the body nor a value from it: the narration the merchant wrote is nowhere.
    expect(text).not.toContain('Adaeze secret note');
  });

  it('serializes a real failed query without the values it carried', async () => {
    let caught: unknown;
    try {
      await database.db.insert(consentEvents).values({
        consentId: 'cns_does_not_exist',
        type: 'probe',
        actor: 'payer:+2348031234567',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    const serialized = serializeError(caught);
    expect(serialized.message).toContain('insert into "consent_events"');
    const logged = JSON.stringify(serialized);
    expect(logged).not.toContain('+2348031234567');
    expect(logged).not.toContain('cns_does_not_exist');
  });
});

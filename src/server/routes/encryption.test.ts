import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptCard } from '../../domain/card-envelope';
import { ZEncryptionPublicKeyResponse } from '../../domain/schemas/card';
import type { TClock } from '../clock';
import { createAppContext } from '../context';
import type { TDatabase } from '../db/database';
import { cardEncryptionKeys } from '../db/schema';
import { handleError } from '../http-errors';
import { DEFAULT_RATE_LIMITS, registerRateLimits } from '../rate-limits';
import { applyResponseHeaders } from '../response-headers';
import { jobEngine } from '../jobs/engine';
import { decryptCard } from '../services/payments/card-encryption-keys';
import { openTestDatabase, testClock, testConfig } from '../testing/test-app';
import { encryptionRoutes } from './encryption';

/** The plugin alone on an app wired as buildApp wires its plugins, with the test's clock. */
async function startEncryptionApp(database: TDatabase, clock: TClock) {
  const config = testConfig();
  // An engine never started: nothing the plugin does queues a job.
  const jobs = jobEngine({
    database,
    kinds: [],
    works: () => false,
    onError: (error) => expect.fail(String(error)),
  });
  const context = createAppContext(
    { database, config, jobs, onEventError: (error) => expect.fail(String(error)) },
    { clock },
  );
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  applyResponseHeaders(app, config);
  app.setErrorHandler(handleError);
  app.addHook('onClose', () => context.events.close());
  const limits = await registerRateLimits(app, DEFAULT_RATE_LIMITS);
  await app.register(encryptionRoutes, { ...context, limits });
  await app.ready();
  return app;
}

describe('GET /api/encryption/public-key', () => {
  const clock = testClock('2025-06-15T12:00:00Z');
  let database: TDatabase;
  let app: Awaited<ReturnType<typeof startEncryptionApp>>;

  beforeAll(async () => {
    database = await openTestDatabase();
    app = await startEncryptionApp(database, clock);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const getKey = () => app.inject({ method: 'GET', url: '/api/encryption/public-key' });

  it('answers the stored current key, the same on every call, and no cache keeps it', async () => {
    const first = await getKey();
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const body = ZEncryptionPublicKeyResponse.parse(first.json());
    const rows = await database.db.select().from(cardEncryptionKeys);
    expect(rows.map((r) => [r.keyId, r.publicKeyPem])).toEqual([[body.keyId, body.publicKey]]);
    expect((await getKey()).json()).toEqual(body);
  });

  it('serves a key whose envelopes the server opens', async () => {
    const key = ZEncryptionPublicKeyResponse.parse((await getKey()).json());
    const card = await encryptCard(globalThis.crypto.subtle, key, {
      cardNumber: '5061 0200 0000 0000',
      expiryDate: '01/31',
      cvv: '321',
    });
    await expect(decryptCard(database.db, clock, card, 'optional')).resolves.toEqual({
      number: '5061020000000000',
      expiry: '01/31',
      cvv: '321',
      pin: null,
    });
  });
});

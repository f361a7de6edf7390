import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptCard } from '../../domain/card-envelope';
import { ZEncryptionPublicKeyResponse } from '../../domain/schemas/card';
import { cardEncryptionKeys } from '../db/schema';
import { decryptCard } from '../services/card-encryption-keys';
import { startPluginApp } from '../test-support-routes';
import { testClock } from '../test-support';
import { encryptionRoutes } from './encryption';

// The plugin alone on an app wired as buildApp wires it (test-support-routes), with its own clock.
describe('GET /api/encryption/public-key', () => {
  const clock = testClock('2025-06-15T12:00:00Z');
  let harness: Awaited<ReturnType<typeof startPluginApp>>;

  beforeAll(async () => {
    harness = await startPluginApp(encryptionRoutes, { clock });
  });
  afterAll(async () => {
    await harness.close();
  });

  const getKey = () => harness.app.inject({ method: 'GET', url: '/api/encryption/public-key' });

  it('answers the stored current key, the same on every call, and no cache keeps it', async () => {
    const first = await getKey();
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const body = ZEncryptionPublicKeyResponse.parse(first.json());
    const rows = await harness.context.db.select().from(cardEncryptionKeys);
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
    await expect(decryptCard(harness.context.db, clock, card, 'optional')).resolves.toEqual({
      number: '5061020000000000',
      expiry: '01/31',
      cvv: '321',
      pin: null,
    });
  });
});

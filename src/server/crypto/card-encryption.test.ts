import { beforeAll, describe, expect, it } from 'vitest';
import { encryptCardField } from '../../domain/card-envelope';
import type { TEncryptedField } from '../../domain/schemas/card';
import {
  decryptField,
  generateCardKeyPair,
  importCardPrivateKey,
  sealPrivateKey,
  unsealPrivateKey,
  type TCardKeyPair,
} from './card-encryption';

let pair: TCardKeyPair;
let privateKey: CryptoKey;

beforeAll(async () => {
  pair = await generateCardKeyPair();
  privateKey = await importCardPrivateKey(pair.privateKeyPem);
});

/** The envelope with one byte of one of its base64 parts flipped. */
function tampered(field: TEncryptedField, part: 'encryptedAesKey' | 'iv' | 'encryptedData') {
  const bytes = Buffer.from(field[part], 'base64');
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
  return { ...field, [part]: bytes.toString('base64') };
}

describe('generateCardKeyPair', () => {
  it('makes a 3072-bit pair: SPKI PEM public, PKCS#8 PEM private', () => {
    expect(pair.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(pair.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const der = Buffer.from(pair.publicKeyPem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    // A 3072-bit SPKI is 422 bytes long (2048: 294, 4096: 550).
    expect(der).toHaveLength(422);
  });
});

describe('decryptField', () => {
  it('opens what the browser code encrypts with WebCrypto', async () => {
    const field = await encryptCardField(
      globalThis.crypto.subtle,
      pair.publicKeyPem,
      'cek_1',
      '5399 8383 8383 8381 — ₦',
    );
    await expect(decryptField(field, privateKey)).resolves.toBe('5399 8383 8383 8381 — ₦');
  });

  it.each(['encryptedAesKey', 'iv', 'encryptedData'] as const)(
    'refuses an envelope whose %s has one byte changed',
    async (part) => {
      const field = await encryptCardField(
        globalThis.crypto.subtle,
        pair.publicKeyPem,
        'cek_1',
        '123',
      );
      await expect(decryptField(tampered(field, part), privateKey)).rejects.toThrow();
    },
  );

  it('refuses an envelope made for another key', async () => {
    const other = await generateCardKeyPair();
    const field = await encryptCardField(
      globalThis.crypto.subtle,
      other.publicKeyPem,
      'cek_2',
      '123',
    );
    await expect(decryptField(field, privateKey)).rejects.toThrow();
  });
});

describe('sealPrivateKey', () => {
  it('hides the key and gives it back with the same secret only', () => {
    const sealed = sealPrivateKey(pair.privateKeyPem, 'secret-one');
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(unsealPrivateKey(sealed, 'secret-one')).toBe(pair.privateKeyPem);
    expect(() => unsealPrivateKey(sealed, 'secret-two')).toThrow();
  });

  it('seals the same key differently each time (fresh IV)', () => {
    expect(sealPrivateKey('k', 's')).not.toBe(sealPrivateKey('k', 's'));
  });

  it('refuses a sealed key with a byte changed or in another format', () => {
    const sealed = sealPrivateKey(pair.privateKeyPem, 'secret-one');
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[40] = (bytes[40] ?? 0) ^ 0x01;
    expect(() => unsealPrivateKey(`v1.${bytes.toString('base64url')}`, 'secret-one')).toThrow();
    expect(() => unsealPrivateKey(pair.privateKeyPem, 'secret-one')).toThrow();
  });
});

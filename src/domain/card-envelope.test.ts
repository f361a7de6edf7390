import { beforeAll, describe, expect, it } from 'vitest';
import { encryptCard, encryptCardField } from './card-envelope';
import { ZEncryptedCard, ZEncryptedField, type TEncryptedField } from './schemas/card';

const subtle = globalThis.crypto.subtle;
const RSA_OAEP = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;

let privateKey: CryptoKey;
let publicKeyPem: string;

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** What the server does, in WebCrypto: unwrap the AES key, then open the field. */
async function open(field: TEncryptedField): Promise<string> {
  const aesKey = await subtle.unwrapKey(
    'raw',
    fromBase64(field.encryptedAesKey),
    privateKey,
    RSA_OAEP,
    'AES-GCM',
    false,
    ['decrypt'],
  );
  const plain = await subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(field.iv) },
    aesKey,
    fromBase64(field.encryptedData),
  );
  return new TextDecoder().decode(plain);
}

beforeAll(async () => {
  const pair = await subtle.generateKey(
    { ...RSA_OAEP, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['wrapKey', 'unwrapKey'],
  );
  privateKey = pair.privateKey;
  const spki = new Uint8Array(await subtle.exportKey('spki', pair.publicKey));
  const body = btoa(String.fromCharCode(...spki)).replace(/(.{64})/g, '$1\n');
  publicKeyPem = `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----\n`;
});

describe('encryptCardField', () => {
  it('makes an envelope of the spec §3 shape that the private key opens', async () => {
    const field = await encryptCardField(subtle, publicKeyPem, 'key_1', 'Ọ̀yá 123');
    expect(ZEncryptedField.parse(field)).toEqual(field);
    expect(field).toMatchObject({ keyId: 'key_1', algorithm: 'RSA-OAEP+AES-GCM', version: '1.0' });
    expect(await open(field)).toBe('Ọ̀yá 123');
  });

  it('uses a 12-byte IV and appends the 16-byte GCM tag to the ciphertext', async () => {
    const field = await encryptCardField(subtle, publicKeyPem, 'key_1', '4111111111111111');
    expect(fromBase64(field.iv)).toHaveLength(12);
    expect(fromBase64(field.encryptedData)).toHaveLength(16 + 16);
    // RSA-OAEP output is as long as the 2048-bit modulus.
    expect(fromBase64(field.encryptedAesKey)).toHaveLength(256);
  });

  it('makes a fresh AES key and IV every time, even for the same text', async () => {
    const a = await encryptCardField(subtle, publicKeyPem, 'key_1', '123');
    const b = await encryptCardField(subtle, publicKeyPem, 'key_1', '123');
    expect(a.iv).not.toBe(b.iv);
    expect(a.encryptedAesKey).not.toBe(b.encryptedAesKey);
    expect(a.encryptedData).not.toBe(b.encryptedData);
  });

  it('refuses a key that is not an SPKI PEM', async () => {
    await expect(encryptCardField(subtle, 'not a key', 'key_1', '123')).rejects.toThrow();
  });
});

describe('encryptCard', () => {
  const key = () => ({ publicKey: publicKeyPem, keyId: 'key_7' });

  it('encrypts each field on its own: number without spaces, expiry, CVV, PIN', async () => {
    const card = await encryptCard(subtle, key(), {
      cardNumber: '4111 1111 1111 1111',
      expiryDate: '12/30',
      cvv: '123',
      pin: '1234',
    });
    expect(ZEncryptedCard.parse(card)).toEqual(card);
    expect(await open(card.encryptedCardNumber)).toBe('4111111111111111');
    expect(await open(card.encryptedExpiryDate)).toBe('12/30');
    expect(await open(card.encryptedCvv)).toBe('123');
    expect(card.encryptedPin && (await open(card.encryptedPin))).toBe('1234');
    const keyIds = [card.encryptedCardNumber, card.encryptedCvv].map((field) => field.keyId);
    expect(keyIds).toEqual(['key_7', 'key_7']);
  });

  it('leaves the PIN envelope out when no PIN was typed', async () => {
    const card = await encryptCard(subtle, key(), {
      cardNumber: '5061 0000 0000 0000',
      expiryDate: '01/31',
      cvv: '1234',
    });
    expect(card).not.toHaveProperty('encryptedPin');
    expect(await open(card.encryptedCvv)).toBe('1234');
  });
});

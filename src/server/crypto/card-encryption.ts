import { createPrivateKey, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { TEncryptedField } from '../../domain/schemas/card';
import { sealingKey, sealText, unsealText } from './sealing';

/*
 * The server's half of spec §7 Card encryption: the RSA key pairs the page encrypts card fields
 * for, their private keys sealed for storage, and the opening of one field's envelope as
 * src/domain/card-envelope.ts makes it in the browser.
 */

const generateKeyPairAsync = promisify(generateKeyPair);
const { subtle } = globalThis.crypto;

/** 3072-bit RSA: 128-bit security (NIST SP 800-57), beyond 2048's end of use in 2030. */
const RSA_MODULUS_BITS = 3072;
const AES_KEY_BYTES = 32;
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

export type TCardKeyPair = { publicKeyPem: string; privateKeyPem: string };

/** A new key pair: SPKI PEM public key (what the page imports), PKCS#8 PEM private key. */
export async function generateCardKeyPair(): Promise<TCardKeyPair> {
  // Asynchronous: a 3072-bit key takes long enough that it must not stall other requests.
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: RSA_MODULUS_BITS,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

/** The sealing key, derived so that the stored secret itself never keys a cipher. */
const privateKeySealingKey = (secret: string) =>
  sealingKey(secret, 'oya-money-card-keys', 'card-private-key-seal');

/** A private key as stored: 'v1.' + base64url(IV ‖ ciphertext ‖ tag), AES-256-GCM. */
export function sealPrivateKey(privateKeyPem: string, secret: string): string {
  return sealText(privateKeyPem, privateKeySealingKey(secret));
}

/** The private key of a sealed one; throws when the secret or the text is not the one sealed. */
export function unsealPrivateKey(sealed: string, secret: string): string {
  return unsealText(sealed, privateKeySealingKey(secret));
}

/**
 * A private key made ready to open envelopes: imported once, kept by the caller (an import parses
 * the key, which costs more than the AES step of an envelope).
 */
export function importCardPrivateKey(privateKeyPem: string): Promise<CryptoKey> {
  const der = createPrivateKey(privateKeyPem).export({ type: 'pkcs8', format: 'der' });
  return subtle.importKey('pkcs8', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['decrypt']);
}

/**
 * The text of one field's envelope: RSA-OAEP (SHA-256) unwraps the AES key, AES-256-GCM opens
 * encryptedData, whose last 16 bytes are the tag as WebCrypto appends it. Throws on any byte
 * changed; the error says nothing of the contents. WebCrypto, as the page encrypts: Node runs its
 * RSA and AES off the event loop, on its thread pool, where a 3072-bit RSA decryption (about
 * 3 ms, four a card) would otherwise hold every other request.
 */
export async function decryptField(
  envelope: TEncryptedField,
  privateKey: CryptoKey,
): Promise<string> {
  const iv = Buffer.from(envelope.iv, 'base64');
  const data = Buffer.from(envelope.encryptedData, 'base64');
  if (iv.length !== GCM_IV_BYTES) throw new Error('The envelope does not hold a 12-byte IV');
  if (data.length < GCM_TAG_BYTES) throw new Error('The envelope holds no GCM tag');
  const rawKey = await subtle.decrypt(
    { name: 'RSA-OAEP' },
    privateKey,
    Buffer.from(envelope.encryptedAesKey, 'base64'),
  );
  if (rawKey.byteLength !== AES_KEY_BYTES) {
    throw new Error('The envelope does not hold a 256-bit key');
  }
  const aesKey = await subtle.importKey('raw', rawKey, 'AES-GCM', false, ['decrypt']);
  const plain = await subtle.decrypt(
    { name: 'AES-GCM', iv, tagLength: GCM_TAG_BYTES * 8 },
    aesKey,
    data,
  );
  return Buffer.from(plain).toString('utf8');
}

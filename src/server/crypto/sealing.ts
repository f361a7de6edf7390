import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Text sealed for storage with a key the server holds: AES-256-GCM, a fresh IV each time, so a
 * changed byte, a wrong key or another label fails to open. What keeps the card keys' private
 * halves (crypto/card-encryption.ts) and the server secrets under SECRETS_KEY
 * (crypto/server-secrets.ts).
 */

const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;
const SEAL_FORMAT = 'v1';

/**
 * A sealing key derived from a secret (HKDF-SHA256, one label per use), so that the secret
 * itself never keys a cipher and one secret can seal several kinds of text apart.
 */
export const sealingKey = (secret: string | Buffer, salt: string, info: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, salt, info, 32));

/**
 * 'v1.' + base64url(IV ‖ ciphertext ‖ tag). `label`, when given, is bound to the text as
 * additional data: it opens only under the same label (a secret's name, so rows cannot be swapped).
 */
export function sealText(plain: string, key: Buffer, label?: string): string {
  const iv = randomBytes(GCM_IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (label !== undefined) cipher.setAAD(Buffer.from(label, 'utf8'));
  const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]);
  return `${SEAL_FORMAT}.${Buffer.concat([sealed, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The text of a sealed one; throws when the key, the label or any byte is not the one sealed. */
export function unsealText(sealed: string, key: Buffer, label?: string): string {
  const [format, body = ''] = sealed.split('.');
  if (format !== SEAL_FORMAT) throw new Error('Not a sealed text');
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.length < GCM_IV_BYTES + GCM_TAG_BYTES) throw new Error('A sealed text is cut short');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, GCM_IV_BYTES), {
    authTagLength: GCM_TAG_BYTES,
  });
  if (label !== undefined) decipher.setAAD(Buffer.from(label, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - GCM_TAG_BYTES));
  const plain = decipher.update(bytes.subarray(GCM_IV_BYTES, bytes.length - GCM_TAG_BYTES));
  return Buffer.concat([plain, decipher.final()]).toString('utf8');
}

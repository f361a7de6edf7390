import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The sandbox's card-terminal keys and cryptography (docs/terminal.md "Sandbox keys"). These are
 * published TEST keys, like the test cards: they protect nothing real, and no real card or
 * reader uses them. A real acquirer keeps its keys in an HSM and injects the reader's PIN key
 * into the device (DUKPT); the sandbox reader and the sandbox acquirer share this one.
 */

/**
 * The PIN key: triple DES (keying option 2, K1 K2 K1), the standard's test key
 * 0123456789ABCDEF FEDCBA9876543210. The reader encrypts the format 0 PIN block under it in ECB
 * mode, one 8-byte block, no padding ('des-ede3' in Node's OpenSSL 3, default provider).
 */
export const SANDBOX_PIN_KEY_HEX = '0123456789ABCDEFFEDCBA98765432100123456789ABCDEF';

/**
 * The sandbox issuer's master key for application cryptograms. Each card's key is
 * HMAC-SHA256(master key, card number as ASCII digits).
 */
export const SANDBOX_ISSUER_MASTER_KEY_HEX =
  '404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F';

/**
 * The chip data the sandbox cryptogram covers, in this order: amount, currency, date, type,
 * unpredictable number, transaction counter, terminal verification results, interchange
 * profile. Changing any of them after the card signed makes the issuer decline.
 */
export const ARQC_TAGS = ['9F02', '5F2A', '9A', '9C', '9F37', '9F36', '95', '82'] as const;

const pinKey = Buffer.from(SANDBOX_PIN_KEY_HEX, 'hex');

function desEde3(mode: 'encrypt' | 'decrypt', blockHex: string): string {
  const cipher =
    mode === 'encrypt'
      ? createCipheriv('des-ede3', pinKey, null)
      : createDecipheriv('des-ede3', pinKey, null);
  cipher.setAutoPadding(false);
  const block = Buffer.from(blockHex, 'hex');
  if (block.length !== 8) throw new Error('A PIN block is 8 bytes');
  return Buffer.concat([cipher.update(block), cipher.final()])
    .toString('hex')
    .toUpperCase();
}

/** The clear PIN block encrypted under the sandbox PIN key, as the reader sends it. */
export const encryptPinBlock = (clearHex: string) => desEde3('encrypt', clearHex);

/** The clear PIN block of an encrypted one, as the acquirer's HSM would see it. */
export const decryptPinBlock = (encryptedHex: string) => desEde3('decrypt', encryptedHex);

/** The card's own cryptogram key, derived from the issuer master key and its number. */
const cardKey = (pan: string) =>
  createHmac('sha256', Buffer.from(SANDBOX_ISSUER_MASTER_KEY_HEX, 'hex'))
    .update(pan, 'ascii')
    .digest();

/**
 * The ARQC (tag 9F26) a sandbox card computes: HMAC-SHA256 under its key over the ARQC_TAGS
 * values, the first 8 bytes. null when a value is missing.
 */
export function sandboxArqc(pan: string, values: ReadonlyMap<string, string>): string | null {
  const parts: Buffer[] = [];
  for (const tag of ARQC_TAGS) {
    const value = values.get(tag);
    if (value === undefined) return null;
    parts.push(Buffer.from(value, 'hex'));
  }
  return createHmac('sha256', cardKey(pan))
    .update(Buffer.concat(parts))
    .digest()
    .subarray(0, 8)
    .toString('hex')
    .toUpperCase();
}

/** Whether the chip data's 9F26 is the card's cryptogram over its fields (compared in constant time). */
export function verifySandboxArqc(pan: string, values: ReadonlyMap<string, string>): boolean {
  const expected = sandboxArqc(pan, values);
  const given = values.get('9F26');
  if (!expected || !given) return false;
  // Compared as bytes: hex that does not decode whole (a stray letter) is shorter, and refused.
  const want = Buffer.from(expected, 'hex');
  const got = Buffer.from(given, 'hex');
  return (
    got.length === want.length && given.length === expected.length && timingSafeEqual(want, got)
  );
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/** The hex HMAC-SHA512 of a notice's raw body under `key`: how a provider signs its notices. */
export const hmacSha512Hex = (key: string, body: string | Buffer): string =>
  createHmac('sha512', key).update(body).digest('hex');

/**
 * Whether `header` is the hex HMAC-SHA512 of the body's raw bytes under `key` (Paystack's
 * `x-paystack-signature`, the sandbox's `x-sandbox-signature`). Computed over the bytes as they
 * arrived, never over JSON parsed and written again (another spacing or key order is another
 * signature), and compared in constant time.
 */
export function isHmacSha512Hex(
  body: Buffer,
  header: string | string[] | undefined,
  key: string,
): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{128}$/i.test(header)) return false;
  return timingSafeEqual(Buffer.from(hmacSha512Hex(key, body), 'hex'), Buffer.from(header, 'hex'));
}

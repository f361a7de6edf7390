import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Whether a notice came from Paystack: its `x-paystack-signature` header is the hex HMAC-SHA512 of
 * the body's raw bytes, keyed with our secret key (Paystack's webhooks guide, "Verify event
 * origin"). Computed over the bytes as they arrived, never over JSON parsed and written again
 * (another spacing or key order is another signature), and compared in constant time.
 */
export function isPaystackSignature(
  body: Buffer,
  header: string | string[] | undefined,
  secretKey: string,
): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{128}$/i.test(header)) return false;
  const expected = createHmac('sha512', secretKey).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header, 'hex'));
}

import { isHmacSha512Hex } from '../notice-signature';

/**
 * Whether a notice came from Paystack: its `x-paystack-signature` header is the hex HMAC-SHA512 of
 * the body's raw bytes, keyed with our secret key (Paystack's webhooks guide, "Verify event
 * origin").
 */
export const isPaystackSignature = (
  body: Buffer,
  header: string | string[] | undefined,
  secretKey: string,
): boolean => isHmacSha512Hex(body, header, secretKey);

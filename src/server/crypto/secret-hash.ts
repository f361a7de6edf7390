import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;

/*
 * Client secrets are 32 random bytes, so a keyed hash is all their storage needs: no guessing
 * can walk 256 bits, and HMAC-SHA-256 costs microseconds where scrypt cost 46 ms a request (a
 * flood of wrong secrets then slowed every payer's page). The key is a server secret kept apart
 * from the table, so a leaked table alone checks nothing. Hashes made by scrypt before still
 * verify, and are replaced by an HMAC on their first success.
 */

const HMAC_SCHEME = 'hmac-sha256';

/** The stored form of a client secret: `hmac-sha256$<base64url>`. */
export function hashSecret(key: Buffer, secret: string): string {
  return `${HMAC_SCHEME}$${createHmac('sha256', key).update(secret, 'utf8').digest('base64url')}`;
}

/** What is compared when a client id is unknown, so both answers take the same time. */
export const UNKNOWN_CLIENT_HASH = `${HMAC_SCHEME}$${Buffer.alloc(32).toString('base64url')}`;

const equalInConstantTime = (a: Buffer, b: Buffer) =>
  a.length === b.length && timingSafeEqual(a, b);

/** Whether a secret matches its stored hash; `legacy` when the hash is scrypt and should be replaced. */
export async function verifySecret(
  key: Buffer,
  secret: string,
  stored: string,
): Promise<{ ok: boolean; legacy: boolean }> {
  if (stored.startsWith(`${HMAC_SCHEME}$`)) {
    const ok = equalInConstantTime(Buffer.from(hashSecret(key, secret)), Buffer.from(stored));
    return { ok, legacy: false };
  }
  return { ok: await verifyScrypt(secret, stored), legacy: true };
}

async function verifyScrypt(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return equalInConstantTime(actual, expected);
}

/** A random identifier with a readable prefix, e.g. `cns_3k9...`. */
export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

import { hkdfSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import { serverSecrets } from '../db/schema';

/** Keys of payer identity, each derived from one secret so that one secret is all there is to keep. */
export type TIdentityKeys = {
  /** HS256 key of payer bearer tokens. */
  tokenKey: Uint8Array;
  /** HMAC key of one-time phone codes: a leaked table does not give the codes away. */
  phoneCodeKey: Buffer;
};

const SECRET_NAME = 'auth-token-secret';

/** Derives the keys from the secret (HKDF-SHA256, one label per use). */
export function deriveIdentityKeys(secret: string): TIdentityKeys {
  const derive = (label: string) =>
    Buffer.from(hkdfSync('sha256', secret, 'oya-money-identity', label, 32));
  return { tokenKey: new Uint8Array(derive('payer-token')), phoneCodeKey: derive('phone-code') };
}

/**
 * The configured secret, or else the one kept in the database, made on first use. Kept in the
 * database (not DATA_DIR) so that several server processes on one PostgreSQL agree on it.
 */
async function resolveSecret(db: TDb, config: TConfig): Promise<string> {
  if (config.authTokenSecret) return config.authTokenSecret;
  await db
    .insert(serverSecrets)
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, SECRET_NAME));
  if (!row) throw new Error('The identity secret could not be stored');
  return row.value;
}

const cache = new WeakMap<TDb, Map<string, Promise<TIdentityKeys>>>();

/** The identity keys of this database and configuration, resolved once per process. */
export function identityKeys(db: TDb, config: TConfig): Promise<TIdentityKeys> {
  const perDb = cache.get(db) ?? new Map<string, Promise<TIdentityKeys>>();
  cache.set(db, perDb);
  const slot = config.authTokenSecret ?? '';
  let keys = perDb.get(slot);
  if (!keys) {
    keys = resolveSecret(db, config).then(deriveIdentityKeys);
    // A failed lookup (database down at start) must not be remembered.
    keys.catch(() => perDb.delete(slot));
    perDb.set(slot, keys);
  }
  return keys;
}

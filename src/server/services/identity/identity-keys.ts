import { hkdfSync } from 'node:crypto';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { storedSecret } from '../../crypto/server-secrets';

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

const cache = new WeakMap<TDb, Map<string, Promise<TIdentityKeys>>>();

/**
 * The identity keys of this database and configuration, resolved once per process: from the
 * configured secret, or else from the one kept in the database.
 */
export function identityKeys(db: TDb, config: TConfig): Promise<TIdentityKeys> {
  const perDb = cache.get(db) ?? new Map<string, Promise<TIdentityKeys>>();
  cache.set(db, perDb);
  const slot = config.authTokenSecret ?? '';
  let keys = perDb.get(slot);
  if (!keys) {
    const secret = config.authTokenSecret
      ? Promise.resolve(config.authTokenSecret)
      : storedSecret(db, SECRET_NAME);
    keys = secret.then(deriveIdentityKeys);
    keys.catch(() => perDb.delete(slot));
    perDb.set(slot, keys);
  }
  return keys;
}

import { createHmac, hkdfSync } from 'node:crypto';
import { sealingKey } from '../../crypto/sealing';
import type { TDb } from '../../db/database';
import { storedSecret } from '../../crypto/server-secrets';

/*
 * The keys that keep payers' BVNs (docs/identity.md "The BVN"): a keyed hash finds and compares
 * a BVN, a sealing key keeps it for the grant that shares it, a code key hashes the codes that
 * prove it. All derive from one server secret, which SECRETS_KEY seals in the database.
 */

const SECRET_NAME = 'bvn-keys';
export const SEAL_LABEL = 'payer-bvn';

type TBvnKeys = { hashKey: Buffer; sealKey: Buffer; codeKey: Buffer };

const keyCache = new WeakMap<TDb, Promise<TBvnKeys>>();

export function bvnKeys(db: TDb): Promise<TBvnKeys> {
  let keys = keyCache.get(db);
  if (!keys) {
    keys = storedSecret(db, SECRET_NAME).then((secret) => ({
      hashKey: Buffer.from(hkdfSync('sha256', secret, 'oya-money-bvn', 'bvn-hash', 32)),
      sealKey: sealingKey(secret, 'oya-money-bvn', 'bvn-seal'),
      codeKey: Buffer.from(hkdfSync('sha256', secret, 'oya-money-bvn', 'bvn-code', 32)),
    }));
    keys.catch(() => keyCache.delete(db));
    keyCache.set(db, keys);
  }
  return keys;
}

/** The keyed hash of a BVN: what payers, accounts and links keep and compare. */
export async function bvnHashOf(db: TDb, bvn: string): Promise<string> {
  const { hashKey } = await bvnKeys(db);
  return createHmac('sha256', hashKey).update(bvn).digest('base64url');
}

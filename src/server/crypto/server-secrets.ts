import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { sealingKey, sealText, unsealText } from './sealing';
import type { TDb } from '../db/database';
import { serverSecrets } from '../db/schema';

/*
 * Secrets the server made for itself (the payer-token key, the seal of the card keys, the keys
 * of client-secret hashes, webhook secrets and form-file links), kept in the database (not
 * DATA_DIR) so that several server processes on one PostgreSQL agree on them. Made on first use;
 * of two processes racing to make one, the first insert wins and both read that one.
 *
 * With SECRETS_KEY each is stored sealed (AES-256-GCM under a key derived from it, bound to the
 * secret's name): a copy of the database, a backup or a readable data directory gives none of
 * them away. openServerSecrets, at every start, seals what an earlier start left in clear and
 * refuses a key that does not open what is sealed. Without SECRETS_KEY they are kept in clear,
 * as the sandbox always did, and a database whose secrets are sealed is refused.
 */

/** A sealed value: this prefix, then the sealed text (a clear one is base64url: no ':' in it). */
const SEALED = 'sealed:';

/** Stops the start: the database's secrets and the configured key do not go together. */
export class ServerSecretsKeyError extends Error {}

const WRONG_KEY =
  'SECRETS_KEY does not open the server secrets in this database: it is not the key they were sealed with.';
const KEY_MISSING =
  'The server secrets in this database are sealed: set SECRETS_KEY to the key they were sealed with.';

/** The sealing key of each database opened with SECRETS_KEY (openServerSecrets). */
const sealingKeys = new WeakMap<TDb, Buffer>();
/** Each database's secrets, once read in this process. */
const cache = new WeakMap<TDb, Map<string, Promise<string>>>();

const isSealed = (value: string) => value.startsWith(SEALED);

function sealed(key: Buffer, name: string, value: string): string {
  return `${SEALED}${sealText(value, key, name)}`;
}

function opened(key: Buffer | undefined, name: string, value: string): string {
  if (!isSealed(value)) return value;
  if (!key) throw new ServerSecretsKeyError(KEY_MISSING);
  try {
    return unsealText(value.slice(SEALED.length), key, name);
  } catch {
    throw new ServerSecretsKeyError(WRONG_KEY);
  }
}

/**
 * Seals a secret found in clear, unless another process did first: the row changes only while
 * it still holds that clear value.
 */
async function sealInPlace(db: TDb, key: Buffer, name: string, clear: string): Promise<boolean> {
  const changed = await db
    .update(serverSecrets)
    .set({ value: sealed(key, name, clear) })
    .where(and(eq(serverSecrets.name, name), eq(serverSecrets.value, clear)))
    .returning({ name: serverSecrets.name });
  return changed.length > 0;
}

/**
 * Opens this database's secrets with SECRETS_KEY (`key`, or none), once per start and before
 * anything reads them: every sealed one must open with it, and with a key every clear one is
 * sealed now. Answers how many it sealed. Throws ServerSecretsKeyError, whose message is the one
 * line the start prints, for a wrong key or a missing one.
 */
export async function openServerSecrets(db: TDb, key: Buffer | undefined): Promise<number> {
  const sealing = key ? sealingKey(key, 'oya-money-server-secrets', 'server-secret-seal') : null;
  cache.delete(db);
  if (sealing) sealingKeys.set(db, sealing);
  else sealingKeys.delete(db);
  let sealedNow = 0;
  for (const row of await db.select().from(serverSecrets)) {
    const clear = opened(sealing ?? undefined, row.name, row.value);
    if (sealing && !isSealed(row.value) && (await sealInPlace(db, sealing, row.name, clear))) {
      sealedNow += 1;
    }
  }
  return sealedNow;
}

async function readOrMakeSecret(db: TDb, name: string): Promise<string> {
  const key = sealingKeys.get(db);
  const made = randomBytes(32).toString('base64url');
  await db
    .insert(serverSecrets)
    .values({ name, value: key ? sealed(key, name, made) : made })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`The server secret ${name} could not be stored`);
  const clear = opened(key, name, row.value);
  // Made in clear by a process started without the key, after this one sealed the others.
  if (key && !isSealed(row.value)) await sealInPlace(db, key, name, clear);
  return clear;
}

/** The named secret of this database, resolved once per process. */
export function storedSecret(db: TDb, name: string): Promise<string> {
  const perDb = cache.get(db) ?? new Map<string, Promise<string>>();
  cache.set(db, perDb);
  let secret = perDb.get(name);
  if (!secret) {
    secret = readOrMakeSecret(db, name);
    // A failed lookup (database down at start) must not be remembered.
    secret.catch(() => perDb.delete(name));
    perDb.set(name, secret);
  }
  return secret;
}

import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TDb } from '../db/database';
import { serverSecrets } from '../db/schema';

/**
 * A secret the server made for itself, kept in the database (not DATA_DIR) so that several
 * server processes on one PostgreSQL agree on it. Made on first use; of two processes racing to
 * make it, the first insert wins and both read that one.
 */
async function readOrMakeSecret(db: TDb, name: string): Promise<string> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`The server secret ${name} could not be stored`);
  return row.value;
}

const cache = new WeakMap<TDb, Map<string, Promise<string>>>();

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

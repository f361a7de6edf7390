import { LRUCache } from 'lru-cache';
import type { TDatabase } from '../../db/database';
import { batchedConsentAnswers, type TConsentReadAnswer } from './consent-read-answer';

/*
 * The page's consent read (GET /api/consent/{id}), cached where the cache can be exact.
 *
 * A committed change to anything the read returns notifies channel consent_reads (migration
 * 0004) with the consent's id, or '*' for a merchant's or a client's change; the cache drops what
 * it names. That is exact only where the notification reaches the cache before the writer's own
 * call returns, so that no later read can be served the old answer: PGlite, which runs in this
 * process and hands a transaction's notifications to its listeners before its commit resolves.
 * PostgreSQL delivers them on another connection, some time after the commit and to every
 * process, so there every read goes to the database.
 *
 * A read that was in flight while a change landed may carry the old answer: it is handed to its
 * caller (it began before the change) but not kept. The cache keeps no misses: an unknown id
 * costs a query each time, as it did before.
 */

export type TConsentReads = {
  /** The read's answer (consent-read-answer.ts); null when no consent has that id. */
  load(consentId: string): Promise<TConsentReadAnswer | null>;
  /** Whether reads are served from memory (PGlite) or every one goes to the database. */
  readonly cached: boolean;
  close(): Promise<void>;
};

/** Answers kept at most: one is a few KB of JSON, so this bounds the cache to a few MB. */
export const CONSENT_READ_CACHE_SIZE = 2_000;

export async function consentReads(
  database: Pick<TDatabase, 'kind' | 'rows' | 'listen'>,
  size = CONSENT_READ_CACHE_SIZE,
): Promise<TConsentReads> {
  const read = batchedConsentAnswers(database);
  if (database.kind !== 'pglite') {
    return {
      load: read,
      cached: false,
      close: async () => {},
    };
  }
  const cache = new LRUCache<string, TConsentReadAnswer>({ max: size });
  // Counts changes heard: a read that saw it move while in flight is not kept.
  let changes = 0;
  const stop = await database.listen('consent_reads', (consentId) => {
    changes += 1;
    if (consentId === '*') cache.clear();
    else cache.delete(consentId);
  });
  return {
    cached: true,
    async load(consentId) {
      const kept = cache.get(consentId);
      if (kept) return kept;
      const before = changes;
      const loaded = await read(consentId);
      if (loaded && changes === before) cache.set(consentId, Object.freeze(loaded));
      return loaded;
    },
    close: stop,
  };
}

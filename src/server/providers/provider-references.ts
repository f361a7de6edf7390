import { and, eq } from 'drizzle-orm';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { providerReferences, type TProviderReferenceKind } from '../db/schema';

/*
 * What an adapter knows of its own references, kept in the database so that every process sees
 * it alike (ROLE=api runs several on one database; a restart keeps it): a reference closed by a
 * requery that found the provider never saw it, a charge waiting for its payer, a one-time
 * account opened. Each fact is one row, written or read in one statement; a second writer of
 * the same fact changes nothing (the first stands), so two processes racing agree.
 */

export type TProviderReferences = {
  /** Closes our reference: the port answered 'not taken', so no call is made with it again. */
  close(reference: string): Promise<void>;
  isClosed(reference: string): Promise<boolean>;
  /** Keeps what `kind` says of the reference, replacing what was kept. */
  keep(kind: TStateKind, reference: string, state: unknown): Promise<void>;
  /** Keeps it unless a fact of that kind is kept already; answers the one kept. */
  keepFirst<T>(kind: TStateKind, reference: string, state: T): Promise<T>;
  read(kind: TStateKind, reference: string): Promise<unknown>;
  forget(kind: TStateKind, reference: string): Promise<void>;
};

type TStateKind = Exclude<TProviderReferenceKind, 'closed'>;

export function providerReferencesOf(
  db: TDb,
  clock: TClock,
  provider: string,
): TProviderReferences {
  const row = (kind: TProviderReferenceKind, reference: string) =>
    and(
      eq(providerReferences.provider, provider),
      eq(providerReferences.kind, kind),
      eq(providerReferences.reference, reference),
    );
  const read = async (kind: TProviderReferenceKind, reference: string) => {
    const [found] = await db
      .select({ state: providerReferences.state })
      .from(providerReferences)
      .where(row(kind, reference));
    return found;
  };
  return {
    async close(reference) {
      await db
        .insert(providerReferences)
        .values({ provider, kind: 'closed', reference, state: null, createdAt: clock.now() })
        .onConflictDoNothing();
    },
    isClosed: async (reference) => (await read('closed', reference)) !== undefined,
    async keep(kind, reference, state) {
      await db
        .insert(providerReferences)
        .values({ provider, kind, reference, state, createdAt: clock.now() })
        .onConflictDoUpdate({
          target: [
            providerReferences.provider,
            providerReferences.kind,
            providerReferences.reference,
          ],
          set: { state, createdAt: clock.now() },
        });
    },
    async keepFirst<T>(kind: TStateKind, reference: string, state: T): Promise<T> {
      const [kept] = await db
        .insert(providerReferences)
        .values({ provider, kind, reference, state, createdAt: clock.now() })
        .onConflictDoNothing()
        .returning({ state: providerReferences.state });
      if (kept) return state;
      return ((await read(kind, reference))?.state ?? state) as T;
    },
    read: async (kind, reference) => (await read(kind, reference))?.state ?? null,
    async forget(kind, reference) {
      await db.delete(providerReferences).where(row(kind, reference));
    },
  };
}

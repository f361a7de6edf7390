import { createHash } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { canonicalJson } from '../../domain/schemas/auth';
import { rowsOf, type TDb } from '../db/database';
import { placeholdersFor, preparedQuery } from '../db/prepared-queries';
import { idempotencyKeys } from '../db/schema';
import { ERROR_CATALOGUE, type TApiErrorBody } from '../../domain/errors';
import { AppError } from '../app-error';

/** A mutating call's Idempotency-Key, where it applies and what request it came with. */
export type TIdempotencyRequest = {
  /** The call and the caller, e.g. `consents.create:cli_…`: keys of other callers never meet. */
  scope: string;
  key: string;
  /** The request as the call understood it (its validated body): the key's fingerprint. */
  request: unknown;
};

/** SHA-256 of the canonical JSON of a request: the same request in any key order matches. */
export function fingerprintOf(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request), 'utf8').digest('base64url');
}

/** A key claimed in its scope, or nothing when it is taken: prepared once. */
const prepareClaim = (db: TDb) =>
  db
    .insert(idempotencyKeys)
    .values({
      scope: sql.placeholder('scope'),
      key: sql.placeholder('key'),
      fingerprint: sql.placeholder('fingerprint'),
      response: {},
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key })
    .prepare('idempotency_claim');

/** A claimed key's answer stored: prepared once. */
const prepareAnswer = (db: TDb) =>
  db
    .update(idempotencyKeys)
    .set(placeholdersFor(['response'] as const))
    .where(
      and(
        eq(idempotencyKeys.scope, sql.placeholder('scope')),
        eq(idempotencyKeys.key, sql.placeholder('key')),
      ),
    )
    .prepare('idempotency_answer');

/**
 * Runs a mutating call once per key (the rule for every mutating call, docs/security.md). The key
 * is claimed in the same transaction as the call's own writes, so either both are written or
 * neither. A retry with the same request gets the first answer back (`replayed`); the same key
 * with another request is IDEMPOTENCY_KEY_REUSED. Two requests racing with one key: the second
 * waits on the first's row (the primary key) and then answers from it.
 */
export async function runIdempotent<T extends Record<string, unknown>>(
  db: TDb,
  idempotency: TIdempotencyRequest | undefined,
  call: (tx: TDb) => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  if (!idempotency)
    return { result: await db.transaction((tx) => call(tx as TDb)), replayed: false };
  const { scope, key } = idempotency;
  const fingerprint = fingerprintOf(idempotency.request);
  return db.transaction(async (tx) => {
    const [claimed] = await preparedQuery(tx, 'idempotency_claim', prepareClaim).execute({
      scope,
      key,
      fingerprint,
    });
    if (!claimed) return { result: await answerOfTakenKey<T>(tx, idempotency), replayed: true };
    const result = await call(tx);
    await preparedQuery(tx, 'idempotency_answer', prepareAnswer).execute({
      scope,
      key,
      response: result,
    });
    return { result, replayed: false };
  });
}

/**
 * The answer a key taken before holds for this request; the same key with another request is
 * IDEMPOTENCY_KEY_REUSED.
 */
async function answerOfTakenKey<T>(db: TDb, idempotency: TIdempotencyRequest): Promise<T> {
  const { scope, key } = idempotency;
  const [first] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  if (!first) throw new Error('An idempotency key conflicted but could not be read');
  if (first.fingerprint !== null && first.fingerprint !== fingerprintOf(idempotency.request)) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED');
  }
  return first.response as T;
}

/**
 * runIdempotent for a call whose answer is known before it runs and whose writes are one
 * statement (a merchant's consent: its id is made in the app). The key is claimed with its answer
 * as the statement's first CTE, so the claim, the answer and the writes are one round trip and
 * need no transaction around them. runIdempotent cannot do this in general: most calls learn
 * their answer from their own writes, so it claims first and stores the answer after.
 *
 * What runIdempotent guarantees holds here: the writes are made only when this statement took
 * the key (`writes` gets that condition, `go`, to put on them); a retry racing the first waits on
 * the key's row until the first commits, then gets its answer (`replayed`), as does a retry after
 * it; the same key with another request is IDEMPOTENCY_KEY_REUSED; a statement that fails stores
 * nothing. A check of the call made by the statement itself (`allowed`) holds the claim back when
 * it fails, so no answer is stored: that is 'refused', and its caller answers it through
 * runIdempotent, which tells a retry of an earlier call from a refusal as it always did.
 *
 * `writes` gives the statement's CTEs after the claim; `answers` the columns of its one row.
 */
export async function runIdempotentStatement<T extends Record<string, unknown>, TRow>(
  db: TDb,
  idempotency: TIdempotencyRequest | undefined,
  answer: T,
  statement: { allowed: SQL; writes: (go: SQL) => SQL; answers: SQL },
): Promise<
  { outcome: 'written'; row: TRow } | { outcome: 'replayed'; result: T } | { outcome: 'refused' }
> {
  const claim = idempotency
    ? sql`claimed AS (
        INSERT INTO idempotency_keys (scope, key, fingerprint, response)
        SELECT ${idempotency.scope}, ${idempotency.key}, ${fingerprintOf(idempotency.request)},
               ${JSON.stringify(answer)}::jsonb
        WHERE (SELECT ok FROM allowed)
        ON CONFLICT DO NOTHING
        RETURNING 1),`
    : sql``;
  const go = idempotency ? sql`EXISTS (SELECT 1 FROM claimed)` : sql`(SELECT ok FROM allowed)`;
  const written = await db.execute(sql`
    WITH allowed AS (SELECT (${statement.allowed}) AS ok), ${claim} ${statement.writes(go)}
    SELECT (SELECT ok FROM allowed) AS allowed, ${go} AS went, ${statement.answers}`);
  const [row] = rowsOf<TRow & { allowed: boolean; went: boolean }>(written);
  if (!row) throw new Error('An idempotent statement answered no row');
  if (row.went) return { outcome: 'written', row };
  if (!row.allowed) return { outcome: 'refused' };
  if (!idempotency) throw new Error('An allowed statement without a key wrote nothing');
  return { outcome: 'replayed', result: await answerOfTakenKey<T>(db, idempotency) };
}

/** The answer a key already holds in its scope, if any (e.g. to find seeded data again). */
export async function findIdempotentResult<T extends Record<string, unknown>>(
  db: TDb,
  scope: string,
  key: string,
): Promise<T | null> {
  const [row] = await db
    .select({ response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  return row ? (row.response as T) : null;
}

/**
 * A stored answer: the HTTP status and the body the first request got, the call's own or the
 * catalogue's failure.
 */
export type TStoredAnswer<TBody = Record<string, unknown>> = {
  status: number;
  body: TBody | TApiErrorBody;
};

/** The calls this process is running, per database and key: what a retry here waits on. */
const runningHere = new WeakMap<TDb, Map<string, Promise<unknown>>>();
const runningKey = (scope: string, key: string) => `${scope}\u0000${key}`;

const IN_FLIGHT_POLL_MS = 100;
/** Longer than any provider call may take (the sandbox's slowest card gives up at 20 s). */
export const IN_FLIGHT_STALE_MS = 5 * 60 * 1_000;

/** How long a retry of a call that waits on a bank or card network waits for the first answer. */
export const BANK_CALL_RETRY_WAIT_MS = 30_000;

/**
 * For calls that wait on a bank or card network: no database transaction may stay open across
 * that wait, so the key is claimed in a transaction of its own (state 'in_flight'), the call
 * runs, and `settle` stores its answer. A retry while the first runs waits for that answer (up
 * to `waitMs`, then PAYMENT_IN_PROGRESS); a retry after it gets the stored answer; the same key
 * with another request is IDEMPOTENCY_KEY_REUSED. An unexpected failure or a rate limit
 * (RATE_LIMITED) releases the key, so the retry runs the call again; the call's own state (an attempt that is charging) keeps that
 * retry from charging twice. A retry in the process running the first call waits on that call
 * itself, not on the database: a flood of one key costs one read each, not one every 100 ms.
 */
export async function runIdempotentCall<TBody>(
  db: TDb,
  idempotency: TIdempotencyRequest | undefined,
  call: () => Promise<{ status: number; body: TBody }>,
  options: { waitMs: number; sleep?: (ms: number) => Promise<void> },
): Promise<TStoredAnswer<TBody> & { replayed: boolean }> {
  if (!idempotency) return { ...(await call()), replayed: false };
  const { scope, key } = idempotency;
  const fingerprint = fingerprintOf(idempotency.request);
  const where = and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({ scope, key, fingerprint, response: {}, state: 'in_flight' })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!claimed) {
    const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      const [first] = await db.select().from(idempotencyKeys).where(where);
      // Released by a failed first call: claim it again.
      if (!first) return runIdempotentCall(db, idempotency, call, options);
      if (first.fingerprint !== null && first.fingerprint !== fingerprint) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED');
      }
      if (first.state === 'done') {
        return { ...(first.response as TStoredAnswer<TBody>), replayed: true };
      }
      // A first call whose process died never settles: past the stale age its key is released
      // (one statement, so one retry takes it over) and the call's own state decides the rest.
      if (Date.now() - first.createdAt.getTime() > IN_FLIGHT_STALE_MS) {
        await db
          .delete(idempotencyKeys)
          .where(
            and(
              where,
              eq(idempotencyKeys.state, 'in_flight'),
              eq(idempotencyKeys.createdAt, first.createdAt),
            ),
          );
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new AppError('PAYMENT_IN_PROGRESS');
      const running = runningHere.get(db)?.get(runningKey(scope, key));
      // Run here: woken by its end (and read again every second meanwhile); run elsewhere: read
      // again in 100 ms.
      await (running
        ? Promise.race([running, sleep(Math.min(1_000, left))])
        : sleep(Math.min(IN_FLIGHT_POLL_MS, left)));
    }
  }
  const running = runningHere.get(db) ?? new Map<string, Promise<unknown>>();
  runningHere.set(db, running);
  const settling = settle(db, where, call);
  running.set(
    runningKey(scope, key),
    settling.catch(() => undefined),
  );
  try {
    return await settling;
  } finally {
    running.delete(runningKey(scope, key));
  }
}

/** Runs the call whose key this process claimed, and stores its answer (or releases the key). */
async function settle<TBody>(
  db: TDb,
  where: SQL | undefined,
  call: () => Promise<{ status: number; body: TBody }>,
): Promise<TStoredAnswer<TBody> & { replayed: boolean }> {
  let answer: TStoredAnswer<TBody>;
  try {
    answer = await call();
  } catch (error) {
    // A limit with a window is no answer to the call: the key is released, so a retry after
    // Retry-After runs it.
    if (error instanceof AppError && error.code !== 'RATE_LIMITED') {
      answer = {
        status: ERROR_CATALOGUE[error.code].status,
        body: { success: false, error: { code: error.code, message: error.message } },
      };
    } else {
      await db.delete(idempotencyKeys).where(where);
      throw error;
    }
  }
  await db.update(idempotencyKeys).set({ response: answer, state: 'done' }).where(where);
  return { ...answer, replayed: false };
}

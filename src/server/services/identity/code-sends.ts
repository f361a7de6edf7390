import { createHmac, randomInt } from 'node:crypto';
import { count, min, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { formatErrorMessage } from '../../../domain/errors';
import type { TDb } from '../../db/database';
import { AppError } from '../../app-error';
import { storedSecret } from '../../crypto/server-secrets';

export const HOUR_MS = 3_600_000;

/** A one-time code of `length` digits, each equally likely, leading zeros kept. */
export const randomCode = (length: number): string =>
  String(randomInt(0, 10 ** length)).padStart(length, '0');

/**
 * What a code row keeps when no code went: no HMAC is this, so every guess at it is a wrong try,
 * as a guess at a code sent to a phone the guesser does not hold would be. An asked code keeps it
 * until the code is made and sent (a BVN the registry knows), or for good (a BVN it does not know,
 * a dashboard recovery for a number on no team): the asker cannot tell which.
 */
export const NO_CODE_SENT = 'no-code-sent';

/**
 * The key one target of code sends (`bvn:<digits>`, `phone:<E.164>`) is counted under in the
 * shared rate limits: HMAC-SHA-256 under a server secret, so the counters (Redis) hold nothing
 * the BVN or the number can be read from.
 */
export async function codeTargetKey(db: TDb, target: string): Promise<string> {
  return keyUnder(await storedSecret(db, 'code-target-keys'), target);
}

const keyUnder = (secret: string, target: string) =>
  createHmac('sha256', secret).update(target, 'utf8').digest('base64url');

/**
 * The codeTargetKey of a number (`phone:<E.164>`), its secret read now: for use inside a
 * transaction, where the database is not to be asked again.
 */
export async function phoneTargetKeys(db: TDb): Promise<(phoneNumber: string) => string> {
  const secret = await storedSecret(db, 'code-target-keys');
  return (phoneNumber) => keyUnder(secret, `phone:${phoneNumber}`);
}

/**
 * Inside the transaction that sends a one-time code: takes the lock of `lockKey` (one send at a
 * time per number or payer, so two racing sends cannot both pass the count), then refuses a code
 * beyond `limit` in a rolling hour with PHONE_CODE_RATE_LIMITED, saying in how many minutes the
 * oldest one counted stops counting. `sent` selects the codes already sent to the same target.
 */
export async function refuseBeyondHourlyLimit(
  tx: TDb,
  codes: { table: PgTable; createdAt: PgColumn },
  input: { lockKey: string; sent: SQL | undefined; limit: number; now: Date },
): Promise<void> {
  const { now } = input;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${input.lockKey}))`);
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const [sent] = await tx
    .select({ n: count(), oldest: min(codes.createdAt) })
    .from(codes.table)
    .where(sql`${input.sent} and ${codes.createdAt} > ${hourAgo.toISOString()}`);
  if ((sent?.n ?? 0) < input.limit) return;
  const oldest = sent?.oldest ? new Date(sent.oldest as string | Date) : now;
  const minutes = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 60_000));
  throw new AppError(
    'PHONE_CODE_RATE_LIMITED',
    formatErrorMessage('PHONE_CODE_RATE_LIMITED', { minutes }),
  );
}

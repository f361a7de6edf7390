import { count, eq } from 'drizzle-orm';
import { AppError } from '../../app-error';
import type { TAuthUser } from '../../../domain/schemas/auth';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { passkeys, payers } from '../../db/schema';

export type TPayerRow = typeof payers.$inferSelect;

/** The payer as the page keeps it (spec §3 paymonaUser). We collect no email. */
export function toAuthUser(payer: TPayerRow): TAuthUser {
  return {
    userId: payer.id,
    fullName: payer.fullName,
    email: null,
    phoneNumber: payer.phoneNumber,
  };
}

export async function findPayerById(db: TDb, payerId: string): Promise<TPayerRow | null> {
  const [row] = await db.select().from(payers).where(eq(payers.id, payerId));
  return row ?? null;
}

export async function findPayerByPhone(db: TDb, phoneNumber: string): Promise<TPayerRow | null> {
  const [row] = await db.select().from(payers).where(eq(payers.phoneNumber, phoneNumber));
  return row ?? null;
}

/** Creates the payer of a verified number; a racing sign-up of the same number finds the first. */
export async function createPayer(
  db: TDb,
  input: { phoneNumber: string; fullName: string },
): Promise<{ payer: TPayerRow; created: boolean }> {
  const [created] = await db
    .insert(payers)
    .values({ id: randomId('usr'), phoneNumber: input.phoneNumber, fullName: input.fullName })
    .onConflictDoNothing({ target: payers.phoneNumber })
    .returning();
  if (created) return { payer: created, created: true };
  const existing = await findPayerByPhone(db, input.phoneNumber);
  if (!existing) throw new Error('The payer could not be created');
  return { payer: existing, created: false };
}

export async function countPasskeys(db: TDb, payerId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.payerId, payerId));
  return row?.n ?? 0;
}

/** The payer behind a session, as auth/me answers it. */
export async function describePayer(
  db: TDb,
  payerId: string,
): Promise<{ user: TAuthUser; passkeyCount: number }> {
  const payer = await findPayerById(db, payerId);
  // The session outlived its payer (account removed): the token no longer names anyone.
  if (!payer) throw new AppError('AUTHENTICATION_FAILED');
  return { user: toAuthUser(payer), passkeyCount: await countPasskeys(db, payerId) };
}

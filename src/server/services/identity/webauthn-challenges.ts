import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { WEBAUTHN_CHALLENGE_TTL_MS } from '../../../domain/schemas/auth';
import type { TDb } from '../../db/database';
import { CHALLENGE_PURPOSES, webauthnChallenges } from '../../db/schema';
import { AppError } from '../../app-error';

export type TChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];
export type TChallengeRow = typeof webauthnChallenges.$inferSelect;

/** Keeps a challenge the server handed out; it is good for one use within 5 minutes. */
export async function storeChallenge(
  db: TDb,
  input: {
    challenge: string;
    purpose: TChallengePurpose;
    payerId?: string | null;
    consentId?: string | null;
  },
  now: Date,
): Promise<Date> {
  const expiresAt = new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS);
  // One statement: challenges an hour past their end are kept no longer (a replay of them is
  // refused as unknown), and this one is kept.
  await db.execute(sql`
    WITH stale AS (
      DELETE FROM webauthn_challenges
      WHERE expires_at < ${new Date(now.getTime() - 3_600_000).toISOString()}::timestamptz)
    INSERT INTO webauthn_challenges (challenge, purpose, payer_id, consent_id, created_at, expires_at)
    VALUES (${input.challenge}, ${input.purpose}, ${input.payerId ?? null},
            ${input.consentId ?? null}, ${now.toISOString()}::timestamptz,
            ${expiresAt.toISOString()}::timestamptz)`);
  return expiresAt;
}

/**
 * Uses a challenge up, atomically: of two requests carrying it only one gets it, and only the
 * payer and purpose it was issued for can use it (another payer's attempt leaves it intact). A
 * used one is TEMPORARY_KEY_USED; an unknown or expired one is the spec's 'Temporary key
 * expired' (§8), on which the page restarts sign-in.
 */
export async function consumeChallenge(
  db: TDb,
  challenge: string,
  expected: { purpose: TChallengePurpose; payerId?: string },
  now: Date,
): Promise<TChallengeRow> {
  const [row] = await db
    .update(webauthnChallenges)
    .set({ consumedAt: now })
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, now),
        eq(webauthnChallenges.purpose, expected.purpose),
        expected.payerId === undefined
          ? isNull(webauthnChallenges.payerId)
          : eq(webauthnChallenges.payerId, expected.payerId),
      ),
    )
    .returning();
  if (row) return row;
  // Refused: the read below only chooses the message.
  const [known] = await db
    .select()
    .from(webauthnChallenges)
    .where(eq(webauthnChallenges.challenge, challenge));
  if (!known || known.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('TEMPORARY_KEY_EXPIRED');
  }
  if (known.purpose !== expected.purpose || known.payerId !== (expected.payerId ?? null)) {
    throw new AppError('AUTHENTICATION_FAILED_RETRY');
  }
  throw new AppError('TEMPORARY_KEY_USED');
}

/** The challenge a browser signed, read from its clientDataJSON. */
export function challengeOf(clientDataJSON: string): string {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown }).challenge;
    if (typeof challenge === 'string' && challenge.length > 0) return challenge;
  } catch {
    // Not JSON: answered below like any other unreadable response.
  }
  throw new AppError('AUTHENTICATION_FAILED_RETRY');
}

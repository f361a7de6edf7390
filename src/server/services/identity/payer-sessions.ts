import { and, eq, isNull, lt } from 'drizzle-orm';
import type { TConfig } from '../../config';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { authSessions } from '../../db/schema';
import { AppError } from '../../app-error';
import { signPayerToken, verifyPayerToken } from './auth-tokens';
import { identityKeys } from './identity-keys';

export type TSessionMethod = 'passkey' | 'phone-code';

export type TNewSession = {
  payerId: string;
  clientId: string;
  discoveryId: string;
  authAppId: string | null;
  method: TSessionMethod;
  /**
   * When a trusted passkey signed the payer in (docs/identity.md "Actions and the proof they
   * need"); null for a code, or a passkey still waiting out its 24 h.
   */
  passkeyProvenAt?: Date | null;
};

/** Records a session; the caller signs its token once the surrounding transaction commits. */
export async function createSession(
  db: TDb,
  config: TConfig,
  input: TNewSession,
  now: Date,
): Promise<{ sessionId: string; expiresAt: Date }> {
  const sessionId = randomId('ses', 16);
  const expiresAt = new Date(now.getTime() + config.authTokenTtlSeconds * 1000);
  await db.insert(authSessions).values({ id: sessionId, ...input, createdAt: now, expiresAt });
  // Sessions past their end a day ago serve nothing, not even an audit we promised.
  await db
    .delete(authSessions)
    .where(lt(authSessions.expiresAt, new Date(now.getTime() - 86_400_000)));
  return { sessionId, expiresAt };
}

export async function tokenForSession(
  db: TDb,
  config: TConfig,
  session: { payerId: string; sessionId: string; expiresAt: Date },
  now: Date,
): Promise<string> {
  const keys = await identityKeys(db, config);
  return signPayerToken(
    keys,
    { sub: session.payerId, sid: session.sessionId },
    { issuer: config.publicUrl, issuedAt: now, expiresAt: session.expiresAt },
  );
}

export type TPayerPrincipal = {
  payerId: string;
  sessionId: string;
  expiresAt: Date;
  /** Whether a trusted passkey proved this session when the request began (it never unproves). */
  passkeyProven: boolean;
};

/**
 * The payer behind an Authorization header. No token: AUTH_TOKEN_UNAVAILABLE; bad token:
 * AUTHENTICATION_FAILED; expired token, or one whose session was signed out: TOKEN_EXPIRED, so
 * the page takes the spec's expired-token path (§8) and signs in again.
 */
export async function authenticatePayer(
  db: TDb,
  config: TConfig,
  authorization: string | undefined,
  now: Date = new Date(),
): Promise<TPayerPrincipal> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw new AppError('AUTH_TOKEN_UNAVAILABLE');
  const keys = await identityKeys(db, config);
  const claims = await verifyPayerToken(keys, match[1], { issuer: config.publicUrl, now });
  const [session] = await db
    .select()
    .from(authSessions)
    .where(and(eq(authSessions.id, claims.sid), eq(authSessions.payerId, claims.sub)));
  if (!session) throw new AppError('AUTHENTICATION_FAILED');
  if (session.revokedAt || session.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('TOKEN_EXPIRED');
  }
  return {
    payerId: claims.sub,
    sessionId: claims.sid,
    expiresAt: session.expiresAt,
    passkeyProven: session.passkeyProvenAt !== null,
  };
}

/**
 * Refuses, with PASSKEY_PROOF_REQUIRED (403), a session no trusted passkey proved: one signed in
 * by an SMS code alone (docs/identity.md "Actions and the proof they need"). Inside a transaction
 * it reads the session as that transaction sees it. The page answers the refusal with a step-up
 * (POST /api/auth/step-up) and tries again.
 */
export async function assertPasskeyProven(db: TDb, sessionId: string): Promise<void> {
  const [session] = await db
    .select({ provenAt: authSessions.passkeyProvenAt })
    .from(authSessions)
    .where(eq(authSessions.id, sessionId));
  if (!session?.provenAt) throw new AppError('PASSKEY_PROOF_REQUIRED');
}

/** Signs out: the session's token stops working at once, not at its expiry. */
export async function revokeSession(db: TDb, sessionId: string, now: Date = new Date()) {
  await db
    .update(authSessions)
    .set({ revokedAt: now })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
}

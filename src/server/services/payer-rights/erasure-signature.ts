import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { WEBAUTHN_TIMEOUT_MS, type TGrantChallengeResponse } from '../../../domain/schemas/auth';
import { erasureSigningMessage, type TErasureRequest } from '../../../domain/schemas/payer-rights';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { authSessions, webauthnChallenges } from '../../db/schema';
import { AppError } from '../../app-error';
import { allowCredentialsOf, randomNonce, verifyAssertion } from '../identity/passkeys';
import { useUpNonce, type TVerifiedGrant } from '../identity/signed-grants';
import { storeChallenge } from '../identity/webauthn-challenges';
import { allowedOriginsOf } from '../merchants/merchant-clients';

/*
 * The erasure confirmed by the payer's passkey at the moment of asking (docs/payer-rights.md
 * "Erase my data"), as a pause or a revocation is:
 * 1. POST /api/users/data-erasure-challenges: a single-use nonce of the purpose `erasure`, bound
 *    to the payer, with request options limited to their passkeys that still sign.
 * 2. POST /api/users/data-erasures { nonce, response }: the passkey's signature of the erasure
 *    message bound to that nonce, checked here (a trusted passkey only: an erasure stops every
 *    mandate and cannot be undone), then the nonce used up in the request's transaction
 *    (claimErasureNonce). A session proven long ago is not enough: each erasure is signed.
 */

type TSignatureContext = Pick<TAppContext, 'db' | 'config' | 'clock'>;
type TSession = { payerId: string; sessionId: string };

/** POST /api/users/data-erasure-challenges: a nonce for one erasure signature. */
export async function issueErasureChallenge(
  ctx: TSignatureContext,
  payerId: string,
): Promise<Omit<TGrantChallengeResponse, 'success'>> {
  const now = ctx.clock.now();
  const allowCredentials = await allowCredentialsOf(ctx.db, payerId, now);
  if (allowCredentials.length === 0) throw new AppError('PASSKEY_REQUIRED');
  const nonce = randomNonce();
  const expiresAt = await storeChallenge(
    ctx.db,
    { challenge: nonce, purpose: 'erasure', payerId },
    now,
  );
  return {
    nonce,
    expiresAt: expiresAt.toISOString(),
    options: {
      rpId: ctx.config.webauthnRpId,
      timeout: WEBAUTHN_TIMEOUT_MS,
      userVerification: 'required',
      allowCredentials,
    },
  };
}

/** SHA-256 of the canonical erasure message: the WebAuthn challenge the passkey signs. */
export function erasureDigest(nonce: string): string {
  return createHash('sha256').update(erasureSigningMessage({ nonce }), 'utf8').digest('base64url');
}

/**
 * Checks the passkey's signature of the erasure with a nonce issued to this payer for an erasure;
 * the nonce is left for the request's transaction to use up. Another payer's nonce, one of another
 * purpose or a signature of anything else is ERASURE_SIGNATURE_INVALID.
 */
export async function checkErasureSignature(
  ctx: TSignatureContext,
  session: TSession,
  signed: TErasureRequest,
): Promise<TVerifiedGrant> {
  const { db } = ctx;
  const now = ctx.clock.now();
  const [issued] = await db
    .select()
    .from(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, signed.nonce),
        eq(webauthnChallenges.purpose, 'erasure'),
      ),
    );
  if (!issued || issued.payerId !== session.payerId) {
    throw new AppError('ERASURE_SIGNATURE_INVALID');
  }
  if (issued.consumedAt) throw new AppError('GRANT_SIGNATURE_REPLAYED');
  if (issued.expiresAt.getTime() <= now.getTime()) throw new AppError('TEMPORARY_KEY_EXPIRED');
  const [signedIn] = await db
    .select({ clientId: authSessions.clientId })
    .from(authSessions)
    .where(eq(authSessions.id, session.sessionId));
  const digest = erasureDigest(signed.nonce);
  const { passkey } = await verifyAssertion(
    db,
    ctx.config,
    {
      response: signed.response,
      expectedChallenge: digest,
      payerId: session.payerId,
      // The merchant that framed the sign-in may frame the page the payer erases from.
      embedOrigins: signedIn ? await allowedOriginsOf(db, signedIn.clientId) : [],
      failure: 'ERASURE_SIGNATURE_INVALID',
      signsMoney: true,
      provesSession: session.sessionId,
    },
    now,
  );
  return {
    digest,
    credentialId: passkey.id,
    userId: session.payerId,
    signedAt: now,
    evidence: {
      authenticatorData: signed.response.response.authenticatorData,
      clientDataJSON: signed.response.response.clientDataJSON,
      signature: signed.response.response.signature,
    },
  };
}

/** In the request's transaction: the checked nonce used up, or the same signature sent twice. */
export async function claimErasureNonce(tx: TDb, nonce: string, now: Date): Promise<void> {
  if (!(await useUpNonce(tx, nonce, now))) throw new AppError('GRANT_SIGNATURE_REPLAYED');
}

import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import {
  WEBAUTHN_TIMEOUT_MS,
  type TAuthenticationResponse,
  type TWebAuthnOptions,
} from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { authSessions } from '../../db/schema';
import { AppError } from '../../app-error';
import { allowedOriginsOf } from '../merchants/merchant-clients';
import { allowCredentialsOf, verifyAssertion } from './passkeys';
import { challengeOf, consumeChallenge, storeChallenge } from './webauthn-challenges';

/*
 * The step-up (docs/identity.md "Actions and the proof they need"): a session signed in by an SMS
 * code alone proves itself with one of the payer's trusted passkeys before an action that needs
 * the passkey (removing one, granting, releasing pending payments).
 * 1. POST /api/auth/step-up/options: a single-use challenge of its own purpose, bound to the
 *    payer, with request options limited to the payer's passkeys that still sign.
 * 2. POST /api/auth/step-up: the assertion uses the challenge up, and in the statement that uses
 *    the passkey (verifyAssertion, signsMoney) a trusted one marks the session proven; one still
 *    waiting out its 24 h is PASSKEY_NOT_YET_TRUSTED and proves nothing.
 */

type TSession = { payerId: string; sessionId: string };

/** Request options for the step-up; a payer with no passkey is asked to add one first. */
export async function stepUpOptions(
  db: TDb,
  config: TConfig,
  session: TSession,
  now: Date,
): Promise<TWebAuthnOptions> {
  const allowCredentials = await allowCredentialsOf(db, session.payerId, now);
  if (allowCredentials.length === 0) throw new AppError('PASSKEY_REQUIRED');
  const options = await generateAuthenticationOptions({
    rpID: config.webauthnRpId,
    userVerification: 'required',
    timeout: WEBAUTHN_TIMEOUT_MS,
    allowCredentials,
  });
  await storeChallenge(
    db,
    { challenge: options.challenge, purpose: 'step-up', payerId: session.payerId },
    now,
  );
  return { ...options };
}

/** Proves the session with the payer's trusted passkey; answers when it was proven. */
export async function stepUp(
  db: TDb,
  config: TConfig,
  session: TSession,
  response: TAuthenticationResponse,
  now: Date,
): Promise<{ passkeyProvenAt: Date }> {
  const challenge = challengeOf(response.response.clientDataJSON);
  await consumeChallenge(db, challenge, { purpose: 'step-up', payerId: session.payerId }, now);
  const [signedIn] = await db
    .select({ clientId: authSessions.clientId })
    .from(authSessions)
    .where(eq(authSessions.id, session.sessionId));
  await verifyAssertion(
    db,
    config,
    {
      response,
      expectedChallenge: challenge,
      payerId: session.payerId,
      // The merchant that framed the sign-in may frame the step-up too.
      embedOrigins: signedIn ? await allowedOriginsOf(db, signedIn.clientId) : [],
      failure: 'AUTHENTICATION_FAILED_RETRY',
      signsMoney: true,
      provesSession: session.sessionId,
    },
    now,
  );
  const [proven] = await db
    .select({ at: authSessions.passkeyProvenAt })
    .from(authSessions)
    .where(eq(authSessions.id, session.sessionId));
  if (!proven?.at) throw new AppError('PASSKEY_PROOF_REQUIRED');
  return { passkeyProvenAt: proven.at };
}

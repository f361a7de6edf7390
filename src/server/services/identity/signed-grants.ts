import { createHash } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import {
  grantSigningMessage,
  WEBAUTHN_CHALLENGE_TTL_MS,
  WEBAUTHN_TIMEOUT_MS,
  type TGrantChallengeResponse,
  type TSignedGrant,
} from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { consents, webauthnChallenges } from '../../db/schema';
import { AppError } from '../../app-error';
import { loadConsent } from '../consents/consents';
import { allowCredentialsOf, randomNonce, verifyAssertion } from './passkeys';
import { storeChallenge } from './webauthn-challenges';

/** SHA-256 of the canonical grant message, base64url: the WebAuthn challenge the passkey signs. */
export function grantDigest(signed: Pick<TSignedGrant, 'consentId' | 'nonce' | 'payload'>): string {
  return createHash('sha256').update(grantSigningMessage(signed), 'utf8').digest('base64url');
}

/**
 * A single-use nonce for one grant signature by this payer on this consent, with the request
 * options limited to the payer's own passkeys.
 */
export async function issueGrantChallenge(
  db: TDb,
  config: TConfig,
  payerId: string,
  consentId: string,
  now: Date = new Date(),
  /** What the signature will be good for: a grant, a revocation or a pause (payer-consents.ts). */
  purpose: TSigningPurpose = 'grant',
): Promise<Omit<TGrantChallengeResponse, 'success'>> {
  // The payer's own state first: a payer with no passkey learns nothing about which consent
  // ids exist (the same 409 for any id).
  const allowCredentials = await allowCredentialsOf(db, payerId, now);
  if (allowCredentials.length === 0) throw new AppError('PASSKEY_REQUIRED');
  const nonce = randomNonce();
  // An unknown consent gets a nonce like any other, kept nowhere: the answer does not tell which
  // ids exist, and the grant it could sign is refused (no such consent, no such nonce).
  const [known] = await db
    .select({ id: consents.id })
    .from(consents)
    .where(eq(consents.id, consentId));
  const expiresAt = known
    ? await storeChallenge(db, { challenge: nonce, purpose, payerId, consentId }, now)
    : new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS);
  return {
    nonce,
    expiresAt: expiresAt.toISOString(),
    options: {
      rpId: config.webauthnRpId,
      timeout: WEBAUTHN_TIMEOUT_MS,
      userVerification: 'required',
      allowCredentials,
    },
  };
}

export type TVerifiedGrant = {
  digest: string;
  credentialId: string;
  userId: string;
  signedAt: Date;
  /** What a later audit needs to check the signature again with the stored public key. */
  evidence: { authenticatorData: string; clientDataJSON: string; signature: string };
};

/** What a consent's audit row keeps of a signature, to check it again later. */
export const signatureRecord = (signature: TVerifiedGrant) => ({
  digest: signature.digest,
  credentialId: signature.credentialId,
  signedAt: signature.signedAt.toISOString(),
  evidence: signature.evidence,
});

/** The consent-bound signatures a payer's passkey makes, each with nonces of its own purpose. */
export type TSigningPurpose = 'grant' | 'revocation' | 'pause';

/**
 * Checks a signature of `digest` by the payer's passkey with a nonce the server issued to them
 * for this purpose on this consent; the nonce is left for the caller to use up (useUpNonce). A
 * nonce issued for another consent, another payer or another purpose is refused as `failure`.
 */
export async function checkSignature(
  db: TDb,
  config: TConfig,
  payerId: string,
  signed: {
    purpose: TSigningPurpose;
    consentId: string;
    nonce: string;
    digest: string;
    response: TSignedGrant['response'];
    failure: 'GRANT_SIGNATURE_INVALID' | 'REVOCATION_SIGNATURE_INVALID' | 'PAUSE_SIGNATURE_INVALID';
    /**
     * What is signed takes money (a debit, a mandate): only a passkey that may sign money now is
     * accepted (docs/identity.md "When a passkey is trusted").
     */
    signsMoney: boolean;
    /** The session signing: a trusted passkey's signature proves it (verifyAssertion). */
    provesSession?: string | undefined;
    /** The consent's embed origins, where the caller has loaded it; read here otherwise. */
    embedOrigins?: readonly string[] | undefined;
  },
  now: Date,
): Promise<TVerifiedGrant> {
  const [issued] = await db
    .select()
    .from(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, signed.nonce),
        eq(webauthnChallenges.purpose, signed.purpose),
      ),
    );
  if (!issued || issued.payerId !== payerId || issued.consentId !== signed.consentId) {
    throw new AppError(signed.failure);
  }
  if (issued.consumedAt) throw new AppError('GRANT_SIGNATURE_REPLAYED');
  if (issued.expiresAt.getTime() <= now.getTime()) throw new AppError('TEMPORARY_KEY_EXPIRED');

  const embedOrigins =
    signed.embedOrigins ?? (await loadConsent(db, signed.consentId))?.embedOrigins;
  if (!embedOrigins) throw new AppError('CONSENT_NOT_FOUND');
  const { passkey } = await verifyAssertion(
    db,
    config,
    {
      response: signed.response,
      expectedChallenge: signed.digest,
      payerId,
      // The consent's merchant may frame the page while the payer approves.
      embedOrigins: [...embedOrigins],
      failure: signed.failure,
      signsMoney: signed.signsMoney,
      ...(signed.provesSession ? { provesSession: signed.provesSession } : {}),
    },
    now,
  );
  return {
    digest: signed.digest,
    credentialId: passkey.id,
    userId: payerId,
    signedAt: now,
    evidence: {
      authenticatorData: signed.response.response.authenticatorData,
      clientDataJSON: signed.response.response.clientDataJSON,
      signature: signed.response.response.signature,
    },
  };
}

/**
 * Uses a checked nonce up, in one statement: of two racing submissions of one signature only one
 * gets true. Inside a transaction, the second waits for the first to commit.
 */
export async function useUpNonce(db: TDb, nonce: string, now: Date): Promise<boolean> {
  const [used] = await db
    .update(webauthnChallenges)
    .set({ consumedAt: now })
    .where(
      and(
        eq(webauthnChallenges.challenge, nonce),
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return used !== undefined;
}

/**
 * Verifies that the payer's passkey signed exactly this payload for this consent with a nonce
 * the server issued to them, then uses the nonce up. An altered payload changes the digest and
 * fails the signature check (GRANT_SIGNATURE_INVALID); the same signature sent again finds its
 * nonce used (GRANT_SIGNATURE_REPLAYED). The grant call (spec §7 POST /api/consent/{id}/grant)
 * calls this inside its own flow with `signsMoney` for every grant: a passkey added without
 * approval less than 24 h ago is then refused (PASSKEY_NOT_YET_TRUSTED, saying from when it may),
 * and a trusted one proves the signing session (`provesSession`).
 */
export async function verifySignedGrant(
  db: TDb,
  config: TConfig,
  payerId: string,
  signed: TSignedGrant,
  now: Date = new Date(),
  options: {
    signsMoney: boolean;
    provesSession?: string | undefined;
    /** The consent's embed origins, where the caller has loaded it. */
    embedOrigins?: readonly string[] | undefined;
  } = { signsMoney: false },
): Promise<TVerifiedGrant> {
  const verified = await checkSignature(
    db,
    config,
    payerId,
    {
      purpose: 'grant',
      consentId: signed.consentId,
      nonce: signed.nonce,
      digest: grantDigest(signed),
      response: signed.response,
      failure: 'GRANT_SIGNATURE_INVALID',
      signsMoney: options.signsMoney,
      provesSession: options.provesSession,
      embedOrigins: options.embedOrigins,
    },
    now,
  );
  // Verified first, used up second: a tampered attempt does not burn the payer's nonce, and of
  // two racing submissions of one signature only one gets here.
  if (!(await useUpNonce(db, signed.nonce, now))) throw new AppError('GRANT_SIGNATURE_REPLAYED');
  return verified;
}

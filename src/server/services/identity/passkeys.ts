import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, eq, lt } from 'drizzle-orm';
import {
  WEBAUTHN_TIMEOUT_MS,
  ZAuthenticatorTransport,
  type TAuthenticatorTransport,
  type TAuthenticationResponse,
  type TRegistrationResponse,
  type TWebAuthnOptions,
} from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { passkeys } from '../../db/schema';
import { AppError } from '../app-error';
import { countPasskeys, findPayerById } from './payers';
import { challengeOf, consumeChallenge, storeChallenge } from './webauthn-challenges';

export type TPasskeyRow = typeof passkeys.$inferSelect;

const bytes = (base64url: string) => new Uint8Array(Buffer.from(base64url, 'base64url'));

/** The transports the browser reported that we know by name; hints for later sign-ins only. */
function knownTransports(reported: string[] | undefined): TAuthenticatorTransport[] | null {
  if (!reported) return null;
  return reported.flatMap((t) => {
    const known = ZAuthenticatorTransport.safeParse(t);
    return known.success ? [known.data] : [];
  });
}

/**
 * Sign-in options for discoverable credentials: no allowCredentials, so the browser offers the
 * passkeys it holds for us (and can show them in autofill). User verification is required: this
 * is the spec's "biometric" login.
 */
export async function signInOptions(
  db: TDb,
  config: TConfig,
  now: Date = new Date(),
): Promise<TWebAuthnOptions> {
  const options = await generateAuthenticationOptions({
    rpID: config.webauthnRpId,
    userVerification: 'required',
    timeout: WEBAUTHN_TIMEOUT_MS,
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: 'authentication' }, now);
  return { ...options };
}

/** Options to create one more passkey for a signed-in payer; their others are excluded. */
export async function registrationOptions(
  db: TDb,
  config: TConfig,
  payerId: string,
  now: Date = new Date(),
): Promise<TWebAuthnOptions> {
  const payer = await findPayerById(db, payerId);
  if (!payer) throw new AppError('AUTHENTICATION_FAILED');
  const existing = await db.select().from(passkeys).where(eq(passkeys.payerId, payerId));
  const options = await generateRegistrationOptions({
    rpName: config.productName,
    rpID: config.webauthnRpId,
    // The user handle is the payer id, so a discoverable sign-in names its payer.
    userID: new Uint8Array(Buffer.from(payer.id, 'utf8')),
    userName: payer.phoneNumber,
    userDisplayName: payer.fullName,
    timeout: WEBAUTHN_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({
      id: p.id,
      ...(p.transports ? { transports: p.transports } : {}),
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: 'registration', payerId }, now);
  return { ...options };
}

/** Verifies and keeps a new passkey of a signed-in payer. */
export async function registerPasskey(
  db: TDb,
  config: TConfig,
  payerId: string,
  response: TRegistrationResponse,
  now: Date = new Date(),
): Promise<{ passkeyId: string; passkeyCount: number }> {
  const challenge = challengeOf(response.response.clientDataJSON);
  await consumeChallenge(db, challenge, { purpose: 'registration', payerId }, now);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      // The zod schema checked the shape; the library checks the content.
      response,
      expectedChallenge: challenge,
      expectedOrigin: config.webauthnOrigins,
      expectedRPID: config.webauthnRpId,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('PASSKEY_REGISTRATION_FAILED');
  }
  if (!verified.verified) throw new AppError('PASSKEY_REGISTRATION_FAILED');
  const info = verified.registrationInfo;
  const [inserted] = await db
    .insert(passkeys)
    .values({
      id: info.credential.id,
      payerId,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: knownTransports(response.response.transports),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      createdAt: now,
    })
    .onConflictDoNothing({ target: passkeys.id })
    .returning({ id: passkeys.id });
  if (!inserted) throw new AppError('PASSKEY_ALREADY_REGISTERED');
  return { passkeyId: inserted.id, passkeyCount: await countPasskeys(db, payerId) };
}

/**
 * Verifies an assertion against the stored passkey it names: signature, origin, RP ID, user
 * verification and the expected challenge. A payerId restricts it to that payer's passkeys.
 * Updates the signature counter, so a cloned authenticator shows itself.
 */
export async function verifyAssertion(
  db: TDb,
  config: TConfig,
  input: {
    response: TAuthenticationResponse;
    expectedChallenge: string;
    payerId?: string;
    /**
     * Pages that may embed ours while a passkey is used in the frame (the clientDataJSON's
     * topOrigin): the merchant client's registered origins. Anyone else framing us is refused.
     */
    embedOrigins: string[];
    /** Refusal when the signature does not hold (the sign-in or the grant wording). */
    failure:
      'AUTHENTICATION_FAILED_RETRY' | 'GRANT_SIGNATURE_INVALID' | 'REVOCATION_SIGNATURE_INVALID';
  },
  now: Date = new Date(),
): Promise<{ passkey: TPasskeyRow }> {
  const where = input.payerId
    ? and(eq(passkeys.id, input.response.id), eq(passkeys.payerId, input.payerId))
    : eq(passkeys.id, input.response.id);
  const [passkey] = await db.select().from(passkeys).where(where);
  if (!passkey) {
    throw new AppError(input.payerId ? input.failure : 'PASSKEY_NOT_RECOGNISED');
  }
  const userHandle = input.response.response.userHandle;
  if (userHandle && Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.payerId) {
    throw new AppError(input.failure);
  }
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: config.webauthnOrigins,
      expectedRPID: config.webauthnRpId,
      expectedTopOrigin: [...config.webauthnOrigins, ...input.embedOrigins],
      requireUserVerification: true,
      credential: {
        id: passkey.id,
        publicKey: bytes(passkey.publicKey),
        counter: passkey.counter,
        ...(passkey.transports ? { transports: passkey.transports } : {}),
      },
    });
  } catch {
    throw new AppError(input.failure);
  }
  if (!verified.verified) throw new AppError(input.failure);
  const { newCounter } = verified.authenticationInfo;
  // The counter moves forward in the same statement that checks it: of two assertions racing
  // with the same counter (a cloned authenticator), only one is accepted. Synced passkeys
  // always report 0, and stay at 0.
  const [updated] = await db
    .update(passkeys)
    .set({
      counter: newCounter,
      backedUp: verified.authenticationInfo.credentialBackedUp,
      lastUsedAt: now,
    })
    .where(
      and(
        eq(passkeys.id, passkey.id),
        newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter),
      ),
    )
    .returning({ id: passkeys.id });
  if (!updated) throw new AppError(input.failure);
  return { passkey };
}

/** A passkey sign-in: uses the sign-in challenge up, then verifies the assertion. */
export async function verifySignIn(
  db: TDb,
  config: TConfig,
  input: { response: TAuthenticationResponse; embedOrigins: string[] },
  now: Date = new Date(),
): Promise<{ payerId: string }> {
  const challenge = challengeOf(input.response.response.clientDataJSON);
  await consumeChallenge(db, challenge, { purpose: 'authentication' }, now);
  const { passkey } = await verifyAssertion(
    db,
    config,
    {
      response: input.response,
      expectedChallenge: challenge,
      embedOrigins: input.embedOrigins,
      failure: 'AUTHENTICATION_FAILED_RETRY',
    },
    now,
  );
  return { payerId: passkey.payerId };
}

/** The payer's passkeys as WebAuthn allowCredentials (for grant signing). */
export async function allowCredentialsOf(db: TDb, payerId: string) {
  const rows = await db.select().from(passkeys).where(eq(passkeys.payerId, payerId));
  return rows.map((p) => ({
    id: p.id,
    type: 'public-key' as const,
    ...(p.transports ? { transports: p.transports } : {}),
  }));
}

/** A random, URL-safe nonce (grant challenges). */
export function randomNonce(): string {
  return randomBytes(32).toString('base64url');
}

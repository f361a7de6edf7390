import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import { and, eq, lt, lte, ne, or, type SQL } from 'drizzle-orm';
import { formatErrorMessage } from '../../../domain/errors';
import { formatLagosDateTime } from '../../../domain/payment-date';
import { passkeySignsFrom, UNAPPROVED_PASSKEY_WAIT_MS } from '../../../domain/passkey-trust';
import {
  WEBAUTHN_TIMEOUT_MS,
  type TAuthenticationResponse,
  type TWebAuthnOptions,
} from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { passkeys } from '../../db/schema';
import { AppError } from '../app-error';
import { challengeOf, consumeChallenge, storeChallenge } from './webauthn-challenges';

export type TPasskeyRow = typeof passkeys.$inferSelect;

const bytes = (base64url: string) => new Uint8Array(Buffer.from(base64url, 'base64url'));

/**
 * The passkeys that may authorise money now (docs/identity.md "When a passkey is trusted"): those
 * approved, or needing no approval, and those added without approval at least 24 h ago. Used in
 * the statement that uses the passkey, so a passkey removed or not yet trusted is refused there.
 */
export function maySignMoney(now: Date): SQL {
  return or(
    ne(passkeys.approval, 'none'),
    lte(passkeys.createdAt, new Date(now.getTime() - UNAPPROVED_PASSKEY_WAIT_MS)),
  ) as SQL;
}

/** The refusal of a passkey that may not sign money yet: it says from when it may. */
function notYetTrusted(passkey: Pick<TPasskeyRow, 'approval' | 'createdAt'>): AppError {
  return new AppError(
    'PASSKEY_NOT_YET_TRUSTED',
    formatErrorMessage('PASSKEY_NOT_YET_TRUSTED', {
      signsFrom: formatLagosDateTime(passkeySignsFrom(passkey)),
    }),
  );
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
      | 'AUTHENTICATION_FAILED_RETRY'
      | 'GRANT_SIGNATURE_INVALID'
      | 'REVOCATION_SIGNATURE_INVALID'
      | 'PASSKEY_APPROVAL_INVALID';
    /**
     * The signature authorises money (a debit, a mandate) or another passkey: only a passkey that
     * may sign money now (maySignMoney) is accepted, checked in the statement that uses it.
     */
    signsMoney?: boolean;
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
  // always report 0, and stay at 0. A signature of money is checked against the passkey's trust
  // there too: one removed or not yet trusted by then is refused, with no gap to slip through.
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
        input.signsMoney ? maySignMoney(now) : undefined,
      ),
    )
    .returning({ id: passkeys.id });
  if (!updated) {
    // Refused by the statement; the row read above only chooses the message.
    if (input.signsMoney && passkeySignsFrom(passkey) > now) throw notYetTrusted(passkey);
    throw new AppError(input.failure);
  }
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
export async function allowCredentialsOf(
  db: TDb,
  payerId: string,
  /** Only those that may sign money at this moment (the approvers of a new passkey). */
  signingMoneyAt?: Date,
) {
  const rows = await db
    .select()
    .from(passkeys)
    .where(
      and(eq(passkeys.payerId, payerId), signingMoneyAt ? maySignMoney(signingMoneyAt) : undefined),
    );
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

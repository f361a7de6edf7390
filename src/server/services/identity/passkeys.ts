import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import { and, eq, gt, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
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
import { authSessions, passkeys } from '../../db/schema';
import { AppError } from '../../app-error';
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

/**
 * The passkeys that still sign anything: those whose removal, asked for by a session signed in by
 * code alone, is not yet due (docs/identity.md "Scheduled removal"). A due one is deleted when
 * next touched (dropDueRemovals); until then every statement that uses a passkey excludes it.
 */
export function notDueForRemoval(now: Date): SQL {
  return or(isNull(passkeys.removalDueAt), gt(passkeys.removalDueAt, now)) as SQL;
}

/** Deletes the passkeys of `payerId` whose scheduled removal is due. */
export async function dropDueRemovals(db: TDb, payerId: string, now: Date): Promise<void> {
  await db
    .delete(passkeys)
    .where(and(eq(passkeys.payerId, payerId), lte(passkeys.removalDueAt, now)));
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

/** An assertion to verify, and what it is for. */
type TAssertionInput = {
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
    | 'PAUSE_SIGNATURE_INVALID'
    | 'ERASURE_SIGNATURE_INVALID'
    | 'PASSKEY_APPROVAL_INVALID';
  /**
   * The signature authorises money (a debit, a mandate) or another passkey: only a passkey that
   * may sign money now (maySignMoney) is accepted, checked in the statement that uses it.
   */
  signsMoney?: boolean;
  /**
   * The signed-in session the assertion is made in: when the passkey is trusted (maySignMoney)
   * the session is marked proven (auth_sessions.passkey_proven_at) in the transaction that uses
   * the passkey.
   */
  provesSession?: string;
};

/**
 * Verifies an assertion against the stored passkey it names: signature, origin, RP ID, user
 * verification and the expected challenge. A payerId restricts it to that payer's passkeys.
 * Updates the signature counter, so a cloned authenticator shows itself.
 */
export async function verifyAssertion(
  db: TDb,
  config: TConfig,
  input: TAssertionInput,
  now: Date = new Date(),
): Promise<{ passkey: TPasskeyRow; trusted: boolean }> {
  const passkey = await namedPasskey(db, input, now);
  const info = await verifiedAuthentication(config, input, passkey);
  const used = await db.transaction((tx) => usePasskey(tx, input, passkey, info, now));
  if (!used) {
    // Refused by the statement; the row read above only chooses the message.
    if (input.signsMoney && passkeySignsFrom(passkey) > now) throw notYetTrusted(passkey);
    throw new AppError(input.failure);
  }
  return { passkey, trusted: used.trusted };
}

/** The stored passkey the assertion names, of its payer, and not due for removal. */
async function namedPasskey(db: TDb, input: TAssertionInput, now: Date): Promise<TPasskeyRow> {
  const where = input.payerId
    ? and(eq(passkeys.id, input.response.id), eq(passkeys.payerId, input.payerId))
    : eq(passkeys.id, input.response.id);
  const [passkey] = await db.select().from(passkeys).where(where);
  if (passkey?.removalDueAt && passkey.removalDueAt.getTime() <= now.getTime()) {
    // Its removal is due: it is gone, as if the payer had removed it then.
    await dropDueRemovals(db, passkey.payerId, now);
    throw new AppError(input.payerId ? input.failure : 'PASSKEY_NOT_RECOGNISED');
  }
  if (!passkey) {
    throw new AppError(input.payerId ? input.failure : 'PASSKEY_NOT_RECOGNISED');
  }
  const userHandle = input.response.response.userHandle;
  if (userHandle && Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.payerId) {
    throw new AppError(input.failure);
  }
  return passkey;
}

/** What the library verified of the assertion: the new counter, whether it is backed up. */
type TAuthenticationInfo = Awaited<
  ReturnType<typeof verifyAuthenticationResponse>
>['authenticationInfo'];

/** The assertion's signature checked with the stored public key, user verification required. */
async function verifiedAuthentication(
  config: TConfig,
  input: TAssertionInput,
  passkey: TPasskeyRow,
): Promise<TAuthenticationInfo> {
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
  return verified.authenticationInfo;
}

/**
 * The counter moves forward in the same statement that checks it: of two assertions racing
 * with the same counter (a cloned authenticator), only one is accepted. Synced passkeys
 * always report 0, and stay at 0. A signature of money is checked against the passkey's trust
 * there too: one removed or not yet trusted by then is refused, with no gap to slip through.
 * A passkey whose removal fell due meanwhile is refused there too. Whether it is trusted comes
 * back from the same statement, and proves the session in the same transaction.
 */
async function usePasskey(
  tx: TDb,
  input: TAssertionInput,
  passkey: TPasskeyRow,
  info: TAuthenticationInfo,
  now: Date,
): Promise<{ id: string; trusted: boolean } | undefined> {
  const { newCounter } = info;
  const [updated] = await tx
    .update(passkeys)
    .set({
      counter: newCounter,
      backedUp: info.credentialBackedUp,
      lastUsedAt: now,
    })
    .where(
      and(
        eq(passkeys.id, passkey.id),
        newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter),
        notDueForRemoval(now),
        input.signsMoney ? maySignMoney(now) : undefined,
      ),
    )
    .returning({ id: passkeys.id, trusted: sql<boolean>`${maySignMoney(now)}` });
  if (updated?.trusted && input.provesSession) {
    await tx
      .update(authSessions)
      .set({ passkeyProvenAt: sql`coalesce(${authSessions.passkeyProvenAt}, ${now})` })
      .where(
        and(eq(authSessions.id, input.provesSession), eq(authSessions.payerId, passkey.payerId)),
      );
  }
  return updated;
}

/** A passkey sign-in: uses the sign-in challenge up, then verifies the assertion. */
export async function verifySignIn(
  db: TDb,
  config: TConfig,
  input: { response: TAuthenticationResponse; embedOrigins: string[] },
  now: Date = new Date(),
): Promise<{ payerId: string; passkeyId: string; trusted: boolean }> {
  const challenge = challengeOf(input.response.response.clientDataJSON);
  await consumeChallenge(db, challenge, { purpose: 'authentication' }, now);
  const { passkey, trusted } = await verifyAssertion(
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
  return { payerId: passkey.payerId, passkeyId: passkey.id, trusted };
}

/** The payer's passkeys that still sign, as WebAuthn allowCredentials (for grant signing). */
export async function allowCredentialsOf(
  db: TDb,
  payerId: string,
  now: Date,
  /** Only those that may sign money at this moment (the approvers of a new passkey). */
  signingMoney = false,
) {
  const rows = await db
    .select()
    .from(passkeys)
    .where(
      and(
        eq(passkeys.payerId, payerId),
        notDueForRemoval(now),
        signingMoney ? maySignMoney(now) : undefined,
      ),
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

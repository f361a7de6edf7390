import { createHash } from 'node:crypto';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { and, asc, eq, exists, or, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  newDeviceMessage,
  passkeySignsFrom,
  type TPasskeyApproval,
} from '../../../domain/passkey-trust';
import {
  passkeyApprovalMessage,
  WEBAUTHN_TIMEOUT_MS,
  ZAuthenticatorTransport,
  type TAuthenticatorTransport,
  type TPasskeyApprovalOptions,
  type TPasskeyRegisterRequest,
  type TPasskeySummary,
  type TWebAuthnOptions,
} from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import {
  accountLinks,
  authSessions,
  consents,
  futurePaymentAccounts,
  passkeys,
  payerAccounts,
  payers,
} from '../../db/schema';
import type { TSmsSender } from '../../providers/sms';
import { AppError } from '../app-error';
import { allowedOriginsOf } from '../merchants/merchant-clients';
import { accountPageUrl } from '../page-urls';
import { allowCredentialsOf, maySignMoney, verifyAssertion } from './passkeys';
import { countPasskeys, findPayerById } from './payers';
import { challengeOf, consumeChallenge, storeChallenge } from './webauthn-challenges';

/*
 * The payer's passkeys as devices (docs/identity.md "When a passkey is trusted"):
 * 1. A new payer's first passkey, made before anything is linked, signs at once: there is nothing
 *    to take yet.
 * 2. Any later one is approved by a passkey the payer already trusts (an assertion of
 *    passkeyApprovalMessage: this registration's challenge and the new credential), and then
 *    signs at once; without approval it signs the payer in but no debit, mandate or link for
 *    24 h (passkeys.ts maySignMoney, checked in the statement that uses the passkey).
 * 3. Either way the payer's number is told by SMS, before the call answers.
 * 4. The payer lists and removes their own passkeys; a removed one signs nothing from then on.
 */

type TDevicesContext = { db: TDb; config: TConfig; sms: TSmsSender };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url');

/** The transports the browser reported that we know by name; hints for later sign-ins only. */
function knownTransports(reported: string[] | undefined): TAuthenticatorTransport[] | null {
  if (!reported) return null;
  return reported.flatMap((t) => {
    const known = ZAuthenticatorTransport.safeParse(t);
    return known.success ? [known.data] : [];
  });
}

/** Whether `payerId` has a row in `table`. */
const holds = (db: TDb, table: PgTable, payerColumn: PgColumn, payerId: string) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(table)
      .where(eq(payerColumn, payerId)),
  );

/**
 * Whether a new passkey of this payer needs approval: the payer holds a passkey, or an account
 * (being linked or linked, with a card saved on it or not), a mandate, future payments bound to
 * an account, or a consent they granted (a payer who removed all the rest is not new). `lock` takes the payer's row for the rest of the transaction, so of two first
 * passkeys registered at once the second finds the first.
 */
async function approvalNeeded(db: TDb, payerId: string, lock: boolean): Promise<boolean> {
  // The lock first, the reads after it in their own statement: a statement's snapshot is taken
  // when it starts, so reads in the locking statement would not see what the lock waited for.
  if (lock) {
    await db.select({ id: payers.id }).from(payers).where(eq(payers.id, payerId)).for('update');
  }
  const [row] = await db
    .select({
      vouched: payers.trustsFirstPasskey,
      passkey: sql<boolean>`${holds(db, passkeys, passkeys.payerId, payerId)}`,
      linked: sql<boolean>`${or(
        holds(db, payerAccounts, payerAccounts.payerId, payerId),
        holds(db, accountLinks, accountLinks.payerId, payerId),
        holds(db, futurePaymentAccounts, futurePaymentAccounts.payerId, payerId),
        holds(db, consents, consents.grantedBy, payerId),
      )}`,
    })
    .from(payers)
    .where(eq(payers.id, payerId));
  // The session outlived its payer (account removed): the token no longer names anyone.
  if (!row) throw new AppError('AUTHENTICATION_FAILED');
  return row.passkey || (row.linked && !row.vouched);
}

/**
 * Options to create one more passkey for a signed-in payer (their others are excluded), and
 * whether it needs approval, by which of their passkeys.
 */
export async function registrationOptions(
  db: TDb,
  config: TConfig,
  payerId: string,
  now: Date,
): Promise<{ options: TWebAuthnOptions; approval: TPasskeyApprovalOptions }> {
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
  const needed = await approvalNeeded(db, payerId, false);
  return {
    options: { ...options },
    approval: {
      needed,
      rpId: config.webauthnRpId,
      allowCredentials: needed ? await allowCredentialsOf(db, payerId, now) : [],
      unapprovedSignsFrom: passkeySignsFrom({ approval: 'none', createdAt: now }).toISOString(),
    },
  };
}

/** The merchant origins that may frame the page of this session (a passkey used in an iframe). */
async function embedOriginsOfSession(db: TDb, sessionId: string): Promise<string[]> {
  const [session] = await db
    .select({ clientId: authSessions.clientId })
    .from(authSessions)
    .where(eq(authSessions.id, sessionId));
  return session ? allowedOriginsOf(db, session.clientId) : [];
}

/**
 * Verifies and keeps a new passkey of a signed-in payer, approved by one of their trusted
 * passkeys when one is needed and sent, and tells the payer's number of it (steps 1 to 3 above).
 */
export async function registerPasskey(
  { db, config, sms }: TDevicesContext,
  session: { payerId: string; sessionId: string },
  body: TPasskeyRegisterRequest,
  now: Date,
): Promise<{
  passkeyId: string;
  passkeyCount: number;
  approval: TPasskeyApproval;
  signsFrom: Date;
}> {
  const { payerId } = session;
  const challenge = challengeOf(body.response.response.clientDataJSON);
  await consumeChallenge(db, challenge, { purpose: 'registration', payerId }, now);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      // The zod schema checked the shape; the library checks the content.
      response: body.response,
      expectedChallenge: challenge,
      expectedOrigin: config.webauthnOrigins,
      expectedRPID: config.webauthnRpId,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('PASSKEY_REGISTRATION_FAILED');
  }
  if (!verified.verified) throw new AppError('PASSKEY_REGISTRATION_FAILED');
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const embedOrigins = body.approval ? await embedOriginsOfSession(db, session.sessionId) : [];

  const saved = await db.transaction(async (tx) => {
    let approval: TPasskeyApproval = 'not-needed';
    let approvedBy: string | null = null;
    if (await approvalNeeded(tx, payerId, true)) {
      approval = 'none';
      if (body.approval) {
        // The approver must itself be trusted now: a passkey still waiting approves nothing.
        const { passkey } = await verifyAssertion(
          tx,
          config,
          {
            response: body.approval,
            expectedChallenge: sha256(
              passkeyApprovalMessage({
                registrationChallenge: challenge,
                credentialId: credential.id,
              }),
            ),
            payerId,
            embedOrigins,
            failure: 'PASSKEY_APPROVAL_INVALID',
            signsMoney: true,
          },
          now,
        );
        approval = 'approved';
        approvedBy = passkey.id;
      }
    }
    const [inserted] = await tx
      .insert(passkeys)
      .values({
        id: credential.id,
        payerId,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: knownTransports(body.response.response.transports),
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        approval,
        approvedBy,
        createdAt: now,
      })
      .onConflictDoNothing({ target: passkeys.id })
      .returning({ id: passkeys.id });
    if (!inserted) throw new AppError('PASSKEY_ALREADY_REGISTERED');
    return { passkeyId: inserted.id, approval, passkeyCount: await countPasskeys(tx, payerId) };
  });

  const signsFrom = passkeySignsFrom({ approval: saved.approval, createdAt: now });
  if (saved.approval !== 'not-needed') {
    const payer = await findPayerById(db, payerId);
    if (!payer) throw new AppError('AUTHENTICATION_FAILED');
    const message = newDeviceMessage({
      productName: config.productName,
      addedAt: now,
      approval: saved.approval,
      signsFrom,
      accountPageUrl: accountPageUrl(config.publicUrl),
    });
    try {
      await sms.send(payer.phoneNumber, message);
    } catch (error) {
      // The payer hears of every device added to an account in use: one they could not be told
      // of is not kept.
      await db.delete(passkeys).where(eq(passkeys.id, saved.passkeyId));
      throw error;
    }
  }
  return { ...saved, signsFrom };
}

/** The signed-in payer's passkeys for their account page, oldest first. */
export async function listPasskeys(
  db: TDb,
  payerId: string,
  now: Date,
): Promise<TPasskeySummary[]> {
  const rows = await db
    .select({
      id: passkeys.id,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      deviceType: passkeys.deviceType,
      approval: passkeys.approval,
      canApprove: sql<boolean>`${maySignMoney(now)}`,
    })
    .from(passkeys)
    .where(eq(passkeys.payerId, payerId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map((row) => ({
    passkeyId: row.id,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    synced: row.deviceType === 'multiDevice',
    approval: row.approval,
    signsFrom: passkeySignsFrom(row).toISOString(),
    canApprove: row.canApprove,
  }));
}

/**
 * Removes one of the signed-in payer's own passkeys, in one statement that checks whose it is:
 * another payer's, or none, is PASSKEY_NOT_FOUND (404), so ids cannot be probed. The last one may
 * go too (docs/identity.md): the payer still signs in with a code, and a new passkey on an
 * account in use waits for approval or 24 h. From the commit on, it signs nothing.
 */
export async function removePasskey(
  db: TDb,
  payerId: string,
  passkeyId: string,
): Promise<{ passkeyCount: number }> {
  const [removed] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.payerId, payerId)))
    .returning({ id: passkeys.id });
  if (!removed) throw new AppError('PASSKEY_NOT_FOUND');
  return { passkeyCount: await countPasskeys(db, payerId) };
}

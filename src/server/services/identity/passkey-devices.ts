import { createHash, createHmac, randomBytes } from 'node:crypto';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { and, asc, eq, exists, gt, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  newDeviceMessage,
  PASSKEY_REMOVAL_WAIT_MS,
  passkeySignsFrom,
  removalCancelUrl,
  removalScheduledMessage,
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
  dashboardStaff,
  futurePaymentAccounts,
  passkeys,
  payerAccounts,
  payers,
} from '../../db/schema';
import {
  coalescedNotice,
  sendQueuedSms,
  SMS_ASKED_BY_NO_CALL,
  type TSmsGate,
  type TSmsJobs,
  openSmsOutbox,
  type TSmsOutbox,
} from '../../jobs/sms-job';
import { AppError } from '../../app-error';
import { tellTeamsOfWaitingPasskey } from '../dashboard/team-passkey-notices';
import { allowedOriginsOf } from '../merchants/merchant-clients';
import { accountPageUrl } from '../page-urls';
import { identityKeys } from './identity-keys';
import { allowCredentialsOf, dropDueRemovals, maySignMoney, verifyAssertion } from './passkeys';
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
 * 3. Either way the payer's number is told by SMS, before the call answers; a member of a
 *    dashboard team has a waiting one told to each team too (its audit log, its other owners).
 * 4. The payer lists and removes their own passkeys; a removed one signs nothing from then on.
 *    A session no trusted passkey proved (an SMS code alone) removes a trusted passkey only 24 h
 *    later, and the payer's number gets a cancel link (docs/identity.md "Scheduled removal").
 */

type TDevicesContext = {
  db: TDb;
  config: TConfig;
  /** The app's job engine: sends the queued SMS at once (absent: another process sends it). */
  jobs: TSmsJobs;
  /**
   * Counts each SMS to the payer's own number for the payer or staff member who asks (sms-job.ts
   * queueSms; the route's rate-limits.ts ownSmsSends). Notices to a team's other owners are not
   * counted by it.
   */
  smsGate: TSmsGate;
};

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
 * The membership of a dashboard team that the session making the passkey has just accepted by
 * invitation (its first passkey is how the invitation completes), or null.
 */
export type TJoining = string | null;

/**
 * Whether a new passkey of this payer needs approval: the payer holds a passkey, or an account
 * (being linked or linked, with a card saved on it or not), a mandate, future payments bound to
 * an account, or a consent they granted (a payer who removed all the rest is not new); or the
 * payer is on a merchant's dashboard team, any role, other than the one `joining` names: staff
 * power is something to take, whatever else the person holds (the demo's vouching included).
 * `lock` takes the payer's row for the rest of the transaction, so of two first passkeys
 * registered at once the second finds the first.
 */
async function approvalNeeded(
  db: TDb,
  payerId: string,
  joining: TJoining,
  lock: boolean,
): Promise<boolean> {
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
      member: sql<boolean>`${exists(
        db
          .select({ one: sql`1` })
          .from(dashboardStaff)
          .where(
            and(
              eq(dashboardStaff.payerId, payerId),
              isNull(dashboardStaff.removedAt),
              joining === null ? undefined : ne(dashboardStaff.id, joining),
            ),
          ),
      )}`,
    })
    .from(payers)
    .where(eq(payers.id, payerId));
  // The session outlived its payer (account removed): the token no longer names anyone.
  if (!row) throw new AppError('AUTHENTICATION_FAILED');
  return row.passkey || row.member || (row.linked && !row.vouched);
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
  joining: TJoining = null,
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
  await dropDueRemovals(db, payerId, now);
  const needed = await approvalNeeded(db, payerId, joining, false);
  return {
    options: { ...options },
    approval: {
      needed,
      rpId: config.webauthnRpId,
      allowCredentials: needed ? await allowCredentialsOf(db, payerId, now, true) : [],
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
  { db, config, jobs, smsGate }: TDevicesContext,
  session: TRegisteringSession,
  body: TPasskeyRegisterRequest,
  now: Date,
): Promise<{
  passkeyId: string;
  passkeyCount: number;
  approval: TPasskeyApproval;
  signsFrom: Date;
}> {
  const challenge = challengeOf(body.response.response.clientDataJSON);
  await consumeChallenge(db, challenge, { purpose: 'registration', payerId: session.payerId }, now);
  const info = await verifiedRegistration(config, body, challenge);
  const registration: TRegistration = {
    session,
    body,
    challenge,
    info,
    embedOrigins: body.approval ? await embedOriginsOfSession(db, session.sessionId) : [],
    now,
  };
  const outbox = await openSmsOutbox({ db, jobs, smsGate });
  const saved = await db.transaction((tx) => savePasskey(tx, config, outbox, registration));
  // Sent now by this process when it works on SMS jobs; the queued job is the guarantee.
  await sendQueuedSms(jobs, saved.sms);
  return {
    passkeyId: saved.passkeyId,
    approval: saved.approval,
    passkeyCount: saved.passkeyCount,
    signsFrom: passkeySignsFrom({ approval: saved.approval, createdAt: now }),
  };
}

/** The signed-in payer's session a passkey is made in, and the team invitation it joins by. */
type TRegisteringSession = { payerId: string; sessionId: string; joining?: TJoining };

/** What the authenticator made, as the library verified it. */
type TRegistrationInfo = NonNullable<
  Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo']
>;

/** A verified registration, ready to keep. */
type TRegistration = {
  session: TRegisteringSession;
  body: TPasskeyRegisterRequest;
  challenge: string;
  info: TRegistrationInfo;
  /** The merchant origins an approval made in an iframe may come from. */
  embedOrigins: string[];
  now: Date;
};

/** The authenticator's answer to `challenge`, verified with user verification required. */
async function verifiedRegistration(
  config: TConfig,
  body: TPasskeyRegisterRequest,
  challenge: string,
): Promise<TRegistrationInfo> {
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
  return verified.registrationInfo;
}

/**
 * The registration's transaction: the passkey kept with the approval it needs and got, the
 * session proven by a first one, and the SMS of a device added queued with it.
 */
async function savePasskey(
  tx: TDb,
  config: TConfig,
  outbox: TSmsOutbox,
  registration: TRegistration,
): Promise<{
  passkeyId: string;
  approval: TPasskeyApproval;
  passkeyCount: number;
  sms: string[];
}> {
  const { session, now } = registration;
  await dropDueRemovals(tx, session.payerId, now);
  const { approval, approvedBy } = await approvalOf(tx, config, registration);
  const passkeyId = await insertPasskey(tx, registration, approval, approvedBy);
  if (approval === 'not-needed') {
    // A first passkey that signs at once, made with user verification in this session, proves
    // it as a sign-in with it would (an approved one was proven by its approver above).
    await tx
      .update(authSessions)
      .set({ passkeyProvenAt: sql`coalesce(${authSessions.passkeyProvenAt}, ${now})` })
      .where(eq(authSessions.id, session.sessionId));
  }
  const sms =
    approval !== 'not-needed'
      ? await queueNewDeviceSms(tx, config, outbox, { passkeyId, approval, now, session })
      : [];
  return {
    passkeyId,
    approval,
    passkeyCount: await countPasskeys(tx, session.payerId),
    sms,
  };
}

/**
 * The approval the new passkey needs, and the trusted passkey that gave it: none needed, none
 * given, or given by the approval sent with the registration.
 */
async function approvalOf(
  tx: TDb,
  config: TConfig,
  registration: TRegistration,
): Promise<{ approval: TPasskeyApproval; approvedBy: string | null }> {
  const { session, body, now } = registration;
  const payerId = session.payerId;
  if (!(await approvalNeeded(tx, payerId, session.joining ?? null, true))) {
    return { approval: 'not-needed', approvedBy: null };
  }
  if (!body.approval) return { approval: 'none', approvedBy: null };
  // The approver must itself be trusted now: a passkey still waiting approves nothing.
  const { passkey } = await verifyAssertion(
    tx,
    config,
    {
      response: body.approval,
      expectedChallenge: sha256(
        passkeyApprovalMessage({
          registrationChallenge: registration.challenge,
          credentialId: registration.info.credential.id,
        }),
      ),
      payerId,
      embedOrigins: registration.embedOrigins,
      failure: 'PASSKEY_APPROVAL_INVALID',
      signsMoney: true,
      // The approver is trusted (signsMoney): it proves this session too.
      provesSession: session.sessionId,
    },
    now,
  );
  return { approval: 'approved', approvedBy: passkey.id };
}

/** Keeps the new passkey; its id, or PASSKEY_ALREADY_REGISTERED when it is kept already. */
async function insertPasskey(
  tx: TDb,
  registration: TRegistration,
  approval: TPasskeyApproval,
  approvedBy: string | null,
): Promise<string> {
  const { credential, credentialDeviceType, credentialBackedUp } = registration.info;
  const [inserted] = await tx
    .insert(passkeys)
    .values({
      id: credential.id,
      payerId: registration.session.payerId,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: knownTransports(registration.body.response.response.transports),
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      approval,
      approvedBy,
      createdAt: registration.now,
    })
    .onConflictDoNothing({ target: passkeys.id })
    .returning({ id: passkeys.id });
  if (!inserted) throw new AppError('PASSKEY_ALREADY_REGISTERED');
  return inserted.id;
}

/**
 * The payer hears of every device added to an account in use: the SMS is a job queued in the
 * registration's transaction (the outbox), so the device exists exactly when its message is on
 * its way, whatever happens after the commit. A waiting one is told to the member's teams too.
 * Devices added with the same approval within a few minutes are one SMS (coalescedNotice): the
 * first one's, which sends the payer to the account page that lists them all. Answers the SMS
 * jobs' ids.
 */
async function queueNewDeviceSms(
  tx: TDb,
  config: TConfig,
  outbox: TSmsOutbox,
  added: {
    passkeyId: string;
    approval: Exclude<TPasskeyApproval, 'not-needed'>;
    now: Date;
    session: TRegisteringSession;
  },
): Promise<string[]> {
  const { passkeyId, approval, now } = added;
  const payer = await findPayerById(tx, added.session.payerId);
  if (!payer) throw new AppError('AUTHENTICATION_FAILED');
  const signsFrom = passkeySignsFrom({ approval, createdAt: now });
  const sms = [
    await outbox.queue(tx, coalescedNotice(`new-device-${approval}`, payer.id, now), {
      phoneNumber: payer.phoneNumber,
      body: newDeviceMessage({
        productName: config.productName,
        addedAt: now,
        approval,
        signsFrom,
        accountPageUrl: accountPageUrl(config.publicUrl),
      }),
    }),
  ];
  if (approval === 'none') {
    // The owners' notices count against neither the member's limit nor each owner's number: a
    // member of a team with many owners could otherwise never add a passkey, and one owner's
    // number filled by strangers would stop every member. Each owner gets one per member and
    // notice window.
    sms.push(
      ...(await tellTeamsOfWaitingPasskey(
        tx,
        config,
        { passkeyId, member: payer, addedAt: now, changesFrom: signsFrom },
        (change, message) => outbox.queue(tx, change, message, SMS_ASKED_BY_NO_CALL),
      )),
    );
  }
  return sms;
}

/** The signed-in payer's passkeys for their account page, oldest first. */
export async function listPasskeys(
  db: TDb,
  payerId: string,
  now: Date,
): Promise<TPasskeySummary[]> {
  await dropDueRemovals(db, payerId, now);
  const rows = await db
    .select({
      id: passkeys.id,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      deviceType: passkeys.deviceType,
      approval: passkeys.approval,
      canApprove: sql<boolean>`${maySignMoney(now)}`,
      removalDueAt: passkeys.removalDueAt,
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
    removalDueAt: row.removalDueAt?.toISOString() ?? null,
  }));
}

/** Keyed hash of a cancel link's token, as codes are kept (phone-codes.ts): a leaked table gives none. */
async function cancelHash(db: TDb, config: TConfig, token: string): Promise<string> {
  const keys = await identityKeys(db, config);
  return createHmac('sha256', keys.phoneCodeKey)
    .update(`passkey-removal:${token}`)
    .digest('base64url');
}

export type TPasskeyRemoval =
  | { removed: true; passkeyCount: number }
  | { removed: false; passkeyId: string; removalDueAt: Date; passkeyCount: number };

/**
 * Removes one of the signed-in payer's own passkeys (docs/identity.md "Scheduled removal"). In
 * one statement that checks whose it is and what the session proved, it goes at once when a
 * trusted passkey proved the session, or when the passkey itself cannot approve payments yet
 * (removing it takes away only what the 24 h rule still withholds, and is what the new-device SMS
 * asks of a payer who did not add it). Otherwise, asked by a session signed in by an SMS code
 * alone, its removal is scheduled PASSKEY_REMOVAL_WAIT_MS later and the payer's number gets a
 * cancel link; the passkey keeps signing until then. Another payer's, or none, is
 * PASSKEY_NOT_FOUND (404), so ids cannot be probed.
 */
export async function removePasskey(
  { db, config, jobs, smsGate }: TDevicesContext,
  session: { payerId: string; sessionId: string },
  passkeyId: string,
  now: Date,
): Promise<TPasskeyRemoval> {
  const { payerId } = session;
  await dropDueRemovals(db, payerId, now);
  const mine = and(eq(passkeys.id, passkeyId), eq(passkeys.payerId, payerId));
  const provenSession = exists(
    db
      .select({ one: sql`1` })
      .from(authSessions)
      .where(and(eq(authSessions.id, session.sessionId), isNotNull(authSessions.passkeyProvenAt))),
  );
  const [removed] = await db
    .delete(passkeys)
    .where(and(mine, or(provenSession, sql`not ${maySignMoney(now)}`)))
    .returning({ id: passkeys.id });
  if (removed) return { removed: true, passkeyCount: await countPasskeys(db, payerId) };

  const token = randomBytes(32).toString('base64url');
  const removalDueAt = new Date(now.getTime() + PASSKEY_REMOVAL_WAIT_MS);
  const hash = await cancelHash(db, config, token);
  const outbox = await openSmsOutbox({ db, jobs, smsGate });
  // The removal and the SMS with its cancel link are one change (the outbox): a removal is never
  // scheduled without the payer's number being told, whatever happens after the commit.
  const sms = await db.transaction(async (tx) => {
    const [scheduled] = await tx
      .update(passkeys)
      .set({ removalDueAt, removalCancelHash: hash })
      .where(and(mine, isNull(passkeys.removalDueAt)))
      .returning({ id: passkeys.id });
    if (!scheduled) return null;
    const payer = await findPayerById(tx, payerId);
    if (!payer) throw new AppError('AUTHENTICATION_FAILED');
    return outbox.queue(tx, `passkey-removal:${hash}`, {
      phoneNumber: payer.phoneNumber,
      body: removalScheduledMessage({
        productName: config.productName,
        askedAt: now,
        dueAt: removalDueAt,
        cancelUrl: removalCancelUrl(config.publicUrl, token),
      }),
    });
  });
  if (!sms) {
    // Scheduled already (asked twice): the first removal's time stands, and its link.
    const [pending] = await db
      .select({ removalDueAt: passkeys.removalDueAt })
      .from(passkeys)
      .where(mine);
    if (!pending?.removalDueAt) throw new AppError('PASSKEY_NOT_FOUND');
    return {
      removed: false,
      passkeyId,
      removalDueAt: pending.removalDueAt,
      passkeyCount: await countPasskeys(db, payerId),
    };
  }
  await sendQueuedSms(jobs, [sms]);
  return {
    removed: false,
    passkeyId,
    removalDueAt,
    passkeyCount: await countPasskeys(db, payerId),
  };
}

/**
 * The cancel link of a scheduled removal: its token, good once, while the removal is not yet due
 * (one statement). Needs no session: the payer may have no way left to sign in but this passkey.
 */
export async function cancelRemovalByToken(
  db: TDb,
  config: TConfig,
  token: string,
  now: Date,
): Promise<{ passkeyId: string }> {
  const kept = await keepScheduled(
    db,
    eq(passkeys.removalCancelHash, await cancelHash(db, config, token)),
    now,
  );
  if (!kept) throw new AppError('PASSKEY_REMOVAL_CANCEL_INVALID');
  return kept;
}

/**
 * Cancels a scheduled removal of the payer's own passkey from a session a trusted passkey proved
 * (the route asks for the proof). Not scheduled, or not theirs: PASSKEY_NOT_FOUND.
 */
export async function cancelRemoval(
  db: TDb,
  payerId: string,
  passkeyId: string,
  now: Date,
): Promise<{ passkeyId: string }> {
  const kept = await keepScheduled(
    db,
    and(eq(passkeys.id, passkeyId), eq(passkeys.payerId, payerId)),
    now,
  );
  if (!kept) throw new AppError('PASSKEY_NOT_FOUND');
  return kept;
}

/**
 * Cancels the scheduled removal of the passkey `which` names while it is not yet due, in one
 * statement: null when none matched (not scheduled, due already, or not found).
 */
async function keepScheduled(
  db: TDb,
  which: SQL | undefined,
  now: Date,
): Promise<{ passkeyId: string } | null> {
  const [kept] = await db
    .update(passkeys)
    .set({ removalDueAt: null, removalCancelHash: null })
    .where(and(which, gt(passkeys.removalDueAt, now)))
    .returning({ passkeyId: passkeys.id });
  return kept ?? null;
}

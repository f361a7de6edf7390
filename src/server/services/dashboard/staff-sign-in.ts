import { and, desc, eq, isNull } from 'drizzle-orm';
import { dashboardCodeMessage } from '../../../domain/dashboard-roles';
import { codeSentMessage } from '../../../domain/phone-code-texts';
import type { TPasskeyRegisterRequest } from '../../../domain/schemas/auth';
import type { TClock } from '../../clock';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { dashboardStaff, merchants } from '../../db/schema';
import type { TJobKind, TJobQueue } from '../../jobs/engine';
import { SMS_ASKED_BY_NO_CALL, type TSmsJobs } from '../../jobs/sms-job';
import { AppError } from '../../app-error';
import { codeTargetKey } from '../identity/code-sends';
import { registerPasskey, registrationOptions } from '../identity/passkey-devices';
import { verifySignIn } from '../identity/passkeys';
import { findPayerById, findPayerByPhone } from '../identity/payers';
import {
  checkPhoneCode,
  consumePhoneCode,
  holdUnsentPhoneCode,
  normalisePhone,
  requestPhoneCode,
} from '../identity/phone-codes';
import { actorName, actorOf, recordAudit } from './audit';
import {
  markSessionPasskey,
  membershipJoinedBy,
  openDashboardSession,
  type TStaffPrincipal,
} from './staff-sessions';

/*
 * Signing in to the dashboard (docs/dashboard.md "Sessions"): staff are people as payers are,
 * so their passkeys are the payers' own (services/identity), made and checked by the same code.
 * A passkey signs in; an SMS code only accepts an invitation or recovers a lost passkey, and the
 * session it opens may do nothing but make one.
 */

/** The person's newest membership of a team still on it: the merchant a sign-in opens. */
async function latestMembership(db: TDb, payerId: string) {
  const [row] = await db
    .select({
      staffId: dashboardStaff.id,
      merchantId: dashboardStaff.merchantId,
      merchantName: merchants.name,
    })
    .from(dashboardStaff)
    .innerJoin(merchants, eq(merchants.id, dashboardStaff.merchantId))
    .where(and(eq(dashboardStaff.payerId, payerId), isNull(dashboardStaff.removedAt)))
    .orderBy(desc(dashboardStaff.createdAt), desc(dashboardStaff.id))
    .limit(1);
  return row ?? null;
}

/** A passkey's sign-in: the person must be on a team. Answers the new session's cookie value. */
export async function signInWithPasskey(
  db: TDb,
  config: TConfig,
  response: Parameters<typeof verifySignIn>[2]['response'],
  now: Date,
): Promise<string> {
  const { payerId, passkeyId } = await verifySignIn(
    db,
    config,
    { response, embedOrigins: [] },
    now,
  );
  const membership = await latestMembership(db, payerId);
  if (!membership) throw new AppError('DASHBOARD_NOT_STAFF');
  const payer = await findPayerById(db, payerId);
  return db.transaction(async (tx) => {
    const session = await openDashboardSession(
      tx,
      { payerId, staffId: membership.staffId, method: 'passkey', passkeyId },
      now,
    );
    await recordAudit(
      tx,
      {
        merchantId: membership.merchantId,
        staffId: membership.staffId,
        actor: actorName(payer?.fullName ?? payerId, payer?.phoneNumber ?? ''),
      },
      { action: 'staff.signed_in' },
      now,
    );
    return session.token;
  });
}

/** Options to make a passkey in this session (the payers' own, with their exclusions). */
export const passkeyOptions = async (
  db: TDb,
  config: TConfig,
  principal: TStaffPrincipal,
  now: Date,
) =>
  registrationOptions(
    db,
    config,
    principal.payerId,
    now,
    await membershipJoinedBy(db, principal.sessionId),
  );

/**
 * Keeps the session's new passkey (the payers' registration: checks, approval, the SMS of a new
 * device; one added by SMS code alone to a member is told to the teams and logged there) and
 * makes the session a passkey's.
 */
export async function addStaffPasskey(
  ctx: Parameters<typeof registerPasskey>[0],
  principal: TStaffPrincipal,
  body: TPasskeyRegisterRequest,
  now: Date,
) {
  const saved = await registerPasskey(
    ctx,
    {
      payerId: principal.payerId,
      sessionId: principal.sessionId,
      joining: await membershipJoinedBy(ctx.db, principal.sessionId),
    },
    body,
    now,
  );
  await markSessionPasskey(ctx.db, principal.sessionId, saved.passkeyId);
  // A waiting passkey is in the log already, as added by SMS code, with the registration.
  if (principal.staff && saved.approval !== 'none') {
    await recordAudit(
      ctx.db,
      actorOf(principal),
      { action: 'staff.passkey_added', target: saved.passkeyId },
      now,
    );
  }
  return saved;
}

/**
 * A lost passkey: a code asked for a number (docs/dashboard.md "Getting in"). The answer, its
 * limits and its work are the same for every number: the number's ask is counted by its keyed
 * hash (`countTarget`, the shared rate limits) and a job is queued; whether the number is on a
 * team is for the job alone (`sendRecoveryCode`), after the answer, so neither the answer, nor
 * its time, nor a 429 tells a staff number from another.
 */
export async function askRecoveryCode(
  { db, jobs }: { db: TDb; jobs: TJobQueue },
  phone: string,
  countTarget: (targetKey: string) => Promise<void>,
): Promise<{ phoneNumber: string; message: string }> {
  const phoneNumber = normalisePhone(phone);
  await countTarget(await codeTargetKey(db, `phone:${phoneNumber}`));
  await jobs.enqueue(db, RECOVERY_CODE_JOB, { phoneNumber } satisfies TRecoveryCodeJob);
  return { phoneNumber, message: codeSentMessage(phoneNumber) };
}

/** The job that sends an asked recovery code. */
export const RECOVERY_CODE_JOB = 'sms.dashboard-recovery-code';

/** Its data: the number asked about (never a code). */
type TRecoveryCodeJob = { phoneNumber: string };

/**
 * The job's work: a code by SMS to a number on a team; to any other number a code nobody is sent
 * (`holdUnsentPhoneCode`), so a wrong guess at `POST /api/dashboard/recovery` reads the same for
 * both ('That code is not correct', tries left), and only whoever proved the code learns that the
 * number is on no team. A number past its codes for the hour gets nothing more, staff or not.
 */
export async function sendRecoveryCode(
  ctx: { db: TDb; config: TConfig; jobs: TSmsJobs },
  phoneNumber: string,
  now: Date,
): Promise<{ sent: boolean }> {
  const payer = await findPayerByPhone(ctx.db, phoneNumber);
  const membership = payer ? await latestMembership(ctx.db, payer.id) : null;
  try {
    if (!membership) {
      await holdUnsentPhoneCode(ctx.db, phoneNumber, now);
      return { sent: false };
    }
    // Its ask was counted when asked (askRecoveryCode): the job's SMS counts nothing more.
    await requestPhoneCode({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL }, phoneNumber, now, (sent) =>
      dashboardCodeMessage({
        productName: ctx.config.productName,
        merchantName: membership.merchantName,
        ...sent,
      }),
    );
    return { sent: true };
  } catch (error) {
    // Past its codes, or refused by the SMS provider: nothing more to send, and the job that
    // asked is done (the asker is never told either way).
    if (
      error instanceof AppError &&
      (error.code === 'PHONE_CODE_RATE_LIMITED' ||
        error.code === 'CODE_NOT_SENT' ||
        error.code === 'PHONE_NUMBER_UNREACHABLE')
    ) {
      return { sent: false };
    }
    throw error;
  }
}

/** The recovery code job kind (jobs/kinds.ts): retried briefly, as a code lives 5 minutes. */
export function recoveryCodeJob(ctx: {
  db: TDb;
  config: TConfig;
  clock: TClock;
  jobs: TSmsJobs;
}): TJobKind<TRecoveryCodeJob> {
  return {
    name: RECOVERY_CODE_JOB,
    retry: { limit: 5, delaySeconds: 5, maxDelaySeconds: 60 },
    expireSeconds: 60,
    run: ({ phoneNumber }) => sendRecoveryCode(ctx, phoneNumber, ctx.clock.now()),
  };
}

/** The recovery code proves the number: a 'phone-code' session that may make a passkey. */
export async function recoverWithCode(
  db: TDb,
  config: TConfig,
  input: { phone: string; code: string },
  now: Date,
): Promise<string> {
  const phoneNumber = normalisePhone(input.phone);
  const code = await checkPhoneCode(db, config, phoneNumber, input.code, now);
  const payer = await findPayerByPhone(db, phoneNumber);
  const membership = payer ? await latestMembership(db, payer.id) : null;
  if (!payer || !membership) throw new AppError('DASHBOARD_NOT_STAFF');
  return db.transaction(async (tx) => {
    await consumePhoneCode(tx, { id: code.id, phoneNumber }, now);
    const session = await openDashboardSession(
      tx,
      { payerId: payer.id, staffId: membership.staffId, method: 'phone-code' },
      now,
    );
    return session.token;
  });
}

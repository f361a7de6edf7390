import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import { maskedPhone } from '../../../domain/bvn';
import {
  dashboardCodeMessage,
  INVITATION_TTL_MS,
  invitationUrl,
  type TStaffRole,
} from '../../../domain/dashboard-roles';
import { codeSentMessage } from '../../../domain/phone-code-texts';
import { formatNigerianPhone } from '../../../domain/schemas/auth';
import type { TTeam } from '../../../domain/schemas/dashboard';
import type { TConfig } from '../../config';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { dashboardInvitations, dashboardStaff, merchants, payers } from '../../db/schema';
import { sendQueuedSms, openSmsOutbox } from '../../jobs/sms-job';
import { AppError } from '../../app-error';
import { createPayer, findPayerByPhone } from '../identity/payers';
import {
  checkPhoneCode,
  consumePhoneCode,
  normalisePhone,
  requestPhoneCode,
  type TCodeSending,
} from '../identity/phone-codes';
import { actorName, recordAudit, type TActor } from './audit';
import { endStaffSessions, openDashboardSession } from './staff-sessions';

/*
 * A merchant's staff and the invitations that make them (docs/dashboard.md "Team"):
 * 1. The operator (`npm run client:create`) or an owner makes an invitation: a link with a random
 *    token (its SHA-256 kept), a role, and the phone it is for (the operator's may name none).
 * 2. Its holder asks for an SMS code to the phone (the payers' own code machinery) and sends it
 *    back: in one transaction the code is used up, the invitation accepted (one statement, so a
 *    link serves once), the person found or signed up by their number, and made staff.
 * 3. That opens a 'phone-code' session that may only make a passkey; with one made, the staff
 *    member signs in with it from then on (staff-sign-in.ts).
 */

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url');

/** A live invitation of this token: not accepted, withdrawn nor expired. */
const liveInvitation = (token: string, now: Date) =>
  and(
    eq(dashboardInvitations.tokenHash, sha256(token)),
    isNull(dashboardInvitations.acceptedAt),
    isNull(dashboardInvitations.revokedAt),
    gt(dashboardInvitations.expiresAt, now),
  );

export async function createInvitation(
  db: TDb,
  config: Pick<TConfig, 'publicUrl'>,
  input: {
    merchantId: string;
    role: TStaffRole;
    refundLimit: number | null;
    phoneNumber: string | null;
    invitedBy: TActor;
  },
  now: Date,
): Promise<{ invitationId: string; invitationUrl: string }> {
  const token = randomBytes(24).toString('base64url');
  const invitationId = randomId('inv');
  await db.transaction(async (tx) => {
    const [merchant] = await tx
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.id, input.merchantId));
    if (!merchant) throw new AppError('CLIENT_NOT_FOUND');
    await tx.insert(dashboardInvitations).values({
      id: invitationId,
      merchantId: input.merchantId,
      role: input.role,
      refundLimit: input.role === 'support' ? input.refundLimit : null,
      phoneNumber: input.phoneNumber,
      tokenHash: sha256(token),
      invitedBy: input.invitedBy.staffId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    await recordAudit(
      tx,
      input.invitedBy,
      {
        action: 'team.invited',
        target: invitationId,
        data: { role: input.role, phoneNumber: input.phoneNumber, refundLimit: input.refundLimit },
      },
      now,
    );
  });
  return { invitationId, invitationUrl: invitationUrl(config.publicUrl, token) };
}

/**
 * An owner's invitation: the link also goes by SMS to the number, queued with the invitation (the
 * outbox, its text sealed: the link makes whoever holds it staff).
 */
export async function inviteByPhone(
  ctx: TCodeSending,
  who: TActor,
  input: { phone: string; role: TStaffRole; refundLimit: number | null; merchantName: string },
  now: Date,
) {
  const phoneNumber = normalisePhone(input.phone);
  const outbox = await openSmsOutbox(ctx);
  const made = await ctx.db.transaction(async (tx) => {
    const invited = await createInvitation(
      tx,
      ctx.config,
      { ...input, merchantId: who.merchantId, phoneNumber, invitedBy: who },
      now,
    );
    const sms = await outbox.queue(tx, `invitation:${invited.invitationId}`, {
      phoneNumber,
      body: `${ctx.config.productName}: ${input.merchantName} invites you to its dashboard. Open ${invited.invitationUrl}`,
    });
    return { invited, sms };
  });
  await sendQueuedSms(ctx.jobs, [made.sms]);
  return made.invited;
}

/** What the invitation page shows before the holder proves their number. */
export async function lookUpInvitation(db: TDb, token: string, now: Date) {
  const [row] = await db
    .select({
      merchantName: merchants.name,
      role: dashboardInvitations.role,
      phoneNumber: dashboardInvitations.phoneNumber,
      expiresAt: dashboardInvitations.expiresAt,
    })
    .from(dashboardInvitations)
    .innerJoin(merchants, eq(merchants.id, dashboardInvitations.merchantId))
    .where(liveInvitation(token, now));
  if (!row) throw new AppError('INVITATION_INVALID');
  return {
    merchantName: row.merchantName,
    role: row.role,
    phoneHint: row.phoneNumber ? maskedPhone(formatNigerianPhone(row.phoneNumber)) : null,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** Sends the code that accepts the invitation to its number (or the one given, for a link with none). */
export async function sendInvitationCode(
  ctx: TCodeSending,
  input: { token: string; phone: string },
  now: Date,
) {
  const phoneNumber = normalisePhone(input.phone);
  const [row] = await ctx.db
    .select({ phoneNumber: dashboardInvitations.phoneNumber, merchantName: merchants.name })
    .from(dashboardInvitations)
    .innerJoin(merchants, eq(merchants.id, dashboardInvitations.merchantId))
    .where(liveInvitation(input.token, now));
  if (!row) throw new AppError('INVITATION_INVALID');
  if (row.phoneNumber !== null && row.phoneNumber !== phoneNumber) {
    throw new AppError('INVITATION_OTHER_PHONE');
  }
  await requestPhoneCode(ctx, phoneNumber, now, (sent) =>
    dashboardCodeMessage({
      productName: ctx.config.productName,
      merchantName: row.merchantName,
      ...sent,
    }),
  );
  return { phoneNumber, message: codeSentMessage(phoneNumber) };
}

/**
 * Step 2: the code proves the number; the invitation is accepted once, the person found or
 * signed up, and made staff (an earlier membership of theirs at the merchant takes the invited
 * role). Opens the 'phone-code' session that makes their passkey.
 */
export async function acceptInvitation(
  ctx: { db: TDb; config: TConfig },
  input: { token: string; phone: string; code: string; fullName?: string | undefined },
  now: Date,
): Promise<{ token: string; staffId: string; merchantId: string }> {
  const { db, config } = ctx;
  const phoneNumber = normalisePhone(input.phone);
  const code = await checkPhoneCode(db, config, phoneNumber, input.code, now);
  const existing = await findPayerByPhone(db, phoneNumber);
  if (!existing && !input.fullName) throw new AppError('PAYER_NOT_FOUND');
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(dashboardInvitations)
      .set({ acceptedAt: now })
      .where(
        and(
          liveInvitation(input.token, now),
          or(
            isNull(dashboardInvitations.phoneNumber),
            eq(dashboardInvitations.phoneNumber, phoneNumber),
          ),
        ),
      )
      .returning();
    if (!invitation) throw new AppError('INVITATION_INVALID');
    await consumePhoneCode(tx, { id: code.id, phoneNumber }, now);
    const payer =
      existing ?? (await createPayer(tx, { phoneNumber, fullName: input.fullName ?? '' })).payer;
    const staffId = randomId('stf');
    const [staff] = await tx
      .insert(dashboardStaff)
      .values({
        id: staffId,
        merchantId: invitation.merchantId,
        payerId: payer.id,
        role: invitation.role,
        refundLimit: invitation.refundLimit,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [dashboardStaff.merchantId, dashboardStaff.payerId],
        targetWhere: sql`removed_at IS NULL`,
        set: { role: invitation.role, refundLimit: invitation.refundLimit },
      })
      .returning({ id: dashboardStaff.id });
    if (!staff) throw new Error('The staff member was not recorded');
    await tx
      .update(dashboardInvitations)
      .set({ acceptedBy: staff.id })
      .where(eq(dashboardInvitations.id, invitation.id));
    await recordAudit(
      tx,
      {
        merchantId: invitation.merchantId,
        staffId: staff.id,
        actor: actorName(payer.fullName, phoneNumber),
      },
      { action: 'team.joined', target: staff.id, data: { role: invitation.role } },
      now,
    );
    const session = await openDashboardSession(
      tx,
      {
        payerId: payer.id,
        staffId: staff.id,
        invitationId: invitation.id,
        method: 'phone-code',
      },
      now,
    );
    return { token: session.token, staffId: staff.id, merchantId: invitation.merchantId };
  });
}

/** The team screen: staff on the team, and invitations not yet accepted. */
export async function readTeam(
  db: TDb,
  merchantId: string,
  now: Date,
): Promise<Omit<TTeam, 'success'>> {
  const staff = await db
    .select({
      staffId: dashboardStaff.id,
      fullName: payers.fullName,
      phoneNumber: payers.phoneNumber,
      role: dashboardStaff.role,
      refundLimit: dashboardStaff.refundLimit,
      createdAt: dashboardStaff.createdAt,
    })
    .from(dashboardStaff)
    .innerJoin(payers, eq(payers.id, dashboardStaff.payerId))
    .where(and(eq(dashboardStaff.merchantId, merchantId), isNull(dashboardStaff.removedAt)))
    .orderBy(asc(dashboardStaff.createdAt), asc(dashboardStaff.id));
  const invitations = await db
    .select()
    .from(dashboardInvitations)
    .where(
      and(
        eq(dashboardInvitations.merchantId, merchantId),
        isNull(dashboardInvitations.acceptedAt),
        isNull(dashboardInvitations.revokedAt),
        gt(dashboardInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(dashboardInvitations.createdAt));
  return {
    staff: staff.map((s) => ({
      ...s,
      phoneNumber: formatNigerianPhone(s.phoneNumber),
      createdAt: s.createdAt.toISOString(),
    })),
    invitations: invitations.map((i) => ({
      invitationId: i.id,
      role: i.role,
      phoneNumber: i.phoneNumber ? formatNigerianPhone(i.phoneNumber) : null,
      createdAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
    })),
  };
}

/** Owners other than `staffId` still on the team: a merchant keeps at least one. */
const otherOwners = (merchantId: string, staffId: string) => sql`(
  select ${count()} from ${dashboardStaff}
  where ${dashboardStaff.merchantId} = ${merchantId} and ${dashboardStaff.role} = 'owner'
    and ${dashboardStaff.removedAt} is null and ${dashboardStaff.id} <> ${staffId})`;

/**
 * Changes a staff member's role or refund limit, in one statement that keeps an owner on the
 * team (the last one cannot step down).
 */
export async function changeStaff(
  db: TDb,
  who: TActor,
  staffId: string,
  change: { role: TStaffRole; refundLimit: number | null },
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    // The merchant's owners are taken in turn: two owners demoting each other at once do not
    // both pass the count.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`owners:${who.merchantId}`}))`);
    const [changed] = await tx
      .update(dashboardStaff)
      .set({
        role: change.role,
        refundLimit: change.role === 'support' ? change.refundLimit : null,
      })
      .where(
        and(
          eq(dashboardStaff.id, staffId),
          eq(dashboardStaff.merchantId, who.merchantId),
          isNull(dashboardStaff.removedAt),
          change.role === 'owner' ? undefined : sql`${otherOwners(who.merchantId, staffId)} > 0`,
        ),
      )
      .returning({ id: dashboardStaff.id });
    if (!changed) throw await whyNotChanged(tx, who.merchantId, staffId);
    await recordAudit(tx, who, { action: 'team.changed', target: staffId, data: change }, now);
  });
}

/** Takes a staff member off the team; their sessions end at once. */
export async function removeStaff(db: TDb, who: TActor, staffId: string, now: Date) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`owners:${who.merchantId}`}))`);
    const [removed] = await tx
      .update(dashboardStaff)
      .set({ removedAt: now })
      .where(
        and(
          eq(dashboardStaff.id, staffId),
          eq(dashboardStaff.merchantId, who.merchantId),
          isNull(dashboardStaff.removedAt),
          or(ne(dashboardStaff.role, 'owner'), sql`${otherOwners(who.merchantId, staffId)} > 0`),
        ),
      )
      .returning({ id: dashboardStaff.id });
    if (!removed) throw await whyNotChanged(tx, who.merchantId, staffId);
    await endStaffSessions(tx, staffId, now);
    await recordAudit(tx, who, { action: 'team.removed', target: staffId }, now);
  });
}

/** Refused: the member is not the merchant's (404), or is its last owner (409). */
async function whyNotChanged(db: TDb, merchantId: string, staffId: string) {
  const [row] = await db
    .select({ id: dashboardStaff.id })
    .from(dashboardStaff)
    .where(
      and(
        eq(dashboardStaff.id, staffId),
        eq(dashboardStaff.merchantId, merchantId),
        isNull(dashboardStaff.removedAt),
      ),
    );
  return row
    ? new AppError('LAST_OWNER')
    : new AppError('NOT_FOUND', 'No staff member of yours has this id');
}

/** Withdraws an invitation not yet accepted: its link serves nothing from now on. */
export async function withdrawInvitation(db: TDb, who: TActor, invitationId: string, now: Date) {
  await db.transaction(async (tx) => {
    const [withdrawn] = await tx
      .update(dashboardInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(dashboardInvitations.id, invitationId),
          eq(dashboardInvitations.merchantId, who.merchantId),
          isNull(dashboardInvitations.acceptedAt),
          isNull(dashboardInvitations.revokedAt),
        ),
      )
      .returning({ id: dashboardInvitations.id });
    if (!withdrawn) throw new AppError('NOT_FOUND', 'No open invitation of yours has this id');
    await recordAudit(tx, who, { action: 'team.invitation_withdrawn', target: invitationId }, now);
  });
}

import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  DASHBOARD_IDLE_MS,
  DASHBOARD_SESSION_MAX_MS,
  type TStaffRole,
} from '../../../domain/dashboard-roles';
import { passkeySignsFrom } from '../../../domain/passkey-trust';
import type { TConfig } from '../../config';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import {
  dashboardInvitations,
  dashboardSessions,
  dashboardStaff,
  merchants,
  passkeys,
  payers,
} from '../../db/schema';

/*
 * Dashboard sessions (docs/dashboard.md "Sessions"): a random value in an HttpOnly cookie,
 * SameSite=Strict, Secure when the public URL is https, sent only to /api/dashboard; the server
 * keeps its SHA-256. A session ends 30 minutes after its last request and 12 hours after it
 * began, whichever comes first, and at sign-out; the check and the refresh of its last request
 * are one UPDATE. Each session has a CSRF token every write sends back in a header.
 */

/** Where the cookie goes: the dashboard's API only, not the payer's pages nor the dashboard's. */
export const SESSION_COOKIE_PATH = '/api/dashboard';
/** The header every write carries the session's CSRF token in. */
export const CSRF_HEADER = 'x-dashboard-csrf';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url');
const secure = (config: Pick<TConfig, 'publicUrl'>) => config.publicUrl.startsWith('https://');

/** The cookie's name: with the __Secure- prefix where it is sent only over https. */
export const sessionCookieName = (config: Pick<TConfig, 'publicUrl'>) =>
  secure(config) ? '__Secure-oya_dashboard' : 'oya_dashboard';

function cookie(config: Pick<TConfig, 'publicUrl'>, value: string, maxAgeS: number): string {
  return [
    `${sessionCookieName(config)}=${value}`,
    `Path=${SESSION_COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeS}`,
    ...(secure(config) ? ['Secure'] : []),
  ].join('; ');
}

export const sessionCookie = (config: Pick<TConfig, 'publicUrl'>, token: string) =>
  cookie(config, token, DASHBOARD_SESSION_MAX_MS / 1000);
export const clearedSessionCookie = (config: Pick<TConfig, 'publicUrl'>) => cookie(config, '', 0);

/** The session cookie's value in a Cookie header, if there is one of ours. */
export function sessionTokenOf(
  config: Pick<TConfig, 'publicUrl'>,
  header: string | undefined,
): string | null {
  const name = sessionCookieName(config);
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    return /^[\w-]{20,100}$/.test(value) ? value : null;
  }
  return null;
}

export type TNewDashboardSession = {
  payerId: string;
  staffId: string | null;
  invitationId?: string | null;
  method: 'passkey' | 'phone-code';
  /** The passkey that signed in ('passkey' sessions). */
  passkeyId?: string | null;
};

/** Opens a session; its token goes in the cookie and nowhere else. */
export async function openDashboardSession(
  db: TDb,
  input: TNewDashboardSession,
  now: Date,
): Promise<{ sessionId: string; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const sessionId = randomId('dss');
  await db.insert(dashboardSessions).values({
    id: sessionId,
    tokenHash: sha256(token),
    csrfToken: randomBytes(24).toString('base64url'),
    payerId: input.payerId,
    staffId: input.staffId,
    invitationId: input.invitationId ?? null,
    method: input.method,
    passkeyId: input.passkeyId ?? null,
    createdAt: now,
    lastSeenAt: now,
  });
  return { sessionId, token };
}

export type TStaffPrincipal = {
  sessionId: string;
  csrfToken: string;
  method: 'passkey' | 'phone-code';
  payerId: string;
  fullName: string;
  phoneNumber: string;
  /**
   * From when the session's passkey may change anything (refund, cancel, keys, webhooks, the
   * team): later than now for a passkey added with an SMS code alone (domain/passkey-trust.ts);
   * null for a session an SMS code opened, which has no passkey yet.
   */
  changesFrom: Date | null;
  /** null: the staff member was removed since the session began (it then serves nothing). */
  staff: {
    staffId: string;
    merchantId: string;
    merchantName: string;
    role: TStaffRole;
    refundLimit: number | null;
  } | null;
};

/**
 * The session behind a cookie, if it is live: not signed out, its last request under 30 minutes
 * ago and its start under 12 hours ago; the same statement marks this request as its last. With
 * its person and their staff membership (if still on the team).
 */
export async function touchDashboardSession(
  db: TDb,
  token: string,
  now: Date,
): Promise<TStaffPrincipal | null> {
  const [session] = await db
    .update(dashboardSessions)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(dashboardSessions.tokenHash, sha256(token)),
        isNull(dashboardSessions.revokedAt),
        gt(dashboardSessions.lastSeenAt, new Date(now.getTime() - DASHBOARD_IDLE_MS)),
        gt(dashboardSessions.createdAt, new Date(now.getTime() - DASHBOARD_SESSION_MAX_MS)),
      ),
    )
    .returning();
  if (!session) return null;
  const [row] = await db
    .select({
      fullName: payers.fullName,
      phoneNumber: payers.phoneNumber,
      passkeyApproval: passkeys.approval,
      passkeyCreatedAt: passkeys.createdAt,
      staffId: dashboardStaff.id,
      merchantId: dashboardStaff.merchantId,
      merchantName: merchants.name,
      role: dashboardStaff.role,
      refundLimit: dashboardStaff.refundLimit,
    })
    .from(payers)
    .leftJoin(
      dashboardStaff,
      and(
        eq(dashboardStaff.id, sql`${session.staffId}`),
        eq(dashboardStaff.payerId, payers.id),
        isNull(dashboardStaff.removedAt),
      ),
    )
    .leftJoin(merchants, eq(merchants.id, dashboardStaff.merchantId))
    .leftJoin(
      passkeys,
      and(eq(passkeys.id, sql`${session.passkeyId}`), eq(passkeys.payerId, payers.id)),
    )
    .where(eq(payers.id, session.payerId));
  if (!row) return null;
  // A passkey's session without its passkey (one from before sessions kept it) signs in again.
  const passkey =
    row.passkeyApproval && row.passkeyCreatedAt
      ? { approval: row.passkeyApproval, createdAt: row.passkeyCreatedAt }
      : null;
  if (session.method === 'passkey' && !passkey) return null;
  return {
    sessionId: session.id,
    csrfToken: session.csrfToken,
    method: session.method,
    changesFrom: passkey ? passkeySignsFrom(passkey) : null,
    payerId: session.payerId,
    fullName: row.fullName,
    phoneNumber: row.phoneNumber,
    staff:
      row.staffId && row.merchantId && row.merchantName && row.role
        ? {
            staffId: row.staffId,
            merchantId: row.merchantId,
            merchantName: row.merchantName,
            role: row.role,
            refundLimit: row.refundLimit,
          }
        : null,
  };
}

/**
 * The membership this session's invitation made, if it made one: the passkey that completes an
 * invitation does not need that same membership's protection (docs/dashboard.md "Getting in").
 * An invitation that gave a person already on the team a new role made no membership (the row is
 * older than the acceptance), and one of a recovery session names none.
 */
export async function membershipJoinedBy(db: TDb, sessionId: string): Promise<string | null> {
  const [row] = await db
    .select({ staffId: dashboardStaff.id })
    .from(dashboardSessions)
    .innerJoin(dashboardInvitations, eq(dashboardInvitations.id, dashboardSessions.invitationId))
    .innerJoin(
      dashboardStaff,
      and(
        eq(dashboardStaff.id, dashboardInvitations.acceptedBy),
        eq(dashboardStaff.createdAt, dashboardInvitations.acceptedAt),
      ),
    )
    .where(eq(dashboardSessions.id, sessionId));
  return row?.staffId ?? null;
}

/** A code session whose passkey was just made: it signs in as a passkey's would. */
export async function markSessionPasskey(
  db: TDb,
  sessionId: string,
  passkeyId: string,
): Promise<void> {
  await db
    .update(dashboardSessions)
    .set({ method: 'passkey', passkeyId })
    .where(eq(dashboardSessions.id, sessionId));
}

/** Signs out: the cookie serves nothing from now on. */
export async function endDashboardSession(db: TDb, sessionId: string, now: Date): Promise<void> {
  await db
    .update(dashboardSessions)
    .set({ revokedAt: now })
    .where(and(eq(dashboardSessions.id, sessionId), isNull(dashboardSessions.revokedAt)));
}

/** Ends every session of a staff member (removed from the team, role changed). */
export async function endStaffSessions(db: TDb, staffId: string, now: Date): Promise<void> {
  await db
    .update(dashboardSessions)
    .set({ revokedAt: now })
    .where(and(eq(dashboardSessions.staffId, staffId), isNull(dashboardSessions.revokedAt)));
}

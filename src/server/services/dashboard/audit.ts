import { and, desc, eq, lt } from 'drizzle-orm';
import { formatNigerianPhone } from '../../../domain/schemas/auth';
import type { TDashboardAuditEntry } from '../../../domain/schemas/dashboard';
import type { TDb } from '../../db/database';
import { dashboardAudit } from '../../db/schema';
import type { TStaffPrincipal } from './staff-sessions';

/*
 * The dashboard's audit log (docs/dashboard.md "Audit log"): every change staff make, every
 * sign-in, and what the operator did for the merchant, written in the transaction of the change
 * where there is one. The table is append-only (migration 0034's trigger); the owner reads it.
 */

export type TActor = { merchantId: string; staffId: string | null; actor: string };

/** A person as the log names them: their name and number. */
export const actorName = (fullName: string, phoneNumber: string) =>
  `${fullName} (${formatNigerianPhone(phoneNumber)})`;

/** The actor of a staff member's session. */
export function actorOf(principal: TStaffPrincipal): TActor {
  if (!principal.staff) throw new Error('A session with no staff member acts for nobody');
  return {
    merchantId: principal.staff.merchantId,
    staffId: principal.staff.staffId,
    actor: actorName(principal.fullName, principal.phoneNumber),
  };
}

export const operatorActor = (merchantId: string): TActor => ({
  merchantId,
  staffId: null,
  actor: 'operator',
});

export async function recordAudit(
  db: TDb,
  who: TActor,
  entry: { action: string; target?: string | null; data?: Record<string, unknown> },
  now: Date,
): Promise<void> {
  await db.insert(dashboardAudit).values({
    merchantId: who.merchantId,
    staffId: who.staffId,
    actor: who.actor,
    action: entry.action,
    target: entry.target ?? null,
    data: entry.data ?? {},
    createdAt: now,
  });
}

/** The merchant's audit log, newest first, a page at a time (`before`: the last id seen). */
export async function listAudit(
  db: TDb,
  merchantId: string,
  page: { before?: number | undefined; limit: number },
): Promise<{ entries: TDashboardAuditEntry[]; nextBefore: number | null }> {
  const rows = await db
    .select()
    .from(dashboardAudit)
    .where(
      and(
        eq(dashboardAudit.merchantId, merchantId),
        page.before === undefined ? undefined : lt(dashboardAudit.id, page.before),
      ),
    )
    .orderBy(desc(dashboardAudit.id))
    .limit(page.limit + 1);
  const entries = rows.slice(0, page.limit).map((row) => ({
    id: row.id,
    actor: row.actor,
    action: row.action,
    target: row.target,
    data: row.data,
    at: row.createdAt.toISOString(),
  }));
  return {
    entries,
    nextBefore: rows.length > page.limit ? (entries.at(-1)?.id ?? null) : null,
  };
}

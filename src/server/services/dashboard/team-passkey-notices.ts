import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { teamPasskeyMessage } from '../../../domain/passkey-trust';
import { formatNigerianPhone } from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { dashboardStaff, merchants, payers } from '../../db/schema';
import { coalescedNotice } from '../../jobs/sms-job';
import { dashboardTeamUrl } from '../page-urls';
import { actorName, recordAudit } from './audit';

/*
 * A passkey added with an SMS code alone to a member of a dashboard team (docs/dashboard.md
 * "Getting in"): the member's own number may be the swapped SIM that added it, so every team they
 * are on hears of it at once, in the transaction that keeps the passkey: a line in the team's
 * audit log, and an SMS to each of its other owners through the outbox.
 */

/** Queues one SMS in the passkey's transaction (the SMS outbox): answers its job's id. */
export type TQueueSms = (
  change: string,
  message: { phoneNumber: string; body: string },
) => Promise<string>;

/** The audit log's name for it. */
export const PASSKEY_ADDED_BY_CODE = 'staff.passkey_added_by_code';

type TWaitingPasskey = {
  passkeyId: string;
  member: { id: string; fullName: string; phoneNumber: string };
  addedAt: Date;
  changesFrom: Date;
};

/** The teams `payerId` is on now, with their merchant's name. */
const teamsOf = (tx: TDb, payerId: string) =>
  tx
    .select({
      staffId: dashboardStaff.id,
      merchantId: dashboardStaff.merchantId,
      merchantName: merchants.name,
    })
    .from(dashboardStaff)
    .innerJoin(merchants, eq(merchants.id, dashboardStaff.merchantId))
    .where(and(eq(dashboardStaff.payerId, payerId), isNull(dashboardStaff.removedAt)));

/** The owners on the teams of `merchantIds` other than `payerId`: their numbers, their team. */
const otherOwnersOf = (tx: TDb, merchantIds: string[], payerId: string) =>
  tx
    .select({
      staffId: dashboardStaff.id,
      phoneNumber: payers.phoneNumber,
      merchantName: merchants.name,
    })
    .from(dashboardStaff)
    .innerJoin(payers, eq(payers.id, dashboardStaff.payerId))
    .innerJoin(merchants, eq(merchants.id, dashboardStaff.merchantId))
    .where(
      and(
        inArray(dashboardStaff.merchantId, merchantIds),
        eq(dashboardStaff.role, 'owner'),
        isNull(dashboardStaff.removedAt),
        ne(dashboardStaff.payerId, payerId),
      ),
    );

/**
 * Writes, on `tx` (the passkey's own transaction), the audit line of each team the member is on,
 * and queues the SMS to each other owner with `queue`, on that same transaction: one SMS per
 * owner for the member's passkeys added within a few minutes (coalescedNotice), each of them in
 * the log. Answers the queued SMS' ids, for sendQueuedSms after the commit; none when the person
 * is on no team. `queue` counts them against no call's limits (passkey-devices.ts): a member with
 * many owners, or an owner whose number strangers filled, must not stop the member's passkey.
 */
export async function tellTeamsOfWaitingPasskey(
  tx: TDb,
  config: TConfig,
  added: TWaitingPasskey,
  queue: TQueueSms,
): Promise<string[]> {
  const { member } = added;
  const teams = await teamsOf(tx, member.id);
  if (teams.length === 0) return [];
  const memberPhone = formatNigerianPhone(member.phoneNumber);
  for (const team of teams) {
    await recordAudit(
      tx,
      {
        merchantId: team.merchantId,
        staffId: team.staffId,
        actor: actorName(member.fullName, member.phoneNumber),
      },
      {
        action: PASSKEY_ADDED_BY_CODE,
        target: added.passkeyId,
        data: { changesFrom: added.changesFrom.toISOString() },
      },
      added.addedAt,
    );
  }
  const owners = await otherOwnersOf(
    tx,
    teams.map((t) => t.merchantId),
    member.id,
  );
  const ids: string[] = [];
  for (const owner of owners) {
    ids.push(
      await queue(coalescedNotice('team-passkey', `${member.id}:${owner.staffId}`, added.addedAt), {
        phoneNumber: owner.phoneNumber,
        body: teamPasskeyMessage({
          productName: config.productName,
          memberName: member.fullName,
          memberPhone,
          merchantName: owner.merchantName,
          addedAt: added.addedAt,
          changesFrom: added.changesFrom,
          teamPageUrl: dashboardTeamUrl(config.publicUrl),
        }),
      }),
    );
  }
  return ids;
}

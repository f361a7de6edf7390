import { and, eq, inArray } from 'drizzle-orm';
import { mandateTypeOf } from '../../../domain/schemas/account-link';
import type { TDb } from '../../db/database';
import type { TJobQueue } from '../../jobs/engine';
import { accountLinks, payerAccounts } from '../../db/schema';
import { recordMerchantEvent } from '../change-records';

/*
 * 'mandate.active' (docs/webhooks.md): a merchant hears once of each active mandate its granted
 * consent's future payments are collected on. The grant binds only accounts whose mandate is
 * active already, and `active` is final (docs/accounts.md "Mandate states"), so the grant's
 * transaction is where every (consent, mandate) pair is told, once: only the grant that moved
 * the consent from pending gets there.
 */

/** Writes 'mandate.active' inside `tx` for each of `mandateIds` that is active, in their order. */
export async function recordActiveMandates(
  jobs: TJobQueue,
  tx: TDb,
  event: { clientId: string; consentId: string; mandateIds: readonly string[]; now: Date },
): Promise<void> {
  if (event.mandateIds.length === 0) return;
  const rows = await tx
    .select({
      mandateId: accountLinks.id,
      accountId: payerAccounts.id,
      bankName: payerAccounts.bankName,
      route: accountLinks.route,
      activatedAt: accountLinks.activatedAt,
    })
    .from(accountLinks)
    .innerJoin(payerAccounts, eq(payerAccounts.id, accountLinks.accountId))
    .where(and(inArray(accountLinks.id, [...event.mandateIds]), eq(accountLinks.state, 'active')));
  for (const mandateId of event.mandateIds) {
    const row = rows.find((r) => r.mandateId === mandateId);
    if (!row) continue;
    await recordMerchantEvent(jobs, tx, {
      clientId: event.clientId,
      consentId: event.consentId,
      type: 'mandate.active',
      data: {
        consentId: event.consentId,
        mandateId,
        accountId: row.accountId,
        bankName: row.bankName,
        mandateType: mandateTypeOf(row.route),
        activatedAt: row.activatedAt?.toISOString() ?? null,
      },
      now: event.now,
    });
  }
}

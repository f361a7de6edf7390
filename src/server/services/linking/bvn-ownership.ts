import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import { accountLinks, payerAccounts, payers } from '../../db/schema';
import { AppError } from '../../app-error';
import { bvnHashOf } from '../identity/bvn-keys';

/*
 * Ownership by BVN (docs/identity.md "The BVN", docs/accounts.md "Ownership"): an account is the
 * payer's when its holder's BVN, as the bank's name enquiry answers it, is the payer's verified
 * BVN. Every route that links an account checks it before anything is opened (for the payer's
 * message), and the statement that makes a link active checks it again (heldUnderPayersBvn), so
 * a BVN replaced meanwhile cannot slip a link through. A debit runs only on a link made under the
 * payer's BVN as it is now (debitableUnderBvn).
 */

/** The keyed hash of the holder BVN a name enquiry answered; null when it answered none. */
export async function holderBvnHash(db: TDb, bvn: string | null): Promise<string | null> {
  return bvn ? bvnHashOf(db, bvn) : null;
}

/**
 * Refuses an account whose holder is not the payer before anything is opened or charged:
 * BVN_NOT_VERIFIED while the payer has no verified BVN, ACCOUNT_NOT_YOURS when the bank names
 * another holder BVN, or none.
 */
export async function assertAccountUnderPayersBvn(
  db: TDb,
  payerId: string,
  holderHash: string | null,
): Promise<void> {
  const [payer] = await db
    .select({ bvnHash: payers.bvnHash })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!payer?.bvnHash) throw new AppError('BVN_NOT_VERIFIED');
  if (holderHash === null || holderHash !== payer.bvnHash) throw new AppError('ACCOUNT_NOT_YOURS');
}

/**
 * SQL: the link's account is held under its payer's verified BVN. Joined to the statement that
 * activates a link, it is checked and changed at once.
 */
export const heldUnderPayersBvn: SQL = sql`exists (
  select 1 from ${payerAccounts} join ${payers} on ${payers.id} = ${payerAccounts.payerId}
  where ${payerAccounts.id} = ${accountLinks.accountId}
    and ${payers.bvnHash} is not null and ${payerAccounts.bvnHash} = ${payers.bvnHash})`;

/** SQL: the payer's verified BVN, which an activated link records. */
export const payersBvnHash: SQL = sql`(select ${payers.bvnHash} from ${payers} where ${payers.id} = ${accountLinks.payerId})`;

/**
 * SQL: the link was made under its payer's BVN as it is now; a link made before BVNs were
 * checked (null), or under a BVN the payer has since replaced, debits nothing.
 */
export const debitableUnderBvn: SQL = and(
  isNotNull(accountLinks.bvnHash),
  sql`${accountLinks.bvnHash} = ${payersBvnHash}`,
) as SQL;

/**
 * After a payer verifies a BVN: their active links made before BVNs were checked, on accounts
 * whose holder BVN is now known as that one, are adopted under it (and may debit again).
 * `holderOf` answers the keyed hash of an account's holder BVN (account-owners.ts); an account
 * it does not answer for stays as it was.
 */
export async function adoptLinksUnderBvn(
  db: TDb,
  payerId: string,
  holderOf: (account: { institutionCode: string; accountNumber: string }) => Promise<string | null>,
): Promise<number> {
  const [payer] = await db
    .select({ bvnHash: payers.bvnHash })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!payer?.bvnHash) return 0;
  const waiting = await db
    .selectDistinct({
      id: payerAccounts.id,
      institutionCode: payerAccounts.institutionCode,
      accountNumber: payerAccounts.accountNumber,
    })
    .from(payerAccounts)
    .innerJoin(accountLinks, eq(accountLinks.accountId, payerAccounts.id))
    .where(
      and(
        eq(payerAccounts.payerId, payerId),
        eq(accountLinks.state, 'active'),
        isNull(accountLinks.bvnHash),
      ),
    );
  let adopted = 0;
  for (const account of waiting) {
    const holderHash = await holderOf(account).catch(() => null);
    if (holderHash === null) continue;
    await db
      .update(payerAccounts)
      .set({ bvnHash: holderHash })
      .where(eq(payerAccounts.id, account.id));
    const rows = await db
      .update(accountLinks)
      .set({ bvnHash: payersBvnHash })
      .where(
        and(
          eq(accountLinks.accountId, account.id),
          eq(accountLinks.state, 'active'),
          isNull(accountLinks.bvnHash),
          heldUnderPayersBvn,
        ),
      )
      .returning({ id: accountLinks.id });
    adopted += rows.length;
  }
  return adopted;
}

/**
 * Why an account the payer named cannot be debited although it is linked (an active mandate):
 * the link was made before BVNs were checked, or under a BVN since replaced. Null when it is not
 * linked at all. Only the message depends on this read: the debit's own statement decided.
 */
export async function whyNotDebitable(
  db: TDb,
  payerId: string,
  accountId: string,
): Promise<AppError | null> {
  const [row] = await db
    .select({ payerBvn: payers.bvnHash })
    .from(accountLinks)
    .innerJoin(payers, eq(payers.id, accountLinks.payerId))
    .where(
      and(
        eq(accountLinks.payerId, payerId),
        eq(accountLinks.accountId, accountId),
        eq(accountLinks.state, 'active'),
      ),
    )
    .limit(1);
  if (!row) return null;
  return new AppError(row.payerBvn ? 'ACCOUNT_NOT_YOURS' : 'BVN_NOT_VERIFIED');
}

import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { TBvnLookupKind, TBvnSharedItem } from '../../../domain/bvn-lookups';
import { maskAccountNumber } from '../../../domain/account-row';
import type { TBvnLookup, TBvnLookupsQuery } from '../../../domain/schemas/payer-protections';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { bvnLookups, merchants } from '../../db/schema';
import type { TAccountAtBank } from '../../providers/payments';
import { bankName } from '../../sandbox/bank-directory';
import { decodeListCursor, encodeListCursor } from '../list-cursor';

/*
 * Who looked at the payer's BVN (docs/payer-consents.md "Who looked at your BVN"). Each lookup is
 * recorded where it is made, by the code that makes it, in the transaction of its effect where
 * it has one:
 * - bvn_verification: the registry proved the BVN (identity/bvn.ts verifyBvnCode), written with
 *   the payer's verified BVN;
 * - account_owner: the registry was asked whose BVN an account is held under
 *   (linking/account-owners.ts holderOfAccount), written with the answer kept for the account;
 *   only a billed lookup is one: a kept answer read again asks nobody;
 * - data_shared: a merchant read the BVN a consent shares (merchants/shared-bvn.ts), written
 *   before the answer goes, with what the answer holds.
 * Never the BVN: the kind, the provider, the consent, the merchant, and an account's bank and
 * last 4 digits.
 */

export type TBvnLookupRecord = {
  payerId: string;
  kind: TBvnLookupKind;
  provider?: string | null;
  consentId?: string | null;
  merchantId?: string | null;
  account?: TAccountAtBank | null;
  items?: readonly TBvnSharedItem[];
  at: Date;
};

/** Writes one lookup inside `tx`, the transaction of what the lookup did. */
export async function recordBvnLookup(tx: TDb, lookup: TBvnLookupRecord): Promise<void> {
  await tx.insert(bvnLookups).values({
    id: randomId('bvl'),
    payerId: lookup.payerId,
    kind: lookup.kind,
    provider: lookup.provider ?? null,
    consentId: lookup.consentId ?? null,
    merchantId: lookup.merchantId ?? null,
    institutionCode: lookup.account?.institutionCode ?? null,
    accountLast4: lookup.account ? lookup.account.accountNumber.slice(-4) : null,
    items: [...(lookup.items ?? [])],
    createdAt: lookup.at,
  });
}

/** GET /api/users/bvn-lookups: the payer's lookups, newest first, a page at a time. */
export async function listBvnLookups(
  db: TDb,
  payerId: string,
  query: TBvnLookupsQuery,
): Promise<{ lookups: TBvnLookup[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeListCursor(query.cursor) : null;
  const rows = await db
    .select({ lookup: bvnLookups, merchantName: merchants.name })
    .from(bvnLookups)
    .leftJoin(merchants, eq(merchants.id, bvnLookups.merchantId))
    .where(
      and(
        eq(bvnLookups.payerId, payerId),
        after
          ? or(
              lt(bvnLookups.createdAt, after.at),
              and(eq(bvnLookups.createdAt, after.at), lt(bvnLookups.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(bvnLookups.createdAt), desc(bvnLookups.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    lookups: page.map(({ lookup, merchantName }) => ({
      lookupId: lookup.id,
      kind: lookup.kind,
      at: lookup.createdAt.toISOString(),
      provider: lookup.provider,
      consentId: lookup.consentId,
      merchant:
        lookup.merchantId && merchantName
          ? { merchantId: lookup.merchantId, name: merchantName }
          : null,
      account:
        lookup.institutionCode && lookup.accountLast4
          ? {
              bankName: bankName(lookup.institutionCode) ?? `Bank ${lookup.institutionCode}`,
              accountNumber: maskAccountNumber(lookup.accountLast4),
            }
          : null,
      items: lookup.items,
    })),
    nextCursor:
      rows.length > query.limit && last
        ? encodeListCursor(last.lookup.createdAt, last.lookup.id)
        : null,
  };
}

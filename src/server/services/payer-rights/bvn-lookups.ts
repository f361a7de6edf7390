import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  bvnLookupPurposeText,
  type TBvnLookupKind,
  type TBvnSharedItem,
} from '../../../domain/bvn-lookups';
import { maskAccountNumber } from '../../../domain/account-row';
import type { TBvnLookup, TBvnLookupsQuery } from '../../../domain/schemas/payer-protections';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { bvnLookups, consents, merchants, payerAccounts } from '../../db/schema';
import type { TAccountAtBank } from '../../providers/payments';
import type { TAppContext } from '../../context';
import { bankNames } from '../bank-names';
import { decodeListCursor, encodeListCursor } from '../list-cursor';

/*
 * Who looked at the payer's BVN (docs/payer-consents.md "Who looked at your BVN"). Each lookup is
 * recorded where it is made, by the code that makes it, in the transaction of its effect where
 * it has one:
 * - bvn_verification: the BVN was given to a registry to verify it (identity/bvn.ts
 *   startBvnVerification), written when that registry answered, naming it, whether the payer
 *   then gives its code or not;
 * - account_owner: the registry was asked whose BVN an account is held under
 *   (linking/account-owners.ts holderOfAccount), written with the answer kept for the account;
 *   only a billed lookup is one: a kept answer read again asks nobody;
 * - data_shared: a merchant read the BVN a consent shares (merchants/shared-bvn.ts), written
 *   before the answer goes, with what the answer holds.
 * Never the BVN: the kind, the provider, the consent, the merchant, and an account's bank and
 * last 4 digits. The list says what each was made for (madeFor): the consent, the payer's account
 * a link was made for (the one at that bank ending in those digits), or the BVN's verification.
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

/** The merchant of the consent a lookup was made for (beside the one that received data). */
const consentMerchants = alias(merchants, 'consent_merchants');

/** Writes one lookup inside `tx`, the transaction of what the lookup did. */
export async function recordBvnLookup(tx: TDb, lookup: TBvnLookupRecord): Promise<void> {
  await tx.insert(bvnLookups).values({
    id: randomId('bvl'),
    payerId: lookup.payerId,
    kind: lookup.kind,
    provider: lookup.provider ?? null,
    // A consent named by the caller that is not (or no longer) there is named by none.
    consentId: lookup.consentId
      ? sql`(select ${consents.id} from ${consents} where ${consents.id} = ${lookup.consentId})`
      : null,
    merchantId: lookup.merchantId ?? null,
    institutionCode: lookup.account?.institutionCode ?? null,
    accountLast4: lookup.account ? lookup.account.accountNumber.slice(-4) : null,
    items: [...(lookup.items ?? [])],
    createdAt: lookup.at,
  });
}

/** GET /api/users/bvn-lookups: the payer's lookups, newest first, a page at a time. */
export async function listBvnLookups(
  ctx: Pick<TAppContext, 'db' | 'providers' | 'clock'>,
  payerId: string,
  query: TBvnLookupsQuery,
): Promise<{ lookups: TBvnLookup[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeListCursor(query.cursor) : null;
  const rows = await ctx.db
    .select({
      lookup: bvnLookups,
      merchantName: merchants.name,
      consentMerchantName: consentMerchants.name,
      // The payer's account at that bank ending in those digits: the account a link was for.
      accountId: sql<string | null>`(
        select ${payerAccounts.id} from ${payerAccounts}
        where ${payerAccounts.payerId} = ${bvnLookups.payerId}
          and ${payerAccounts.institutionCode} = ${bvnLookups.institutionCode}
          and right(${payerAccounts.accountNumber}, 4) = ${bvnLookups.accountLast4}
        order by ${payerAccounts.createdAt}, ${payerAccounts.id}
        limit 1
      )`,
    })
    .from(bvnLookups)
    .leftJoin(merchants, eq(merchants.id, bvnLookups.merchantId))
    .leftJoin(consents, eq(consents.id, bvnLookups.consentId))
    .leftJoin(consentMerchants, eq(consentMerchants.id, consents.merchantId))
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
  const names = page.some(({ lookup }) => lookup.institutionCode) ? await bankNames(ctx) : null;
  return {
    lookups: page.map(({ lookup, merchantName, consentMerchantName, accountId }) => {
      const account =
        lookup.institutionCode && lookup.accountLast4
          ? {
              bankName: names?.get(lookup.institutionCode) ?? `Bank ${lookup.institutionCode}`,
              accountNumber: maskAccountNumber(lookup.accountLast4),
            }
          : null;
      return {
        lookupId: lookup.id,
        kind: lookup.kind,
        at: lookup.createdAt.toISOString(),
        provider: lookup.provider,
        consentId: lookup.consentId,
        merchant:
          lookup.merchantId && merchantName
            ? { merchantId: lookup.merchantId, name: merchantName }
            : null,
        account,
        items: lookup.items,
        madeFor: {
          consentId: lookup.consentId,
          accountId: lookup.kind === 'account_owner' ? accountId : null,
          label: bvnLookupPurposeText({ kind: lookup.kind, consentMerchantName, account }),
        },
      };
    }),
    nextCursor:
      rows.length > query.limit && last
        ? encodeListCursor(last.lookup.createdAt, last.lookup.id)
        : null,
  };
}

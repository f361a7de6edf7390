import { and, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { accountOwnerLookups, payers } from '../../db/schema';
import type { TAccountAtBank } from '../../providers/payments';
import { AppError } from '../../app-error';
import { holderBvnHash } from './bvn-ownership';
import { usable } from '../../providers/off';
import { recordBvnLookup } from '../payer-rights/bvn-lookups';

/*
 * Whose BVN an account the payer links is held under (docs/identity.md "The BVN",
 * docs/providers/mono.md "Owners of accounts"). A registry that decides owners (Mono: its
 * account-number lookup answers the BVN NIBSS holds the account under) is asked about every
 * account a payer links, whatever the payment provider's name enquiry said, and an account whose
 * owner it does not give is nobody's. Beside the sandbox's registry, which answers what the
 * sandbox banks' own name enquiry does, the name enquiry's BVN stands, and where it gives none
 * the payment provider checks the holder (account-holders.ts), as it did before registries.
 *
 * The registry bills every lookup, failed ones too, so:
 * - only an account a payer asks to link is looked up (a link started, a card linked or saved to
 *   it, the account a payment came from, the payer's own links adopted at a verification); an
 *   account search shows what is known and looks nothing up (payer-accounts.ts);
 * - its answer is kept for the account (account_owner_lookups: the BVN's keyed hash, never the
 *   BVN, or none) and read before asking: an owner for OWNER_KEPT_MS, "no owner" for
 *   NO_OWNER_KEPT_MS (an account just opened may be known tomorrow);
 * - a lookup is counted against the payer's and the address's limits before it is made
 *   (`countOwnerLookup`: the shared rate limits, 429 past them);
 * - a registry that fails gives no answer: nothing is kept, the payer reads
 *   BVN_REGISTRY_UNAVAILABLE (502) and may try again.
 * Each lookup made, the registry's or the name enquiry's, is on the payer's list of lookups
 * (payer-rights/bvn-lookups.ts), the registry's in one transaction with its kept answer; a kept
 * answer read again looked nothing up.
 */

/** How long a registry's owner of an account is taken as it is: accounts rarely change hands. */
export const OWNER_KEPT_MS = 30 * 24 * 60 * 60_000;
/** How long a registry's "no owner" stands before the account may be asked about again. */
export const NO_OWNER_KEPT_MS = 24 * 60 * 60_000;

/** Counts one billed lookup for whoever asks, before it is made; 429 past a limit. */
export type TOwnerLookups = { countOwnerLookup(): Promise<void> };

type TOwnersContext = Pick<TAppContext, 'db' | 'clock' | 'providers'> & TOwnerLookups;

/**
 * Whose BVN an account is held under, by its keyed hash (null: no BVN given). `decided`: the
 * registry said it, and a null is no owner; else it is the name enquiry's, and a null leaves the
 * payment provider to check the holder.
 */
export type TAccountHolder = { bvnHash: string | null; decided: boolean };

/** The registry's kept answer about an account while it stands; null when there is none. */
export async function keptOwner(
  db: TDb,
  account: TAccountAtBank,
  now: Date,
): Promise<{ bvnHash: string | null } | null> {
  const [kept] = await db
    .select({ bvnHash: accountOwnerLookups.ownerBvnHash })
    .from(accountOwnerLookups)
    .where(
      and(
        eq(accountOwnerLookups.institutionCode, account.institutionCode),
        eq(accountOwnerLookups.accountNumber, account.accountNumber),
        or(
          and(
            isNotNull(accountOwnerLookups.ownerBvnHash),
            gt(accountOwnerLookups.lookedUpAt, new Date(now.getTime() - OWNER_KEPT_MS)),
          ),
          and(
            isNull(accountOwnerLookups.ownerBvnHash),
            gt(accountOwnerLookups.lookedUpAt, new Date(now.getTime() - NO_OWNER_KEPT_MS)),
          ),
        ),
      ),
    );
  return kept ?? null;
}

/**
 * The holder of an account the payer asked to link: the registry's answer where it decides
 * owners (kept, else looked up, counted first), else the name enquiry's (`enquiryBvn`). A payer
 * with no verified BVN is refused (BVN_NOT_VERIFIED) before a lookup is billed: no answer could
 * make the account theirs.
 */
export async function holderOfAccount(
  ctx: TOwnersContext,
  payerId: string,
  account: TAccountAtBank,
  enquiryBvn: string | null,
  /** The consent the account is linked for, which the payer's list of lookups names. */
  forConsent: string | null = null,
): Promise<TAccountHolder> {
  const { db, clock, providers } = ctx;
  const registry = usable(providers.payments.bvn);
  const now = clock.now();
  if (!registry.decidesOwners) {
    await recordBvnLookup(db, {
      payerId,
      kind: 'account_owner',
      consentId: forConsent,
      provider: usable(providers.payments.banks).provider,
      account,
      at: now,
    });
    return { bvnHash: await holderBvnHash(db, enquiryBvn), decided: false };
  }
  const kept = await keptOwner(db, account, now);
  if (kept) return { bvnHash: kept.bvnHash, decided: true };
  const [payer] = await db
    .select({ bvnHash: payers.bvnHash })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!payer?.bvnHash) throw new AppError('BVN_NOT_VERIFIED');
  let owner: string | null;
  // Counted right before the billed call: a bank the registry cannot name costs nothing.
  let counting = false;
  const count = async () => {
    counting = true;
    await ctx.countOwnerLookup();
    counting = false;
  };
  try {
    owner = await registry.accountOwner(account, count);
  } catch (error) {
    // A limit reached (429) and a bank the registry cannot look up are the payer's to read;
    // anything else is ours.
    if (counting) throw error;
    if (error instanceof AppError && error.code === 'ACCOUNT_NOT_SUPPORTED') throw error;
    throw new AppError('BVN_REGISTRY_UNAVAILABLE');
  }
  const bvnHash = await holderBvnHash(db, owner);
  const answer = { ownerBvnHash: bvnHash, lookedUpAt: now };
  await db.transaction(async (tx) => {
    await tx
      .insert(accountOwnerLookups)
      .values({
        institutionCode: account.institutionCode,
        accountNumber: account.accountNumber,
        ...answer,
      })
      .onConflictDoUpdate({
        target: [accountOwnerLookups.institutionCode, accountOwnerLookups.accountNumber],
        set: answer,
      });
    await recordBvnLookup(tx, {
      payerId,
      kind: 'account_owner',
      consentId: forConsent,
      provider: registry.provider,
      account,
      at: now,
    });
  });
  return { bvnHash, decided: true };
}

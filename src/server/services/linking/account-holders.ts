import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { payerAccounts, payers } from '../../db/schema';
import type { TAccountHolderAnswer, TProviderNotice } from '../../providers/payments';
import { AppError } from '../../app-error';
import { openVerifiedBvn } from '../identity/bvn';
import type { TAccountHolder } from './account-owners';
import { usable } from '../../providers/off';

/*
 * Whose account it is, when the bank's name enquiry answers no BVN and no BVN registry decides
 * owners (docs/identity.md "The BVN", "Providers without a BVN in the name enquiry";
 * account-owners.ts): the provider is asked whether the account is
 * held under the payer's verified BVN (Paystack's customer validation). The question is written
 * down before it is asked: the transaction that opens the link marks the account's check
 * `pending` with the BVN asked about (claimHolderCheck), so an answer that comes by notice before
 * the call itself is answered finds it. Meanwhile no link of the account can become active (the
 * activating statement checks the account's holder BVN against the payer's: heldUnderPayersBvn).
 * The answer is written in one statement on the pending check; a match then activates a link the
 * bank already confirmed, a refusal ends the account's open links (link-mandates.ts
 * answerAccountHolder). A holder confirmed as the payer, or refused, stays so: another attempt
 * reads it and asks nothing, and an attempt refused 409 changes nothing.
 */

type THolderContext = Pick<TAppContext, 'db' | 'providers'>;

type TAccountAtBank = { institutionCode: string; accountNumber: string };

/**
 * Refuses, before anything is recorded, an account that cannot be the payer's: BVN_NOT_VERIFIED
 * without a verified BVN, ACCOUNT_NOT_YOURS when its holder (account-owners.ts: the registry's
 * answer, or the name enquiry's BVN) is another, when the registry gave none, or when the
 * provider refused the account before. The keyed hash of the payer's BVN, which the link's
 * opening may have the provider check.
 */
export async function assertHolderMayBePayer(
  db: TDb,
  payerId: string,
  account: TAccountAtBank,
  holder: TAccountHolder,
): Promise<string> {
  const [payer] = await db
    .select({ bvnHash: payers.bvnHash })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!payer?.bvnHash) throw new AppError('BVN_NOT_VERIFIED');
  if (holder.bvnHash !== null || holder.decided) {
    if (holder.bvnHash !== payer.bvnHash) throw new AppError('ACCOUNT_NOT_YOURS');
    return payer.bvnHash;
  }
  const kept = await keptHolder(db, payerId, account);
  // Refused before, and not confirmed since: not asked again (each question is a provider call).
  if (kept?.bvnHash !== payer.bvnHash && kept?.holderCheck === 'differs') {
    throw new AppError('ACCOUNT_NOT_YOURS');
  }
  return payer.bvnHash;
}

/**
 * Inside the transaction that opens a link of the account: 'known' when its holder BVN is the
 * payer's already (the name enquiry's, or an earlier check's match), else the check is marked
 * `pending` with the BVN it will ask about, in one statement, and the provider is to be asked
 * ('ask'). ACCOUNT_NOT_YOURS when the provider refused the account meanwhile, which undoes the
 * opening.
 */
export async function claimHolderCheck(
  tx: TDb,
  accountId: string,
  payerBvnHash: string,
): Promise<'ask' | 'known'> {
  const [claimed] = await tx
    .update(payerAccounts)
    .set({ holderCheck: 'pending', holderCheckBvnHash: payerBvnHash })
    .where(
      and(
        eq(payerAccounts.id, accountId),
        or(isNull(payerAccounts.bvnHash), ne(payerAccounts.bvnHash, payerBvnHash)),
        or(isNull(payerAccounts.holderCheck), eq(payerAccounts.holderCheck, 'pending')),
      ),
    )
    .returning({ id: payerAccounts.id });
  if (claimed) return 'ask';
  const [kept] = await tx
    .select({ bvnHash: payerAccounts.bvnHash })
    .from(payerAccounts)
    .where(eq(payerAccounts.id, accountId));
  if (kept?.bvnHash === payerBvnHash) return 'known';
  throw new AppError('ACCOUNT_NOT_YOURS');
}

/**
 * Asks the provider whether the account is held under the payer's verified BVN, opened from its
 * seal for this one call: its answer at once, or 'pending' for its notice. BVN_NOT_VERIFIED when
 * the payer has none any more, ACCOUNT_LINK_CREATE_FAILED when the provider does not answer or
 * refuses the call.
 */
export async function askAccountHolder(
  ctx: THolderContext,
  payerId: string,
  account: TAccountAtBank,
): Promise<TAccountHolderAnswer> {
  const { db } = ctx;
  const [payer] = await db
    .select({ fullName: payers.fullName })
    .from(payers)
    .where(eq(payers.id, payerId));
  const bvn = await openVerifiedBvn(db, payerId);
  if (!payer || !bvn) throw new AppError('BVN_NOT_VERIFIED');
  try {
    return await usable(ctx.providers.payments.banks).checkAccountHolder({
      payerId,
      bvn,
      fullName: payer.fullName,
      ...account,
    });
  } catch {
    throw new AppError('ACCOUNT_LINK_CREATE_FAILED');
  }
}

/** What the payer's record of an account knows of its holder; null for an account not recorded. */
export async function keptHolder(
  db: TDb,
  payerId: string,
  account: TAccountAtBank,
): Promise<{ bvnHash: string | null; holderCheck: 'pending' | 'differs' | null } | null> {
  const [kept] = await db
    .select({ bvnHash: payerAccounts.bvnHash, holderCheck: payerAccounts.holderCheck })
    .from(payerAccounts)
    .where(
      and(
        eq(payerAccounts.payerId, payerId),
        eq(payerAccounts.institutionCode, account.institutionCode),
        eq(payerAccounts.accountNumber, account.accountNumber),
      ),
    );
  return kept ?? null;
}

/** Whether an account number fits the provider's mask of it ('012****789': stars hide digits). */
export function fitsAccountMask(accountNumber: string, mask: string): boolean {
  if (mask.length !== accountNumber.length) return false;
  return [...mask].every((char, i) => char === '*' || char === accountNumber[i]);
}

/**
 * Records the provider's answer to a pending holder check (notice 'account_holder') inside `tx`,
 * for the payer's account at that bank whose number fits the mask: a match makes the BVN it asked
 * about the account's holder BVN, a refusal marks it 'differs'. Null (nothing changed) when no
 * pending check fits, or more than one does (the answer names no single account).
 */
export async function answerHolderCheck(
  tx: TDb,
  notice: Extract<TProviderNotice, { kind: 'account_holder' }>,
): Promise<{ accountId: string } | null> {
  const pending = await tx
    .select({ id: payerAccounts.id, accountNumber: payerAccounts.accountNumber })
    .from(payerAccounts)
    .where(
      and(
        eq(payerAccounts.payerId, notice.payerId),
        eq(payerAccounts.institutionCode, notice.institutionCode),
        eq(payerAccounts.holderCheck, 'pending'),
      ),
    );
  const fitting = pending.filter((row) =>
    fitsAccountMask(row.accountNumber, notice.accountNumberMask),
  );
  const [account] = fitting;
  if (!account || fitting.length > 1) return null;
  const [answered] = await tx
    .update(payerAccounts)
    .set(
      notice.matches
        ? { bvnHash: sql`${payerAccounts.holderCheckBvnHash}`, holderCheck: null }
        : { holderCheck: 'differs' },
    )
    .where(and(eq(payerAccounts.id, account.id), eq(payerAccounts.holderCheck, 'pending')))
    .returning({ id: payerAccounts.id });
  return answered ? { accountId: answered.id } : null;
}

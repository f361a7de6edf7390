import { and, eq, sql } from 'drizzle-orm';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { payerAccounts, payers } from '../../db/schema';
import type { TProviderNotice } from '../../providers/payments';
import { AppError } from '../app-error';
import { openVerifiedBvn } from '../identity/bvn';
import { holderBvnHash } from './bvn-ownership';

/*
 * Whose account it is, when the bank's name enquiry answers no BVN (docs/identity.md "The BVN",
 * "Providers without a BVN in the name enquiry"): the provider is asked whether the account is
 * held under the payer's verified BVN (Paystack's customer validation). It may answer at once,
 * or later by its notice; meanwhile the account keeps `holder_check = 'pending'` and the BVN
 * asked about, and no link of it can become active (the activating statement checks the
 * account's holder BVN against the payer's: heldUnderPayersBvn). The notice's answer is written
 * in one statement on the pending check; a match then activates a link the bank already
 * confirmed, a refusal ends the account's open links (account-links.ts answerAccountHolder).
 */

type THolderContext = Pick<TAppContext, 'db' | 'clock' | 'providers'>;

/** The account's holder as a link needs it: its BVN's keyed hash now, or a check awaiting its answer. */
export type THolder =
  { kind: 'known'; bvnHash: string } | { kind: 'pending'; askedBvnHash: string };

type TAccountAtBank = { institutionCode: string; accountNumber: string };

/**
 * Proves the account is held under the payer's verified BVN before anything is opened:
 * BVN_NOT_VERIFIED without one, ACCOUNT_NOT_YOURS when the bank names another holder or the
 * provider says so. `holderBvn` is the BVN the name enquiry answered (null for none): then the
 * account's earlier confirmed holder counts, and otherwise the provider is asked.
 */
export async function proveAccountHolder(
  ctx: THolderContext,
  payerId: string,
  account: TAccountAtBank,
  holderBvn: string | null,
): Promise<THolder> {
  const { db } = ctx;
  const [payer] = await db
    .select({ bvnHash: payers.bvnHash, fullName: payers.fullName })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!payer?.bvnHash) throw new AppError('BVN_NOT_VERIFIED');
  const fromEnquiry = await holderBvnHash(db, holderBvn);
  if (fromEnquiry !== null) {
    if (fromEnquiry !== payer.bvnHash) throw new AppError('ACCOUNT_NOT_YOURS');
    return { kind: 'known', bvnHash: fromEnquiry };
  }
  const kept = await keptHolder(db, payerId, account);
  if (kept?.bvnHash === payer.bvnHash) return { kind: 'known', bvnHash: payer.bvnHash };
  // Refused before: not asked again (each question is a call to the provider).
  if (kept?.holderCheck === 'differs') throw new AppError('ACCOUNT_NOT_YOURS');
  const bvn = await openVerifiedBvn(db, payerId);
  if (!bvn) throw new AppError('BVN_NOT_VERIFIED');
  let answer;
  try {
    answer = await ctx.providers.payments.checkAccountHolder({
      payerId,
      bvn,
      fullName: payer.fullName,
      ...account,
    });
  } catch {
    throw new AppError('ACCOUNT_LINK_CREATE_FAILED');
  }
  if (answer === 'differs') throw new AppError('ACCOUNT_NOT_YOURS');
  return answer === 'matches'
    ? { kind: 'known', bvnHash: payer.bvnHash }
    : { kind: 'pending', askedBvnHash: payer.bvnHash };
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

/** The columns of a payer's account that say what is known of its holder. */
export function holderColumns(holder: THolder | null): {
  bvnHash: string | null;
  holderCheck: 'pending' | null;
  holderCheckBvnHash: string | null;
} {
  if (holder?.kind === 'known') {
    return { bvnHash: holder.bvnHash, holderCheck: null, holderCheckBvnHash: null };
  }
  if (holder?.kind === 'pending') {
    return { bvnHash: null, holderCheck: 'pending', holderCheckBvnHash: holder.askedBvnHash };
  }
  return { bvnHash: null, holderCheck: null, holderCheckBvnHash: null };
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

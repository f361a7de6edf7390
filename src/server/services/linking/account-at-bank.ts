import type { TErrorCode } from '../../../domain/errors';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { payerAccounts } from '../../db/schema';
import type { TBank, TBanksPort } from '../../providers/payments';
import { AppError } from '../../app-error';
import type { TAccountHolder } from './account-owners';
import { usable } from '../../providers/off';
import type { TLinkContext } from './link-lifecycle';

/*
 * An account at its bank (spec §2 "Account-linking panel"; docs/accounts.md): whether the bank
 * holds it, asked by the provider's name enquiry, and the payer's account it then becomes. A new
 * link, a card's link and a refund to an account all ask here first.
 */

export type TFoundAccount = NonNullable<Awaited<ReturnType<TBanksPort['nameEnquiry']>>>;

/**
 * Asks the account's bank whether it holds the account (the provider's name enquiry): an unknown
 * bank is 400 naming `institutionCode`, an account it does not hold ACCOUNT_NOT_FOUND_AT_BANK,
 * and a bank that fails to answer `fault` (502).
 */
export async function findAccountAtBank(
  ctx: Pick<TLinkContext, 'providers'>,
  input: { accountNumber: string; institutionCode: string },
  fault: TErrorCode = 'ACCOUNT_LINK_CREATE_FAILED',
): Promise<{ bank: TBank; found: TFoundAccount }> {
  const { institutionCode, accountNumber } = input;
  const fromBank = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch {
      throw new AppError(fault);
    }
  };
  const bank = await fromBank(() =>
    usable(ctx.providers.payments.banks).lookupBank(institutionCode),
  );
  if (!bank) {
    throw new AppError('VALIDATION_FAILED', 'institutionCode: no bank has this institution code');
  }
  const found = await fromBank(() =>
    usable(ctx.providers.payments.banks).nameEnquiry({ institutionCode, accountNumber }),
  );
  if (!found) throw new AppError('ACCOUNT_NOT_FOUND_AT_BANK');
  return { bank, found };
}

/**
 * Adds an account the bank confirmed to the payer's accounts (or refreshes it): its id. A holder
 * BVN given (`holder`: the registry's, or the name enquiry's; account-owners.ts) is the account's;
 * where none was given, what an earlier check of the provider decided stays as it is.
 */
export async function addPayerAccount(
  db: TDb,
  payerId: string,
  input: {
    accountNumber: string;
    institutionCode: string;
    bank: TBank;
    found: TFoundAccount;
    holder: TAccountHolder;
  },
  now: Date,
): Promise<string> {
  const { found } = input;
  const bvnHash = input.holder.bvnHash;
  const fromBank = bvnHash === null ? {} : { bvnHash, holderCheck: null, holderCheckBvnHash: null };
  const [account] = await db
    .insert(payerAccounts)
    .values({
      id: randomId('acc'),
      payerId,
      institutionCode: input.institutionCode,
      accountNumber: input.accountNumber,
      accountName: found.accountName,
      bankName: input.bank.name,
      nameEnquiryId: found.nameEnquiryId,
      bvnHash,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [payerAccounts.payerId, payerAccounts.institutionCode, payerAccounts.accountNumber],
      set: { accountName: found.accountName, nameEnquiryId: found.nameEnquiryId, ...fromBank },
    })
    .returning({ id: payerAccounts.id });
  if (!account) throw new Error('The payer account could not be recorded');
  return account.id;
}

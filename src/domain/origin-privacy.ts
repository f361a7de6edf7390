import { maskAccountNumber } from './account-row';

/*
 * Who sees where a payment's money came from (spec §3 Payment.origin; docs/payments.md "Who sees
 * the origin"). The payer who paid, and the merchant through its API, see the origin in full.
 * Everyone else — another signed-in payer, whoever holds the consent link, a stream not opened by
 * the payer who paid — sees it masked: the bank and the last four digits of the account, no
 * account name, no account id, no integrations. A card shows as it always does (first 6, last 4).
 */

/** The fields of an origin (or of a part of one, e.g. a status event's payerBank) masking reads. */
type TMaskable = {
  accountNumber?: string | null | undefined;
  accountName?: string | null | undefined;
  bankId?: string | null | undefined;
  integrations?: unknown;
};

/**
 * An origin as anyone but the payer who paid may see it: its account number as '****1234', no
 * account name and no account id, its integrations left out; every other field (bank, logo,
 * card, flags) as it is, in the same order. Masking a masked origin changes nothing.
 */
export function maskOrigin<T extends TMaskable>(origin: T): T {
  const { integrations: _left, ...kept } = origin;
  return {
    ...kept,
    ...(origin.accountNumber ? { accountNumber: maskAccountNumber(origin.accountNumber) } : {}),
    ...('accountName' in origin ? { accountName: null } : {}),
    ...('bankId' in origin ? { bankId: null } : {}),
  } as T;
}

/** Whether an account number is one maskOrigin wrote ('****1234'), not a number to act on. */
export const isMaskedAccountNumber = (accountNumber: string): boolean =>
  accountNumber.startsWith('*');

type TAccountKey = { accountNumber?: string | null; institutionCode?: string | null };

/**
 * Whether `account` (one of the payer's own, or a bank's search result) is the account an origin
 * names: the same bank and number; for a masked origin, the same bank and last four digits.
 */
export function isOriginAccount(origin: TAccountKey, account: TAccountKey): boolean {
  const { accountNumber, institutionCode } = origin;
  if (!accountNumber || !institutionCode || !account.accountNumber) return false;
  if (account.institutionCode !== institutionCode) return false;
  return isMaskedAccountNumber(accountNumber)
    ? maskAccountNumber(account.accountNumber) === accountNumber
    : account.accountNumber === accountNumber;
}

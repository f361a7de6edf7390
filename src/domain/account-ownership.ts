import type { TBankAccountKey } from './origin-linking';

/*
 * Proving that a payer owns the account they link (docs/accounts.md "Ownership"): a test transfer
 * proves it only when it comes from that very account, as the bank's notice names its sender.
 */

/** Names compare by their words, whatever the case, accents, punctuation or order. */
function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort()
    .join(' ');
}

/** Whether two names are the same holder's ('ADAEZE OKAFOR' and 'Okafor, Adaeze' are). */
export function sameHolderName(a: string, b: string): boolean {
  const key = nameKey(a);
  return key !== '' && key === nameKey(b);
}

/** A bank account with its holder's name, as a name enquiry or a transfer's notice names it. */
export type THeldAccount = TBankAccountKey & { accountName: string };

/**
 * Whether a transfer came from the account being linked: the same bank, the same number, and the
 * holder the name enquiry found. A transfer whose notice names no sender proves nothing.
 */
export function isFromAccount(sender: THeldAccount | null, account: THeldAccount): boolean {
  return (
    sender !== null &&
    sender.institutionCode === account.institutionCode &&
    sender.accountNumber === account.accountNumber &&
    sameHolderName(sender.accountName, account.accountName)
  );
}

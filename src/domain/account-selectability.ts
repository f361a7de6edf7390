import type { TUserAccount } from './schemas/user-account';

/**
 * Whether the account supports any integration we can link through (spec §5): transaction
 * service, alternate transaction service or card. nibssAlt alone does not count: the spec leaves
 * it out of the rule.
 */
export function isAccountSupported(account: TUserAccount): boolean {
  const { transactionService, altTransactionService, card } = account.integrations;
  return (
    transactionService?.possible === true ||
    altTransactionService?.possible === true ||
    card?.possible === true
  );
}

/**
 * Whether the account is already linked (spec §5): flagged so by the server, or one of the
 * payer's linked accounts has the same account number and institution code with its transaction
 * service or card integration linked. Accounts without a number (card-only) never match by number.
 */
export function isAccountAlreadyLinked(
  account: TUserAccount,
  linkedAccounts: readonly TUserAccount[],
): boolean {
  if (account.isAlreadyLinked === true) return true;
  if (!account.accountNumber) return false;
  return linkedAccounts.some(
    (linked) =>
      linked.accountNumber === account.accountNumber &&
      linked.institutionCode === account.institutionCode &&
      (linked.integrations.transactionService?.linked === true ||
        linked.integrations.card?.linked === true),
  );
}

/** Whether the payer may choose the account to link (spec §5): supported and not yet linked. */
export function isAccountSelectable(
  account: TUserAccount,
  linkedAccounts: readonly TUserAccount[],
): boolean {
  return isAccountSupported(account) && !isAccountAlreadyLinked(account, linkedAccounts);
}

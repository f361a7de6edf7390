import { isAccountSupported } from './account-selectability';
import { maskCardForPayer } from './card-number';
import type { TUserAccount } from './schemas/user-account';

/** What an account row stands for: a bank account with a saved card, a card alone, or a bank account. */
export type TAccountKind = 'card_and_bank' | 'card' | 'bank';

const hasCard = (account: TUserAccount): boolean =>
  account.integrations.card?.linked === true || Boolean(account.integrations.card?.obfuscatedCard);

/** The kind of an account: a card is attached when the card integration is linked or shows a card. */
export function accountKind(account: TUserAccount): TAccountKind {
  if (!hasCard(account)) return 'bank';
  return account.accountNumber ? 'card_and_bank' : 'card';
}

/** '****1234': the last 4 digits of an account number, the only part a row ever shows. */
export function maskAccountNumber(accountNumber: string): string {
  return `****${accountNumber.slice(-4)}`;
}

/**
 * The subtitle under the bank name (spec §2 Account list row): 'Card & Bank • ****1234',
 * 'Card • **** **** **** 1234' (the card by its last 4 digits, maskCardForPayer) or
 * 'Account • ****1234'.
 */
export function accountRowSubtitle(account: TUserAccount): string {
  const last4 = maskAccountNumber(account.accountNumber ?? '');
  switch (accountKind(account)) {
    case 'card_and_bank':
      return `Card & Bank • ${last4}`;
    case 'card': {
      const card = account.integrations.card?.obfuscatedCard;
      return `Card • ${card ? maskCardForPayer(card) : ''}`;
    }
    case 'bank':
      return `Account • ${last4}`;
  }
}

/**
 * What the row of a linked account that debits nothing says instead (schemas/user-account.ts
 * bvnHold): what the payer can do about it, not a vague 'Not authorized yet'.
 */
export const BVN_HOLD_BADGES = {
  bvn_unverified: 'Verify your BVN to pay from this account',
  not_under_bvn: 'Not registered to your BVN',
} as const;

export type TAccountBadge =
  'Not supported' | 'Not authorized yet' | (typeof BVN_HOLD_BADGES)[keyof typeof BVN_HOLD_BADGES];

/**
 * Whether a debit from the account is already authorized: a mandate authorized by the bank, an
 * active saved card, or a link status the bank approved (spec §3 linkStatus, statusDetail).
 */
export function isAccountAuthorized(account: TUserAccount): boolean {
  const { transactionService, altTransactionService, card } = account.integrations;
  return (
    transactionService?.authorized === true ||
    altTransactionService?.authorized === true ||
    card?.active === true ||
    account.linkStatus === 'approved' ||
    account.linkStatus === 'bank_approved'
  );
}

/** Whether the account may be debited now: authorized, and linked under the payer's BVN. */
export function isAccountDebitable(account: TUserAccount): boolean {
  return isAccountAuthorized(account) && !account.bvnHold;
}

/**
 * The badges of an account row (spec §2): 'Not supported' when no integration is possible (the
 * row is disabled); a link made before BVNs were checked says what to do (BVN_HOLD_BADGES);
 * otherwise 'Not authorized yet' until a debit is authorized.
 */
export function accountRowBadges(account: TUserAccount): TAccountBadge[] {
  if (!isAccountSupported(account)) return ['Not supported'];
  if (account.bvnHold) return [BVN_HOLD_BADGES[account.bvnHold]];
  return isAccountAuthorized(account) ? [] : ['Not authorized yet'];
}

/** Supported accounts first, otherwise in the order given (spec §2 select step). */
export function sortAccountsForList<T extends TUserAccount>(accounts: readonly T[]): T[] {
  return accounts
    .map((account, index) => ({ account, index, supported: isAccountSupported(account) }))
    .sort((a, b) => Number(b.supported) - Number(a.supported) || a.index - b.index)
    .map(({ account }) => account);
}

const DELETE_TYPE_NAMES: Readonly<Record<TAccountKind, string>> = {
  card_and_bank: 'Card & Bank Account',
  card: 'Card',
  bank: 'Bank Account',
};

/** The debug 'Delete Account' confirmation (spec §2): 'Are you sure you want to delete this Card?' */
export function deleteAccountConfirmation(account: TUserAccount): string {
  return `Are you sure you want to delete this ${DELETE_TYPE_NAMES[accountKind(account)]}?`;
}

/** The id a debug deletion uses: bankId, accountId or _id, in that order (spec §5); null if none. */
export function accountDeletionId(account: TUserAccount): string | null {
  return account.bankId || account.accountId || account._id || null;
}

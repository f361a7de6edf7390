/** A bank account by what identifies it at its bank: its number and the bank's CBN code. */
export type TBankAccountKey = { accountNumber: string; institutionCode: string };

/**
 * Whether a payment's origin offers to link the account the money came from (spec §3
 * origin.shouldPromptBankAccountLinking; spec §2 'Link this account for future payments?'; spec
 * §4 'an executed payment has an unlinked origin'). True when the bank's notice named the
 * sender's account and the payer who paid has no active link on it (same account number and
 * institution code); an anonymous payer has no links, so true for them too. False when the
 * sender is unknown: there is no account to offer.
 */
export function shouldPromptOriginLinking(
  sender: TBankAccountKey | null,
  /** The accounts the payer who paid has an active link on; null for an anonymous payer. */
  payerActiveLinks: readonly TBankAccountKey[] | null,
): boolean {
  if (!sender) return false;
  return !(payerActiveLinks ?? []).some(
    (linked) =>
      linked.accountNumber === sender.accountNumber &&
      linked.institutionCode === sender.institutionCode,
  );
}

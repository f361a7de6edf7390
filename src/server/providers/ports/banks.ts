import type { TAccountIntegrations } from '../../../domain/schemas/user-account';

/* The banks port: the banks a name enquiry reaches, the enquiry, and an account's holder. */

/** The banks a name enquiry reaches, and the enquiry itself (the holder's name and BVN). */
export type TBanksPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /** A bank by CBN institution code, with the ways it lets an account be linked; null if unknown. */
  lookupBank(institutionCode: string): Promise<TBank | null>;
  /** Every bank a name enquiry can be sent to (an account search asks those whose check digit fits). */
  listBanks(): Promise<readonly TBank[]>;
  /**
   * Asks a bank whose account a number is (NIBSS-style name enquiry): the holder's name, the
   * enquiry's reference and how this account can be linked; null when the bank has no such
   * account.
   */
  nameEnquiry(request: { institutionCode: string; accountNumber: string }): Promise<{
    accountName: string;
    nameEnquiryId: string;
    integrations: readonly TBankIntegration[];
    /** The holder's BVN as the bank holds it (NIP name enquiry answers it); null when it gave none. */
    bvn: string | null;
  } | null>;
  /**
   * Whether the account is held under the payer's BVN, for a provider whose name enquiry answers
   * no BVN (Paystack's customer validation). The BVN is in memory for this one call.
   */
  checkAccountHolder(request: {
    payerId: string;
    bvn: string;
    fullName: string;
    institutionCode: string;
    accountNumber: string;
  }): Promise<TAccountHolderAnswer>;
};

/**
 * Whether an account is held under a BVN: the provider answers at once, or later by its notice
 * (TProviderNotice 'account_holder').
 */
export type TAccountHolderAnswer = 'matches' | 'differs' | 'pending';

/** A way to link an account that a bank offers (spec §3 User account.integrations). */
export type TBankIntegration = keyof TAccountIntegrations;

export type TBank = {
  institutionCode: string;
  name: string;
  integrations: readonly TBankIntegration[];
};

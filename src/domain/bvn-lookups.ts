/*
 * Who looked at the payer's BVN (docs/payer-consents.md "Who looked at your BVN"): every lookup
 * made with the payer's BVN or their linked accounts, recorded where it happens and listed on
 * /consents. These are its kinds and the words the page says of each.
 */

export const BVN_LOOKUP_KINDS = [
  /**
   * The payer's BVN was given to the BVN registry to verify it: listed once the registry answered,
   * whether the payer then gave the code it sent them or not.
   */
  'bvn_verification',
  /**
   * Whose BVN an account the payer linked is held under was asked: of the BVN registry where it
   * decides owners, else of the bank's name enquiry.
   */
  'account_owner',
  /** A merchant the payer granted data sharing read their BVN (and what else it asked for). */
  'data_shared',
] as const;
export type TBvnLookupKind = (typeof BVN_LOOKUP_KINDS)[number];

/** What a merchant may receive with the BVN, as the lookup records it. */
export const BVN_SHARED_ITEMS = ['bvn', 'fullName', 'dateOfBirth'] as const;
export type TBvnSharedItem = (typeof BVN_SHARED_ITEMS)[number];

const SHARED_ITEM_TEXTS: Readonly<Record<TBvnSharedItem, string>> = {
  bvn: 'BVN',
  fullName: 'full name',
  dateOfBirth: 'date of birth',
};

/** The lookups a page of the list holds. */
export const BVN_LOOKUPS_PAGE_SIZE = 20;

type TLookupWords = {
  kind: TBvnLookupKind;
  provider: string | null;
  merchantName: string | null;
  account: { bankName: string; accountNumber: string } | null;
  items: readonly TBvnSharedItem[];
};

/** A provider's name as a payer reads it ('mono' → 'Mono'); 'sandbox' stays itself. */
const providerName = (provider: string | null) =>
  provider ? provider.charAt(0).toUpperCase() + provider.slice(1) : 'the registry';

/** The line a payer reads of one lookup: who looked, at what, and what they were given. */
export function bvnLookupText(lookup: TLookupWords): string {
  switch (lookup.kind) {
    case 'bvn_verification':
      return `Your BVN was sent to the BVN registry through ${providerName(lookup.provider)} to verify it`;
    case 'account_owner': {
      const account = lookup.account
        ? `${lookup.account.bankName} ${lookup.account.accountNumber}`
        : 'an account you linked';
      return `Who holds ${account} was looked up through ${providerName(lookup.provider)}`;
    }
    case 'data_shared': {
      const items = lookup.items.map((item) => SHARED_ITEM_TEXTS[item]).join(', ');
      return `${lookup.merchantName ?? 'A merchant'} received your ${items || 'BVN'}`;
    }
  }
}

type TPurposeWords = {
  kind: TBvnLookupKind;
  /** The merchant of the consent the lookup was made for, when it was made for one. */
  consentMerchantName: string | null;
  account: { bankName: string; accountNumber: string } | null;
};

/**
 * What a lookup was made for, as the payer reads it beside the lookup: the consent ('Your
 * consent to Tola Lending'), the link ('Linking GTBank ****1234', and the consent it was linked
 * for), or the verification of their BVN.
 */
export function bvnLookupPurposeText(lookup: TPurposeWords): string {
  const consent = lookup.consentMerchantName
    ? `your consent to ${lookup.consentMerchantName}`
    : null;
  switch (lookup.kind) {
    case 'bvn_verification':
      return 'Verifying your BVN';
    case 'account_owner': {
      const account = lookup.account
        ? `Linking ${lookup.account.bankName} ${lookup.account.accountNumber}`
        : 'Linking an account';
      return consent ? `${account} for ${consent}` : account;
    }
    case 'data_shared':
      return consent ? `Your consent to ${lookup.consentMerchantName}` : 'A consent you granted';
  }
}

/** The /consents section's words. */
export const BVN_LOOKUPS_TEXTS = {
  heading: 'Who looked at my BVN',
  intro:
    'Every lookup made with your BVN or the accounts you linked: when, for which consent or account, through which provider, and what a merchant received.',
  none: 'No one has looked up your BVN or your accounts yet.',
  loading: 'Loading the lookups...',
  failed: 'The lookups could not be loaded.',
  more: 'Show more',
} as const;

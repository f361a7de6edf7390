import { z } from 'zod/mini';
import { ACCOUNT_NUMBER_LENGTH } from '../constants';

/** A Nigerian NUBAN account number: exactly 10 digits (spec §5, §9). */
export const ZAccountNumber = z
  .string()
  .check(z.regex(new RegExp(`^\\d{${ACCOUNT_NUMBER_LENGTH}}$`), 'must be 10 digits'));

// spec §3 User account.integrations.transactionService (direct debit mandate)
export const ZTransactionServiceIntegration = z.object({
  possible: z.boolean(),
  authorized: z.boolean(),
  approved: z.boolean(),
  linked: z.boolean(),
});

// spec §3 User account.integrations.altTransactionService (Remita-style alternate mandate)
export const ZAltTransactionServiceIntegration = z.object({
  possible: z.boolean(),
  authorized: z.boolean(),
  status: z.nullable(z.string()),
  linked: z.boolean(),
  remitaLogoUrl: z.nullable(z.string()),
});

// spec §3 User account.integrations.card: a saved card is a provider token plus its masked form.
export const ZCardIntegration = z.object({
  possible: z.boolean(),
  active: z.boolean(),
  linked: z.boolean(),
  obfuscatedCard: z.nullable(z.string()),
  token: z.nullable(z.string()),
});

// spec §3 User account.integrations: an absent integration is one the bank does not offer.
export const ZAccountIntegrations = z.object({
  transactionService: z.optional(ZTransactionServiceIntegration),
  altTransactionService: z.optional(ZAltTransactionServiceIntegration),
  card: z.optional(ZCardIntegration),
  nibssAlt: z.optional(z.object({ possible: z.boolean() })),
});
export type TAccountIntegrations = z.infer<typeof ZAccountIntegrations>;

/** The payer behind an account when they already use the product (spec §3 oyaUser). */
export const ZOyaUser = z.object({ userId: z.string(), fullName: z.nullable(z.string()) });
export type TOyaUser = z.infer<typeof ZOyaUser>;

// spec §3 User account. Card-only accounts have no account number.
export const ZUserAccount = z.object({
  bankId: z.optional(z.string()),
  accountId: z.optional(z.string()),
  _id: z.optional(z.string()),
  accountNumber: z.nullable(z.string()),
  accountName: z.nullable(z.string()),
  bankName: z.string(),
  institutionCode: z.nullable(z.string()),
  logo: z.optional(z.nullable(z.string())),
  schemeImageUrl: z.optional(z.nullable(z.string())),
  linkStatus: z.optional(z.nullable(z.enum(['approved', 'bank_approved']))),
  status: z.optional(z.nullable(z.string())),
  statusDetail: z.optional(z.nullable(z.enum(['Approved', 'Bank Approved']))),
  isAlreadyLinked: z.optional(z.boolean()),
  nameEnquiryId: z.optional(z.nullable(z.string())),
  isOyaUser: z.optional(z.boolean()),
  oyaUser: z.optional(z.nullable(ZOyaUser)),
  integrations: ZAccountIntegrations,
  /**
   * A paper mandate signed or to be signed, not approved by the bank yet: its printable form and
   * until when it is valid (docs/accounts.md "Paper mandates"). Not in spec §3: the row offers
   * the form with it. null or absent when there is none.
   */
  paperMandate: z.optional(z.nullable(z.object({ formUrl: z.string(), expiresAt: z.string() }))),
  /**
   * Why a linked account debits nothing (docs/identity.md "The BVN"): its link was made before
   * BVNs were checked, and the payer has verified no BVN yet ('bvn_unverified'), or their bank
   * names another holder BVN than the payer's verified one ('not_under_bvn'). Not in spec §3: the
   * row says what to do (account-row.ts). null or absent when it debits, or is not linked.
   */
  bvnHold: z.optional(z.nullable(z.enum(['bvn_unverified', 'not_under_bvn']))),
});
export type TUserAccount = z.infer<typeof ZUserAccount>;

/** GET /api/accounts/user[?includeBvn=true] query (spec §7) */
export const ZUserAccountsQuery = z.object({
  includeBvn: z.optional(z.enum(['true', 'false'])),
});
export type TUserAccountsQuery = z.infer<typeof ZUserAccountsQuery>;

/** GET /api/accounts/user answer (spec §7) */
export const ZUserAccountsResponse = z.object({
  success: z.literal(true),
  accounts: z.array(ZUserAccount),
});
export type TUserAccountsResponse = z.infer<typeof ZUserAccountsResponse>;

/** DELETE /api/accounts/{id} answer (spec §7; debug only) */
export const ZDeleteAccountResponse = z.object({ message: z.string() });
export type TDeleteAccountResponse = z.infer<typeof ZDeleteAccountResponse>;

/** GET /api/accounts/search?by=bank&q={accountNumber}&v=new query (spec §7) */
export const ZAccountSearchQuery = z.object({
  by: z.literal('bank'),
  q: ZAccountNumber,
  v: z.literal('new'),
});
export type TAccountSearchQuery = z.infer<typeof ZAccountSearchQuery>;

/** GET /api/accounts/search answer: the id of the validation whose results then stream (spec §7) */
export const ZAccountSearchResponse = z.object({
  banks: z.object({
    results: z.array(z.object({ validationId: z.string() })).check(z.minLength(1)),
  }),
  /** The ticket that opens the validation's stream (GET /api/events/bank-validation/{id}). */
  stream: z.object({ ticket: z.string(), expiresAt: z.string() }),
});
export type TAccountSearchResponse = z.infer<typeof ZAccountSearchResponse>;

/** One account found by a bank validation, as streamed (spec §7 bank-validation stream). */
export const ACCOUNT_OWNERSHIPS = ['yours', 'not_yours', 'to_check', 'bvn_unverified'] as const;
export type TAccountOwnership = (typeof ACCOUNT_OWNERSHIPS)[number];

export const ZBankValidationResult = z.object({
  accountNumber: ZAccountNumber,
  accountName: z.string(),
  institutionCode: z.string(),
  bankName: z.string(),
  logo: z.nullable(z.string()),
  nameEnquiryId: z.nullable(z.string()),
  isOyaUser: z.boolean(),
  oyaUser: z.nullable(ZOyaUser),
  integrations: ZAccountIntegrations,
  /**
   * Whether the account is the payer's: its holder's BVN is the payer's verified BVN ('yours'),
   * another ('not_yours'), not named by the bank, so the provider checks it when the account is
   * linked ('to_check': Paystack's name enquiry names none), or the payer has verified none yet
   * ('bvn_unverified').
   */
  ownership: z.enum(ACCOUNT_OWNERSHIPS),
});
export type TBankValidationResult = z.infer<typeof ZBankValidationResult>;

/** The SSE event type of the bank-validation stream. */
export const BANK_VALIDATION_EVENT = 'bank_validation';

/**
 * Bank-validation event stream (spec §7): results arrive one bank at a time; `completed` tells
 * the page the search is over (so the 'Validating...' spinner stops) and `failed` carries why.
 */
export const ZBankValidationEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), validationId: z.string(), account: ZBankValidationResult }),
  z.object({ type: z.literal('completed'), validationId: z.string() }),
  z.object({ type: z.literal('failed'), validationId: z.string(), message: z.string() }),
]);
export type TBankValidationEvent = z.infer<typeof ZBankValidationEvent>;

/** GET /api/bank-lookups/{institutionCode} answer: which integrations the bank offers (spec §7) */
export const ZBankLookupResponse = z.object({
  success: z.literal(true),
  bank: z.object({
    integrations: z.object({
      transactionService: z.optional(z.object({ possible: z.boolean() })),
      altTransactionService: z.optional(z.object({ possible: z.boolean() })),
      card: z.optional(z.object({ possible: z.boolean() })),
      nibssAlt: z.optional(z.object({ possible: z.boolean() })),
    }),
  }),
});
export type TBankLookupResponse = z.infer<typeof ZBankLookupResponse>;

/** GET /api/accounts/bvn answer: the accounts under the payer's verified BVN, none before. */
export const ZBvnAccountsResponse = z.object({
  success: z.literal(true),
  accounts: z.array(ZBankValidationResult),
});
export type TBvnAccountsResponse = z.infer<typeof ZBvnAccountsResponse>;

import { z } from 'zod';
import { ACCOUNT_NUMBER_LENGTH } from '../constants';

/** A Nigerian NUBAN account number: exactly 10 digits (spec §5, §9). */
export const ZAccountNumber = z
  .string()
  .regex(new RegExp(`^\\d{${ACCOUNT_NUMBER_LENGTH}}$`), 'must be 10 digits');

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
  status: z.string().nullable(),
  linked: z.boolean(),
  remitaLogoUrl: z.string().nullable(),
});

// spec §3 User account.integrations.card: a saved card is a provider token plus its masked form.
export const ZCardIntegration = z.object({
  possible: z.boolean(),
  active: z.boolean(),
  linked: z.boolean(),
  obfuscatedCard: z.string().nullable(),
  token: z.string().nullable(),
});

// spec §3 User account.integrations: an absent integration is one the bank does not offer.
export const ZAccountIntegrations = z.object({
  transactionService: ZTransactionServiceIntegration.optional(),
  altTransactionService: ZAltTransactionServiceIntegration.optional(),
  card: ZCardIntegration.optional(),
  nibssAlt: z.object({ possible: z.boolean() }).optional(),
});
export type TAccountIntegrations = z.infer<typeof ZAccountIntegrations>;

/** The payer behind an account when they already use the product (spec §3 oyaUser). */
export const ZOyaUser = z.object({ userId: z.string(), fullName: z.string().nullable() });
export type TOyaUser = z.infer<typeof ZOyaUser>;

// spec §3 User account. Card-only accounts have no account number.
export const ZUserAccount = z.object({
  bankId: z.string().optional(),
  accountId: z.string().optional(),
  _id: z.string().optional(),
  accountNumber: z.string().nullable(),
  accountName: z.string().nullable(),
  bankName: z.string(),
  institutionCode: z.string().nullable(),
  logo: z.string().nullable().optional(),
  schemeImageUrl: z.string().nullable().optional(),
  linkStatus: z.enum(['approved', 'bank_approved']).nullable().optional(),
  status: z.string().nullable().optional(),
  statusDetail: z.enum(['Approved', 'Bank Approved']).nullable().optional(),
  isAlreadyLinked: z.boolean().optional(),
  nameEnquiryId: z.string().nullable().optional(),
  isOyaUser: z.boolean().optional(),
  oyaUser: ZOyaUser.nullable().optional(),
  integrations: ZAccountIntegrations,
  /**
   * A paper mandate signed or to be signed, not approved by the bank yet: its printable form and
   * until when it is valid (docs/accounts.md "Paper mandates"). Not in spec §3: the row offers
   * the form with it. null or absent when there is none.
   */
  paperMandate: z.object({ formUrl: z.string(), expiresAt: z.string() }).nullable().optional(),
});
export type TUserAccount = z.infer<typeof ZUserAccount>;

/** GET /api/accounts/user[?includeBvn=true] query (spec §7) */
export const ZUserAccountsQuery = z.object({
  includeBvn: z.enum(['true', 'false']).optional(),
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
    results: z.array(z.object({ validationId: z.string() })).min(1),
  }),
  /** The ticket that opens the validation's stream (GET /api/events/bank-validation/{id}). */
  stream: z.object({ ticket: z.string(), expiresAt: z.string() }),
});
export type TAccountSearchResponse = z.infer<typeof ZAccountSearchResponse>;

/** One account found by a bank validation, as streamed (spec §7 bank-validation stream). */
export const ZBankValidationResult = z.object({
  accountNumber: ZAccountNumber,
  accountName: z.string(),
  institutionCode: z.string(),
  bankName: z.string(),
  logo: z.string().nullable(),
  nameEnquiryId: z.string().nullable(),
  isOyaUser: z.boolean(),
  oyaUser: ZOyaUser.nullable(),
  integrations: ZAccountIntegrations,
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
      transactionService: z.object({ possible: z.boolean() }).optional(),
      altTransactionService: z.object({ possible: z.boolean() }).optional(),
      card: z.object({ possible: z.boolean() }).optional(),
      nibssAlt: z.object({ possible: z.boolean() }).optional(),
    }),
  }),
});
export type TBankLookupResponse = z.infer<typeof ZBankLookupResponse>;

import { z } from 'zod/mini';
import { ZKobo } from './consent';
import { ZIdentifier, ZText } from './fields';
import { ZAccountNumber } from './user-account';

// spec §3 Pay-in details: the test transfer the payer makes to prove they own the account.
export const ZPayInDetails = z.object({
  amount: ZKobo,
  accountNumber: z.string(),
  beneficiary: z.string(),
  bankName: z.string(),
  paymentId: z.string(),
  /** The payer's account the transfer must come from. */
  sourceAccount: z.nullable(z.string()),
});
export type TPayInDetails = z.infer<typeof ZPayInDetails>;

// spec §3 Account link response.authParams: one pair of fields the bank asks the payer to fill.
export const ZAuthParam = z.object({
  param1: z.string(),
  param2: z.nullable(z.string()),
  label1: z.string(),
  label2: z.nullable(z.string()),
  description1: z.nullable(z.string()),
  description2: z.nullable(z.string()),
});
export type TAuthParam = z.infer<typeof ZAuthParam>;

/**
 * spec §3 mandateType: 'otp' (the default), 'paper' with formUrl; and 'bank': a mandate the payer
 * approves at their bank's page, which formUrl opens (a provider's direct debit, e.g. Paystack's).
 */
export const ZMandateType = z.enum(['otp', 'paper', 'bank']);
export type TMandateType = z.infer<typeof ZMandateType>;

/** How a link was authorised (the bank's integrations decide, spec §2 panel steps). */
export const LINK_ROUTES = ['test_transfer', 'auth_params', 'paper', 'bank_page', 'card'] as const;
export type TLinkRoute = (typeof LINK_ROUTES)[number];

/** What a payer and a merchant are told of a link's route: a signed paper form, a bank's page, or neither. */
export const mandateTypeOf = (route: TLinkRoute): TMandateType =>
  route === 'paper' ? 'paper' : route === 'bank_page' ? 'bank' : 'otp';

/** A mandate's states (docs/accounts.md "Mandate states"). */
export const MANDATE_STATES = [
  'created',
  'awaiting_authorisation',
  'active',
  'expired',
  'cancelled',
] as const;
export const ZMandateState = z.enum(MANDATE_STATES);

/**
 * How a provider's own mandate ended when it was stopped (docs/providers/remita.md "Stopping"):
 * 'stopped' (now, or before), 'expired' (on its end date), or 'not_active' (the provider holds it,
 * not active: nothing can be debited on it).
 */
export const MANDATE_ENDS = ['stopped', 'expired', 'not_active'] as const;
export type TMandateEnd = (typeof MANDATE_ENDS)[number];

// spec §3 Account link response. A paper mandate comes with the form to print and sign.
export const ZAccountLink = z
  .object({
    id: z.string(),
    payInDetails: z.nullable(ZPayInDetails),
    authParams: z.array(ZAuthParam),
    mandateType: z._default(ZMandateType, 'otp'),
    remitaTransRef: z.nullable(z.string()),
    requestId: z.nullable(z.string()),
    remitaLogoUrl: z.nullable(z.string()),
    formUrl: z.nullable(z.string()),
  })
  .check(
    z.refine((link) => link.mandateType === 'otp' || link.formUrl !== null, {
      message: 'a paper or bank mandate needs its formUrl',
      path: ['formUrl'],
    }),
  );
export type TAccountLink = z.infer<typeof ZAccountLink>;

/** A CBN institution code: 3 digits for a bank, 5 or 6 for a microfinance bank. */
export const ZInstitutionCode = z.string().check(z.regex(/^\d{3,6}$/, 'must be 3 to 6 digits'));

/**
 * POST /api/account-links/create body (spec §7; authenticated). `consentId` (ours): the consent
 * whose future payments the account is linked to pay, where the payer links it from one; a mandate
 * a provider keeps itself (Remita's) is set up to allow what that consent grants.
 */
export const ZCreateAccountLinkRequest = z.object({
  accountNumber: ZAccountNumber,
  bankName: ZText(100),
  accountName: ZText(100),
  institutionCode: ZInstitutionCode,
  consentId: z.optional(ZIdentifier),
});
export type TCreateAccountLinkRequest = z.infer<typeof ZCreateAccountLinkRequest>;

/** POST /api/account-links/create answer (spec §7) */
export const ZCreateAccountLinkResponse = z.object({
  success: z.literal(true),
  accountLink: ZAccountLink,
  message: z.optional(z.string()),
});
export type TCreateAccountLinkResponse = z.infer<typeof ZCreateAccountLinkResponse>;

/**
 * POST /api/account-links/confirm-payment/{id} answer (spec §7). `success: false` with status
 * 'pending' is an ordinary answer: the transfer has not arrived yet (spec §4).
 */
export const ZConfirmAccountLinkPaymentResponse = z.object({
  success: z.boolean(),
  status: z.enum(['pending', 'completed', 'failed']),
  message: z.string(),
});
export type TConfirmAccountLinkPaymentResponse = z.infer<typeof ZConfirmAccountLinkPaymentResponse>;

/**
 * POST /api/account-links/from-payment body (ours; docs/accounts.md "Linking from a payment"):
 * the payment whose transfer's sender is linked by it. `accountNumber` and `institutionCode`, when
 * given, must be that sender's (a page without sign-in sees the number masked, and sends none).
 * `chargeToken`: the token of a one-time account opened without sign-in, which only the page
 * that opened it holds.
 */
export const ZLinkFromPaymentRequest = z.object({
  paymentId: ZIdentifier,
  accountNumber: z.optional(ZAccountNumber),
  institutionCode: z.optional(ZInstitutionCode),
  chargeToken: z.optional(ZIdentifier),
});
export type TLinkFromPaymentRequest = z.infer<typeof ZLinkFromPaymentRequest>;

/** POST /api/account-links/from-payment answer: the account is linked. */
export const ZLinkFromPaymentResponse = z.object({
  success: z.literal(true),
  accountLinkId: z.string(),
  message: z.string(),
});
export type TLinkFromPaymentResponse = z.infer<typeof ZLinkFromPaymentResponse>;

/** POST /api/transactionservicealt/create body (spec §7); `consentId` as in the create above. */
export const ZAltServiceCreateRequest = z.object({
  accountName: ZText(100),
  accountNumber: ZAccountNumber,
  institutionCode: ZInstitutionCode,
  consentId: z.optional(ZIdentifier),
});
export type TAltServiceCreateRequest = z.infer<typeof ZAltServiceCreateRequest>;

/**
 * POST /api/transactionservicealt/create answer. The spec does not show it; we answer an account
 * link, because the page needs its remitaTransRef and authParams for the verification form.
 */
export const ZAltServiceCreateResponse = ZCreateAccountLinkResponse;
export type TAltServiceCreateResponse = z.infer<typeof ZAltServiceCreateResponse>;

/** POST /api/transactionservicealt/confirm body (spec §7) */
export const ZAltServiceConfirmRequest = z.object({
  remitaTransRef: ZIdentifier,
  authParams: z
    .array(z.object({ param1: ZText(50), value: ZText(50) }))
    .check(z.minLength(1), z.maxLength(10)),
});
export type TAltServiceConfirmRequest = z.infer<typeof ZAltServiceConfirmRequest>;

/** POST /api/transactionservicealt/confirm answer (spec §7) */
export const ZAltServiceConfirmResponse = z.object({
  success: z.boolean(),
  message: z.string(),
});
export type TAltServiceConfirmResponse = z.infer<typeof ZAltServiceConfirmResponse>;

/** The SSE event type of the account-link progress stream (spec §7). */
export const ACCOUNT_LINK_PROGRESS_EVENT = 'account_link_progress';

/** Account-link progress event stream (spec §7): the link completed or failed. */
export const ZAccountLinkProgressEvent = z.object({
  accountLinkId: z.string(),
  status: z.enum(['completed', 'failed']),
  message: z.optional(z.string()),
});
export type TAccountLinkProgressEvent = z.infer<typeof ZAccountLinkProgressEvent>;

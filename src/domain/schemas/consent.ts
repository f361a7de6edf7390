import { z } from 'zod/mini';
import { ZText } from './fields';

/** Integer minor units (kobo). Money never travels as a float. */
export const ZKobo = z.number().check(z.int(), z.nonnegative());

/** Hex colour as stored for a merchant: '#' and 3 or 6 hex digits. */
export const ZHexColour = z
  .string()
  .check(z.regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #FE7048'));

export const ZMerchantColours = z.object({
  primaryColour: ZHexColour,
  primaryText: ZHexColour,
  secondaryColour: ZHexColour,
  secondaryText: ZHexColour,
});
export type TMerchantColours = z.infer<typeof ZMerchantColours>;

// spec §3 Consent.counterparty
export const ZCounterparty = z.object({
  name: z.string(),
  image: z.nullable(z.string()),
  tag: z.nullable(z.string()),
  type: z.enum(['merchant', 'api_user']),
  merchantId: z.string(),
  merchantColours: ZMerchantColours,
});
export type TCounterparty = z.infer<typeof ZCounterparty>;

// spec §3 Consent.actOnBehalfOf: a representative acting for an organisation.
export const ZActOnBehalfOf = z.object({
  role: z.object({ name: ZText(100) }),
  fullName: ZText(200),
  name: ZText(200),
  image: z.nullable(ZText(2048)),
  location: z.optional(z.nullable(ZText(200))),
});
export type TActOnBehalfOf = z.infer<typeof ZActOnBehalfOf>;

/** Sub-items a category may name: more than any category has is a mistake, not a request. */
export const DATA_SHARING_MAX_SUB_ITEMS = 50;

/** A data category is either asked for as a whole (flag) or as a list of sub-items. */
export const ZDataSharingItem = z.union([
  z.boolean(),
  z.array(ZText(100)).check(z.minLength(1), z.maxLength(DATA_SHARING_MAX_SUB_ITEMS)),
]);

// spec §3 Consent.dataSharing
export const ZDataSharing = z.object({
  bvnData: z.optional(ZDataSharingItem),
  ninData: z.optional(ZDataSharingItem),
  userImages: z.optional(ZDataSharingItem),
  bankAccounts: z.optional(ZDataSharingItem),
});
export type TDataSharing = z.infer<typeof ZDataSharing>;

export const ZRequirements = z.object({
  requiresAuth: z.boolean(),
  requiresAccount: z.boolean(),
});
export type TRequirements = z.infer<typeof ZRequirements>;

export const PAYMENT_FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly', 'quarterly'] as const;
export const ZFrequency = z.enum(PAYMENT_FREQUENCIES);
export type TFrequency = z.infer<typeof ZFrequency>;

export const ZAmountType = z.enum(['fixed', 'variable']);
export type TAmountType = z.infer<typeof ZAmountType>;

/**
 * spec §3 Payment.origin. The payer who paid and the merchant's API read it whole; anyone else
 * masked (src/domain/origin-privacy.ts): accountNumber '****1234', accountName and bankId null,
 * no integrations.
 */
export const ZPaymentOrigin = z.object({
  paymentMethod: z.enum(['card', 'bank_transfer']),
  accountNumber: z.optional(z.nullable(z.string())),
  accountName: z.optional(z.nullable(z.string())),
  institutionCode: z.optional(z.nullable(z.string())),
  bankId: z.optional(z.nullable(z.string())),
  bankName: z.optional(z.nullable(z.string())),
  logo: z.optional(z.nullable(z.string())),
  schemeImageUrl: z.optional(z.nullable(z.string())),
  isNewCard: z.optional(z.boolean()),
  isNewAccount: z.optional(z.boolean()),
  obfuscatedCard: z.optional(z.nullable(z.string())),
  maskedCardNumber: z.optional(z.nullable(z.string())),
  shouldPromptCardLinking: z.optional(z.boolean()),
  shouldPromptBankAccountLinking: z.optional(z.boolean()),
  integrations: z.optional(z.record(z.string(), z.unknown())),
});
export type TPaymentOrigin = z.infer<typeof ZPaymentOrigin>;

// spec §3 Payment
export const ZPayment = z.object({
  paymentId: z.string(),
  type: z.enum(['immediate', 'future']),
  /**
   * cancelled: a future payment never collected whose consent the payer revoked; skipped: one the
   * payer skipped, or that fell due while they had paused the consent (debit-notices.ts).
   */
  status: z.enum(['pending', 'executed', 'cancelled', 'skipped']),
  executedAt: z.nullable(z.string()),
  amount: ZKobo,
  narration: z.string(),
  dueDate: z.nullable(z.string()),
  startDate: z.nullable(z.string()),
  endDate: z.nullable(z.string()),
  frequency: z.nullable(ZFrequency),
  interval: z.nullable(z.number().check(z.int(), z.positive())),
  amountType: ZAmountType,
  paypointId: z.nullable(z.string()),
  paypointDetails: z.nullable(z.object({ location: z.object({ name: z.string() }) })),
  shieldWallet: z.nullable(z.object({ bankName: z.string() })),
  origin: z.nullable(ZPaymentOrigin),
});
export type TPayment = z.infer<typeof ZPayment>;

/** revoked: granted, then withdrawn by the payer (docs/payer-consents.md); nothing more is collected. */
export const CONSENT_STATUSES = ['pending', 'granted', 'declined', 'failed', 'revoked'] as const;
export const ZConsentStatus = z.enum(CONSENT_STATUSES);
export type TConsentStatus = z.infer<typeof ZConsentStatus>;

// spec §3 Consent
export const ZConsent = z.object({
  consentId: z.string(),
  status: ZConsentStatus,
  grantedAt: z.nullable(z.string()),
  expiresAt: z.string(),
  counterparty: ZCounterparty,
  party: z.nullable(z.object({ image: z.nullable(z.string()) })),
  actOnBehalfOf: z.nullable(ZActOnBehalfOf),
  payments: z.array(ZPayment),
  dataSharing: z.nullable(ZDataSharing),
  formId: z.nullable(z.string()),
  formResponseId: z.nullable(z.string()),
  formUpdateToken: z.nullable(z.string()),
  formCompletion: z.nullable(z.object({ templateLiteralValues: z.record(z.string(), z.string()) })),
  requirements: ZRequirements,
  attestDiscoveryId: z.nullable(z.string()),
  attestAuthAppId: z.nullable(z.string()),
  authAppId: z.nullable(z.string()),
});
export type TConsent = z.infer<typeof ZConsent>;

/** GET /api/consent/{id}?clientId= (spec §7) */
export const ZConsentReadResponse = z.object({
  success: z.literal(true),
  consent: ZConsent,
  /** Origins the merchant registered for embedding: the only ones told about the consent. */
  embedOrigins: z.array(z.string()),
  /** Where a standalone page sends the payer after the grant or a decline; null: it stays. */
  returnUrl: z.nullable(z.string()),
});
export type TConsentReadResponse = z.infer<typeof ZConsentReadResponse>;

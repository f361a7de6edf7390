import { z } from 'zod';
import { ZText } from './fields';

/** Integer minor units (kobo). Money never travels as a float. */
export const ZKobo = z.number().int().nonnegative();

/** Hex colour as stored for a merchant: '#' and 3 or 6 hex digits. */
export const ZHexColour = z
  .string()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #FE7048');

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
  image: z.string().nullable(),
  tag: z.string().nullable(),
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
  image: ZText(2048).nullable(),
  location: ZText(200).nullable().optional(),
});
export type TActOnBehalfOf = z.infer<typeof ZActOnBehalfOf>;

/** Sub-items a category may name: more than any category has is a mistake, not a request. */
export const DATA_SHARING_MAX_SUB_ITEMS = 50;

/** A data category is either asked for as a whole (flag) or as a list of sub-items. */
export const ZDataSharingItem = z.union([
  z.boolean(),
  z.array(ZText(100)).min(1).max(DATA_SHARING_MAX_SUB_ITEMS),
]);

// spec §3 Consent.dataSharing
export const ZDataSharing = z.object({
  bvnData: ZDataSharingItem.optional(),
  ninData: ZDataSharingItem.optional(),
  userImages: ZDataSharingItem.optional(),
  bankAccounts: ZDataSharingItem.optional(),
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
  accountNumber: z.string().nullable().optional(),
  accountName: z.string().nullable().optional(),
  institutionCode: z.string().nullable().optional(),
  bankId: z.string().nullable().optional(),
  bankName: z.string().nullable().optional(),
  logo: z.string().nullable().optional(),
  schemeImageUrl: z.string().nullable().optional(),
  isNewCard: z.boolean().optional(),
  isNewAccount: z.boolean().optional(),
  obfuscatedCard: z.string().nullable().optional(),
  maskedCardNumber: z.string().nullable().optional(),
  shouldPromptCardLinking: z.boolean().optional(),
  shouldPromptBankAccountLinking: z.boolean().optional(),
  integrations: z.record(z.string(), z.unknown()).optional(),
});
export type TPaymentOrigin = z.infer<typeof ZPaymentOrigin>;

// spec §3 Payment
export const ZPayment = z.object({
  paymentId: z.string(),
  type: z.enum(['immediate', 'future']),
  /** cancelled: a future payment never collected whose consent the payer revoked. */
  status: z.enum(['pending', 'executed', 'cancelled']),
  executedAt: z.string().nullable(),
  amount: ZKobo,
  narration: z.string(),
  dueDate: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  frequency: ZFrequency.nullable(),
  interval: z.number().int().positive().nullable(),
  amountType: ZAmountType,
  paypointId: z.string().nullable(),
  paypointDetails: z.object({ location: z.object({ name: z.string() }) }).nullable(),
  shieldWallet: z.object({ bankName: z.string() }).nullable(),
  origin: ZPaymentOrigin.nullable(),
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
  grantedAt: z.string().nullable(),
  expiresAt: z.string(),
  counterparty: ZCounterparty,
  party: z.object({ image: z.string().nullable() }).nullable(),
  actOnBehalfOf: ZActOnBehalfOf.nullable(),
  payments: z.array(ZPayment),
  dataSharing: ZDataSharing.nullable(),
  formId: z.string().nullable(),
  formResponseId: z.string().nullable(),
  formUpdateToken: z.string().nullable(),
  formCompletion: z.object({ templateLiteralValues: z.record(z.string(), z.string()) }).nullable(),
  requirements: ZRequirements,
  attestDiscoveryId: z.string().nullable(),
  attestAuthAppId: z.string().nullable(),
  authAppId: z.string().nullable(),
});
export type TConsent = z.infer<typeof ZConsent>;

/** GET /api/consent/{id}?clientId= (spec §7) */
export const ZConsentReadResponse = z.object({
  success: z.literal(true),
  consent: ZConsent,
  /** Origins the merchant registered for embedding: the only ones told about the consent. */
  embedOrigins: z.array(z.string()),
});
export type TConsentReadResponse = z.infer<typeof ZConsentReadResponse>;

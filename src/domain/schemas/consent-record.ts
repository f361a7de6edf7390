import { z } from 'zod/mini';
import { GRANT_AUTHENTICATIONS } from '../consent-record';
import { ZAmountType, ZFrequency, ZKobo } from './consent';
import { ZGrantChannel } from './consent-api';
import { ZPrintable } from './fields';
import { ZPayerConsent, ZRevocationChallengeResponse } from './payer-consents';

/*
 * A consent's record and audit (docs/payer-consents.md "The record"), as the payer reads them on
 * /consents and by the SMS receipt's link, and as the merchant reads them (GET
 * /api/v1/consents/{id}/record).
 */

export const ZGrantAuthentication = z.enum(GRANT_AUTHENTICATIONS);

/** One payment of the record: its amount (kobo), kind and frequency, and the terms in words. */
export const ZRecordPayment = z.object({
  paymentId: z.string(),
  type: z.enum(['immediate', 'future']),
  amount: ZKobo,
  amountType: ZAmountType,
  frequency: z.nullable(ZFrequency),
  interval: z.nullable(z.number()),
  dueDate: z.nullable(z.string()),
  terms: z.string(),
});

/** What the payer was shown and how they granted it: written once, at the grant. */
export const ZStoredConsentRecord = z.object({
  /** consentRecordText's version, and the SHA-256 (hex) of the text it wrote. */
  textVersion: z.string(),
  textHash: z.string(),
  text: z.string(),
  /** What the consent asks for, in plain words. */
  scopes: z.array(z.string()),
  payments: z.array(ZRecordPayment),
  /** The payer who granted it; null: a payer who did not sign in (spec §6). */
  payerId: z.nullable(z.string()),
  merchant: z.object({ merchantId: z.string(), name: z.string() }),
  /** Where the page was shown; null: the page did not say (a grant by its payment). */
  channel: z.nullable(ZGrantChannel),
  authentication: ZGrantAuthentication,
  grantedAt: z.string(),
});
export type TStoredConsentRecord = z.infer<typeof ZStoredConsentRecord>;

/** The record with the consent's later timestamps. */
export const ZConsentRecord = z.extend(ZStoredConsentRecord, {
  consentId: z.string(),
  status: z.string(),
  revokedAt: z.nullable(z.string()),
  /** Data sharing's end unless confirmed again (12 months), and when it ended; null without. */
  dataSharingExpiresAt: z.nullable(z.string()),
  dataSharingEndedAt: z.nullable(z.string()),
});
export type TConsentRecord = z.infer<typeof ZConsentRecord>;

/** One append-only audit entry: what happened, in words, by whom, when. */
export const ZConsentAuditEntry = z.object({
  id: z.number(),
  type: z.string(),
  label: z.string(),
  actor: z.enum(['payer', 'merchant', 'system']),
  at: z.string(),
});
export type TConsentAuditEntry = z.infer<typeof ZConsentAuditEntry>;

/** GET …/record answer: null record for a grant made before records were kept. */
export const ZConsentRecordResponse = z.object({
  success: z.literal(true),
  record: z.nullable(ZConsentRecord),
  audit: z.array(ZConsentAuditEntry),
});
export type TConsentRecordResponse = z.infer<typeof ZConsentRecordResponse>;

/** The receipt's token, in its link's query (/consents?receipt=) and the receipt routes' paths. */
export const ZReceiptParams = z.object({ token: ZPrintable(200) });

/** GET /api/consent-receipts/{token}: the one consent the receipt is of, its record and audit. */
export const ZReceiptResponse = z.object({
  success: z.literal(true),
  consent: ZPayerConsent,
  record: z.nullable(ZConsentRecord),
  audit: z.array(ZConsentAuditEntry),
});
export type TReceiptResponse = z.infer<typeof ZReceiptResponse>;

export const ZReceiptChallengeResponse = ZRevocationChallengeResponse;

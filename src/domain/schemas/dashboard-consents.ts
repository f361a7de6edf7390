import { z } from 'zod/mini';
import { ZConsentAuditEntry, ZConsentRecord } from './consent-record';
import { ZIdentifier, ZPrintable } from './fields';
import { ZMerchantConsentResponse } from './merchant-api';
import { ZUpcomingDebit } from './payer-consents';

/*
 * The dashboard's consents and mandates (docs/dashboard.md "Consents"): the merchant API's own
 * list and consent (GET /api/v1/consents), with the grant record, the schedule of the future
 * payments still owed, and the staff's cancels of them.
 */

/** The longest reason staff may give for cancelling future payments (it goes in the SMS). */
export const CANCEL_REASON_MAX = 200;

export const ZConsentIdParams = z.object({ consentId: ZIdentifier });

export const ZCancelFuturePaymentsRequest = z.object({
  reason: ZPrintable(CANCEL_REASON_MAX).check(z.trim(), z.minLength(1)),
});

/** One cancel of a consent's future payments by the merchant's staff. */
export const ZFuturePaymentsCancellation = z.object({
  at: z.string(),
  reason: z.string(),
  cancelledPaymentIds: z.array(z.string()),
});
export type TFuturePaymentsCancellation = z.infer<typeof ZFuturePaymentsCancellation>;

/** GET /api/dashboard/consents/{consentId}, and the cancel's answer (the same each time). */
export const ZDashboardConsentResponse = z.object({
  success: z.literal(true),
  consent: ZMerchantConsentResponse.shape.consent,
  /** What the payer was shown and how they granted it; null before the grant. */
  record: z.nullable(ZConsentRecord),
  audit: z.array(ZConsentAuditEntry),
  /** Every future payment still owed, the soonest first ('as needed' ones last). */
  schedule: z.array(ZUpcomingDebit),
  cancellations: z.array(ZFuturePaymentsCancellation),
});
export type TDashboardConsent = z.infer<typeof ZDashboardConsentResponse>;

import { z } from 'zod';
import { ZActOnBehalfOf, ZAmountType, ZDataSharing, ZFrequency, ZKobo } from './consent';

/** Free text from a merchant: trimmed, bounded, no control characters (the database and the
 * payer's screen accept neither). */
const ZText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what it refuses
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

const ZIsoDateTime = z.iso.datetime({ offset: true });
const ZIsoDate = z.union([z.iso.date(), ZIsoDateTime]);

export const ZCreateImmediatePayment = z.object({
  type: z.literal('immediate'),
  amount: ZKobo.min(1, 'must be at least 1 kobo'),
  narration: ZText(140),
  paypointId: z.string().min(1).optional(),
  paypointLocationName: z.string().min(1).optional(),
});

export const ZCreateFuturePayment = z
  .object({
    type: z.literal('future'),
    amount: ZKobo.min(1, 'must be at least 1 kobo'),
    amountType: ZAmountType.default('fixed'),
    narration: ZText(140),
    dueDate: ZIsoDate.optional(),
    startDate: ZIsoDate.optional(),
    endDate: ZIsoDate.optional(),
    frequency: ZFrequency.optional(),
    interval: z.number().int().positive().max(366).optional(),
    paypointId: z.string().min(1).optional(),
    paypointLocationName: z.string().min(1).optional(),
  })
  .refine((p) => (p.frequency === undefined) === (p.interval === undefined), {
    message: 'frequency and interval must be given together',
    path: ['interval'],
  });

/** One payment a merchant asks the payer to consent to. */
export const ZCreatePayment = z.discriminatedUnion('type', [
  ZCreateImmediatePayment,
  ZCreateFuturePayment,
]);
export type TCreatePayment = z.infer<typeof ZCreatePayment>;

/** Body of POST /api/v1/consents: what a merchant asks a payer to consent to. */
export const ZCreateConsentRequest = z
  .object({
    payments: z.array(ZCreatePayment).max(120).default([]),
    dataSharing: ZDataSharing.optional(),
    formId: z.string().min(1).max(100).optional(),
    requirements: z
      .object({
        requiresAuth: z.boolean().default(false),
        requiresAccount: z.boolean().default(false),
      })
      .default({ requiresAuth: false, requiresAccount: false }),
    actOnBehalfOf: ZActOnBehalfOf.optional(),
    expiresAt: ZIsoDateTime.optional(),
    authAppId: z.string().min(1).max(100).optional(),
    originalRequestId: z.string().min(1).max(100).optional(),
  })
  .strict()
  .refine((c) => c.payments.filter((p) => p.type === 'immediate').length <= 1, {
    message: 'at most one immediate payment',
    path: ['payments'],
  });
export type TCreateConsentRequest = z.infer<typeof ZCreateConsentRequest>;
export type TCreateConsentRequestInput = z.input<typeof ZCreateConsentRequest>;

export const ZCreateConsentResponse = z.object({
  success: z.literal(true),
  consentId: z.string(),
  url: z.string(),
  expiresAt: z.string(),
});
export type TCreateConsentResponse = z.infer<typeof ZCreateConsentResponse>;

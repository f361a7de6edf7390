import { z } from 'zod/mini';
import { DATA_CATEGORIES } from '../constants';
import { ZMandateState, ZMandateType } from './account-link';
import {
  ZActOnBehalfOf,
  ZAmountType,
  ZConsent,
  ZConsentStatus,
  ZDataSharing,
  ZFrequency,
  ZKobo,
} from './consent';
import { ZIdentifier, ZIsoDate, ZIsoDateTime, ZPrintable, ZText } from './fields';

/** A page of the merchant's consent list: its size unless asked, and the most it may be. */
export const MERCHANT_CONSENTS_PAGE_SIZE = 20;
export const MERCHANT_CONSENTS_MAX_PAGE_SIZE = 100;

export const ZCreateImmediatePayment = z.object({
  type: z.literal('immediate'),
  amount: ZKobo.check(z.gte(1, 'must be at least 1 kobo')),
  narration: ZText(140),
  paypointId: z.optional(ZIdentifier),
  paypointLocationName: z.optional(ZText(200)),
});

export const ZCreateFuturePayment = z
  .object({
    type: z.literal('future'),
    amount: ZKobo.check(z.gte(1, 'must be at least 1 kobo')),
    amountType: z._default(ZAmountType, 'fixed'),
    narration: ZText(140),
    dueDate: z.optional(ZIsoDate),
    startDate: z.optional(ZIsoDate),
    endDate: z.optional(ZIsoDate),
    frequency: z.optional(ZFrequency),
    interval: z.optional(z.number().check(z.int(), z.positive(), z.lte(366))),
    paypointId: z.optional(ZIdentifier),
    paypointLocationName: z.optional(ZText(200)),
  })
  .check(
    z.refine((p) => (p.frequency === undefined) === (p.interval === undefined), {
      message: 'frequency and interval must be given together',
      path: ['interval'],
    }),
    z.refine(
      (p) => !p.startDate || !p.endDate || Date.parse(p.endDate) >= Date.parse(p.startDate),
      {
        message: 'must not be before startDate',
        path: ['endDate'],
      },
    ),
  );

/** One payment a merchant asks the payer to consent to. */
export const ZCreatePayment = z.discriminatedUnion('type', [
  ZCreateImmediatePayment,
  ZCreateFuturePayment,
]);
export type TCreatePayment = z.infer<typeof ZCreatePayment>;

/** The Idempotency-Key header of mutating calls: up to 200 printable ASCII characters. */
export const ZIdempotencyKey = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(200),
    z.regex(/^[\x20-\x7e]+$/, 'must be printable ASCII characters'),
  );

/**
 * The merchant's own reference of a consent (its order number, say): unique per client, so a
 * second create with it answers the first consent (docs/merchant-clients.md "Your reference").
 */
export const ZMerchantReference = z
  .string()
  .check(
    z.regex(
      /^[A-Za-z0-9._:=/-]{1,100}$/,
      'must be 1 to 100 letters, digits or the characters . _ : = / -',
    ),
  );

/** The most keys a consent's metadata holds, and the longest a key and a value may be. */
export const METADATA_MAX_KEYS = 20;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_VALUE_MAX_LENGTH = 500;

/** The merchant's own data on a consent: echoed on every read and webhook of it and its payments. */
export const ZMetadata = z
  .record(
    z
      .string()
      .check(
        z.regex(
          new RegExp(`^[A-Za-z0-9_.-]{1,${METADATA_KEY_MAX_LENGTH}}$`),
          `keys must be 1 to ${METADATA_KEY_MAX_LENGTH} letters, digits or . _ -`,
        ),
      ),
    ZPrintable(METADATA_VALUE_MAX_LENGTH),
  )
  .check(
    z.refine(
      (values) => Object.keys(values).length <= METADATA_MAX_KEYS,
      `at most ${METADATA_MAX_KEYS} keys`,
    ),
  );
export type TMetadata = z.infer<typeof ZMetadata>;

/**
 * Where a standalone page sends the payer after the grant or a decline: an http(s) address on an
 * origin registered for the client (checked when the consent is created).
 */
export const ZReturnUrl = z.string().check(
  z.maxLength(2000),
  z.refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'must be an http or https address',
  }),
);

/** What every read and webhook of a consent and its payments echoes of the merchant's own. */
export const ZMerchantEcho = {
  /** The merchant's reference of the consent; null when it gave none. */
  reference: z.nullable(z.string()),
  /** The merchant's metadata of the consent; empty when it gave none. */
  metadata: z.record(z.string(), z.string()),
};

/** Whether a consent request asks the payer for anything at all. */
function asksForSomething(c: {
  payments: unknown[];
  dataSharing?: Partial<Record<(typeof DATA_CATEGORIES)[number], boolean | string[]>> | undefined;
  formId?: string | undefined;
}): boolean {
  const sharesData = DATA_CATEGORIES.some((category) => {
    const item = c.dataSharing?.[category];
    return item !== undefined && item !== false;
  });
  return c.payments.length > 0 || sharesData || c.formId !== undefined;
}

/** Body of POST /api/v1/consents: what a merchant asks a payer to consent to. */
export const ZCreateConsentRequest = z
  .strictObject({
    payments: z._default(z.array(ZCreatePayment).check(z.maxLength(120)), []),
    dataSharing: z.optional(ZDataSharing),
    formId: z.optional(ZIdentifier),
    /** spec §3: the values of the form's {{name}} placeholders for this payer (docs/forms.md). */
    formCompletion: z.optional(
      z.strictObject({
        templateLiteralValues: z
          .record(
            z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, 'must be a placeholder name')),
            ZText(500),
          )
          .check(z.refine((values) => Object.keys(values).length <= 50, 'at most 50 values')),
      }),
    ),
    requirements: z._default(
      z.object({
        requiresAuth: z._default(z.boolean(), false),
        requiresAccount: z._default(z.boolean(), false),
      }),
      { requiresAuth: false, requiresAccount: false },
    ),
    actOnBehalfOf: z.optional(ZActOnBehalfOf),
    expiresAt: z.optional(ZIsoDateTime),
    authAppId: z.optional(ZIdentifier),
    originalRequestId: z.optional(ZIdentifier),
    reference: z.optional(ZMerchantReference),
    metadata: z.optional(ZMetadata),
    returnUrl: z.optional(ZReturnUrl),
  })
  .check(
    z.refine((c) => c.payments.filter((p) => p.type === 'immediate').length <= 1, {
      message: 'at most one immediate payment',
      path: ['payments'],
    }),
    z.refine((c) => c.formCompletion === undefined || c.formId !== undefined, {
      message: 'formCompletion needs a formId',
      path: ['formCompletion'],
    }),
    z.refine((c) => asksForSomething(c), {
      message: 'a consent must ask for a payment, data sharing or a form',
      path: ['payments'],
    }),
  );
export type TCreateConsentRequest = z.infer<typeof ZCreateConsentRequest>;
export type TCreateConsentRequestInput = z.input<typeof ZCreateConsentRequest>;

export const ZCreateConsentResponse = z.object({
  success: z.literal(true),
  consentId: z.string(),
  url: z.string(),
  expiresAt: z.string(),
});
export type TCreateConsentResponse = z.infer<typeof ZCreateConsentResponse>;

/**
 * The mandate of an account the payer chose for a consent's future payments, as the merchant
 * sees it: the account number's last 4 digits only.
 */
export const ZMerchantConsentMandate = z.object({
  mandateId: z.string(),
  accountId: z.string(),
  bankName: z.string(),
  accountNumberLast4: z.string(),
  mandateType: ZMandateType,
  status: ZMandateState,
});
export type TMerchantConsentMandate = z.infer<typeof ZMerchantConsentMandate>;

/** The payer's form response: where to read it, and when it became final (null: not yet). */
export const ZMerchantConsentFormResponse = z.object({
  formId: z.string(),
  formResponseId: z.string(),
  submittedAt: z.nullable(z.string()),
});
export type TMerchantConsentFormResponse = z.infer<typeof ZMerchantConsentFormResponse>;

/**
 * Whether the payer's BVN can be read (GET /api/v1/consents/{consentId}/shared-data/bvn):
 * available, the grant shares BVN data and the payer has a verified BVN; not_verified, it shares
 * BVN data but the payer has verified none; null, the consent does not share it (not asked, not
 * granted, or revoked).
 */
export const ZSharedBvnState = z.nullable(z.enum(['available', 'not_verified']));
export type TSharedBvnState = z.infer<typeof ZSharedBvnState>;

/** What of the payer's data the merchant can read now (docs/merchant-clients.md "Shared data"). */
export const ZMerchantSharedData = z.object({ bvn: ZSharedBvnState });
export type TMerchantSharedData = z.infer<typeof ZMerchantSharedData>;

/**
 * The BVN registry's fields a consent may ask for as bvnData sub-items; asked as `true`, all of
 * them. The BVN itself is always shared; other sub-item names share nothing more.
 */
export const SHARED_BVN_FIELDS = ['fullName', 'dateOfBirth'] as const;
export type TSharedBvnField = (typeof SHARED_BVN_FIELDS)[number];

/** GET /api/v1/consents/{consentId}/shared-data/bvn: the payer's verified BVN. */
export const ZSharedBvnResponse = z.object({
  success: z.literal(true),
  bvn: z.object({
    bvn: z.string(),
    /** As the BVN registry holds it; only when the consent asked for it. */
    fullName: z.optional(z.string()),
    /** YYYY-MM-DD, as the BVN registry holds it; only when the consent asked for it. */
    dateOfBirth: z.optional(z.string()),
  }),
});
export type TSharedBvnResponse = z.infer<typeof ZSharedBvnResponse>;

/** GET /api/v1/consents/{consentId}: one of the merchant's consents as it stands now. */
export const ZMerchantConsentResponse = z.object({
  success: z.literal(true),
  // The payer's form-save token is the page's business, not the merchant's.
  consent: z.extend(z.omit(ZConsent, { formUpdateToken: true }), {
    /** When the payer revoked it (status revoked, docs/payer-consents.md); null otherwise. */
    revokedAt: z.nullable(z.string()),
    /**
     * Since when its payer has paused its future payments: none is collected, and what falls due
     * meanwhile is skipped (`payment.skipped`); null while they run (docs/payer-consents.md).
     */
    pausedAt: z.nullable(z.string()),
    /**
     * When its data sharing ends unless the payer confirms it again (12 months from the grant or
     * the last confirmation), and when it ended (docs/payer-consents.md); null without.
     */
    dataSharingExpiresAt: z.nullable(z.string()),
    dataSharingEndedAt: z.nullable(z.string()),
    /** The chosen accounts' mandates, first to last; empty before the grant. */
    mandates: z.array(ZMerchantConsentMandate),
    /** The form response once the payer started one; null otherwise. */
    formResponse: z.nullable(ZMerchantConsentFormResponse),
    /** What of the payer's data can be read now. */
    sharedData: ZMerchantSharedData,
    ...ZMerchantEcho,
    /** Where a standalone page sends the payer after the grant or a decline; null: it stays. */
    returnUrl: z.nullable(z.string()),
  }),
});
export type TMerchantConsentResponse = z.infer<typeof ZMerchantConsentResponse>;

/** The page of a merchant list (consents, payments, events): its cursor and size. */
export const ZListPage = {
  /** The nextCursor of the page before; none: the first page. */
  cursor: z.optional(ZPrintable(200)),
  limit: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(MERCHANT_CONSENTS_MAX_PAGE_SIZE)),
    MERCHANT_CONSENTS_PAGE_SIZE,
  ),
};

/** GET /api/v1/consents?status=&reference=&cursor=&limit=: the merchant's consents, newest first. */
export const ZMerchantConsentsQuery = z.object({
  status: z.optional(ZConsentStatus),
  /** The consent of this reference of the merchant's (at most one). */
  reference: z.optional(ZMerchantReference),
  ...ZListPage,
});
export type TMerchantConsentsQuery = z.infer<typeof ZMerchantConsentsQuery>;

export const ZMerchantConsentsResponse = z.object({
  success: z.literal(true),
  consents: z.array(ZMerchantConsentResponse.shape.consent),
  /** The cursor of the next page; null on the last. */
  nextCursor: z.nullable(z.string()),
});
export type TMerchantConsentsResponse = z.infer<typeof ZMerchantConsentsResponse>;

import { z } from 'zod/mini';
import { BVN_LOOKUP_KINDS, BVN_SHARED_ITEMS, BVN_LOOKUPS_PAGE_SIZE } from '../bvn-lookups';
import {
  COMPLAINT_CATEGORIES,
  COMPLAINT_DESCRIPTION_MAX,
  COMPLAINT_RESOLUTION_MAX,
  COMPLAINT_STATES,
} from '../complaints';
import { ZKobo } from './consent';
import { ZIdentifier, ZPrintable, ZStorable, ZText } from './fields';

/*
 * What the payer can hold us to (docs/payer-consents.md "Who looked at your BVN", "Complaints"):
 * the lookups made with their BVN, and their complaints about payments. The server's routes and
 * the page's fetchers parse with these.
 */

/** GET /api/users/bvn-lookups query: a page of the list, newest first. */
export const ZBvnLookupsQuery = z.object({
  cursor: z.optional(ZPrintable(200)),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), BVN_LOOKUPS_PAGE_SIZE),
});
export type TBvnLookupsQuery = z.infer<typeof ZBvnLookupsQuery>;

/** One lookup made with the payer's BVN or one of their accounts. Never the BVN itself. */
export const ZBvnLookup = z.object({
  lookupId: z.string(),
  kind: z.enum(BVN_LOOKUP_KINDS),
  at: z.string(),
  /** The provider that asked the BVN registry; null for a merchant's read. */
  provider: z.nullable(z.string()),
  /** The consent the lookup was for (a merchant's read, or a link made for a consent). */
  consentId: z.nullable(z.string()),
  /** The merchant that received data (data_shared). */
  merchant: z.nullable(z.object({ merchantId: z.string(), name: z.string() })),
  /** The account asked about (account_owner): its bank and its number masked ('****1234'). */
  account: z.nullable(z.object({ bankName: z.string(), accountNumber: z.string() })),
  /** What the merchant received (data_shared); empty otherwise. */
  items: z.array(z.enum(BVN_SHARED_ITEMS)),
  /**
   * What the lookup was made for: the consent (a merchant's read, or a link made for it), the
   * payer's account a link was made for, or neither (the BVN's own verification), with the
   * words the payer reads ('Your consent to Tola Lending', 'Linking GTBank ****1234').
   */
  madeFor: z.object({
    consentId: z.nullable(z.string()),
    accountId: z.nullable(z.string()),
    label: z.string(),
  }),
});
export type TBvnLookup = z.infer<typeof ZBvnLookup>;

export const ZBvnLookupsResponse = z.object({
  success: z.literal(true),
  lookups: z.array(ZBvnLookup),
  nextCursor: z.nullable(z.string()),
});
export type TBvnLookupsResponse = z.infer<typeof ZBvnLookupsResponse>;

/** POST /api/users/complaints body: the payment complained of, and what went wrong. */
export const ZRaiseComplaintRequest = z.strictObject({
  paymentId: ZIdentifier,
  category: z.enum(COMPLAINT_CATEGORIES),
  /** The payer's own words; line breaks kept. */
  description: ZStorable(COMPLAINT_DESCRIPTION_MAX).check(z.trim(), z.minLength(1)),
});
export type TRaiseComplaintRequest = z.infer<typeof ZRaiseComplaintRequest>;

/** A complaint as its payer (and the operator) reads it. */
export const ZComplaint = z.object({
  complaintId: z.string(),
  /** What the payer quotes: 'CP-' and eight letters or digits. */
  reference: z.string(),
  paymentId: z.string(),
  consentId: z.string(),
  merchant: z.object({ merchantId: z.string(), name: z.string() }),
  amount: ZKobo,
  category: z.enum(COMPLAINT_CATEGORIES),
  description: z.string(),
  state: z.enum(COMPLAINT_STATES),
  raisedAt: z.string(),
  /** The targets: acknowledged and resolved by these (settings; docs/payer-consents.md). */
  acknowledgeBy: z.string(),
  resolveBy: z.string(),
  acknowledgedAt: z.nullable(z.string()),
  resolvedAt: z.nullable(z.string()),
  /** What was done, said when it was resolved. */
  resolution: z.nullable(z.string()),
});
export type TComplaint = z.infer<typeof ZComplaint>;

/** The raise answer: 201 a new complaint, 200 the one already open for the payment. */
export const ZComplaintResponse = z.object({ success: z.literal(true), complaint: ZComplaint });
export type TComplaintResponse = z.infer<typeof ZComplaintResponse>;

export const ZComplaintsResponse = z.object({
  success: z.literal(true),
  complaints: z.array(ZComplaint),
});
export type TComplaintsResponse = z.infer<typeof ZComplaintsResponse>;

export const ZComplaintParams = z.object({ complaintId: ZIdentifier });

/** POST /api/operator/complaints/{complaintId}/{acknowledge|resolve} body. */
export const ZComplaintMoveRequest = z.strictObject({
  /** Required to resolve: what was done, as the payer will read it. */
  note: z.optional(ZText(COMPLAINT_RESOLUTION_MAX)),
});
export type TComplaintMoveRequest = z.infer<typeof ZComplaintMoveRequest>;

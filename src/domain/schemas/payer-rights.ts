import { z } from 'zod/mini';
import { LEGAL_HOLDS, PAYER_RIGHTS_KINDS, PAYER_RIGHTS_STATUSES } from '../payer-rights';
import { canonicalJson, ZAuthenticationResponse, ZFullName } from './auth';
import { ZIdentifier, ZPrintable } from './fields';

/*
 * The payer's rights over their data (docs/payer-rights.md): their requests, a copy of their data
 * prepared by a job and opened by the SMS's link, the erasure, and the correction of their name.
 * The server's routes and the page parse with these.
 */

/** What an erasure kept, and why. */
export const ZKeptData = z.object({
  hold: z.enum(Object.keys(LEGAL_HOLDS) as [keyof typeof LEGAL_HOLDS]),
  what: z.string(),
  why: z.string(),
});

/** One request, as the payer and the operator see it. */
export const ZPayerRightsRequest = z.object({
  requestId: z.string(),
  kind: z.enum(PAYER_RIGHTS_KINDS),
  status: z.enum(PAYER_RIGHTS_STATUSES),
  receivedAt: z.string(),
  /** The law's month from receipt: answered by then. */
  dueAt: z.string(),
  doneAt: z.nullable(z.string()),
  /** A ready copy's link opens it until then; null for other kinds and before it is ready. */
  expiresAt: z.nullable(z.string()),
  /** An erasure's answer: what was kept and why (also before it is done: what will be). */
  kept: z.nullable(z.array(ZKeptData)),
});
export type TPayerRightsRequest = z.infer<typeof ZPayerRightsRequest>;

/** One request in the payer's own list: a copy's link is theirs to open again. */
export const ZPayerRightsListedRequest = z.extend(ZPayerRightsRequest, {
  /** The page the SMS's link opens, while the copy is ready and its link lasts; else null. */
  link: z.nullable(z.string()),
});
export type TPayerRightsListedRequest = z.infer<typeof ZPayerRightsListedRequest>;

/** GET /api/users/data-requests: the payer's requests, newest first, and their name's rule. */
export const ZPayerRightsResponse = z.object({
  success: z.literal(true),
  requests: z.array(ZPayerRightsListedRequest),
  name: z.object({
    fullName: z.string(),
    correctable: z.boolean(),
    /** Why it cannot be corrected here; null when it can. */
    whyNot: z.nullable(z.string()),
  }),
});
export type TPayerRightsResponse = z.infer<typeof ZPayerRightsResponse>;

/** POST /api/users/data-exports and /data-erasures: the request received (or the open one). */
export const ZPayerRightsRequestResponse = z.object({
  success: z.literal(true),
  request: ZPayerRightsRequest,
});

export const ERASURE_SIGNING_TYPE = 'oya-money.data-erasure';

/**
 * What an erasure's signature says: erase my data. The nonce the server issued for it names the
 * payer and is good for an erasure alone, so the message needs no more.
 */
export function erasureSigningMessage(input: { nonce: string }): string {
  return canonicalJson({
    type: ERASURE_SIGNING_TYPE,
    version: 1,
    nonce: input.nonce,
    payload: { action: 'erase' },
  });
}

/** POST /api/users/data-erasures body: the passkey's signature of the erasure, at the asking. */
export const ZErasureRequest = z.object({
  nonce: ZIdentifier,
  response: ZAuthenticationResponse,
});
export type TErasureRequest = z.infer<typeof ZErasureRequest>;

/** PUT /api/users/name { fullName }. */
export const ZNameCorrection = z.object({ fullName: ZFullName });
export type TNameCorrection = z.infer<typeof ZNameCorrection>;

/** GET /api/payer-exports/{token}: the token the SMS's link carries. */
export const ZPayerExportParams = z.object({ token: ZPrintable(200) });

/** A record in the copy: whatever fields its kind has, none of them a secret in clear. */
const ZRecord = z.record(z.string(), z.unknown());

/** The copy of everything held about the payer (docs/payer-rights.md "The copy"). */
export const ZPayerExport = z.object({
  preparedAt: z.string(),
  profile: z.object({
    payerId: z.string(),
    fullName: z.string(),
    phoneNumber: z.string(),
    createdAt: z.string(),
    /** The verified BVN's last 4 digits only; null when none was verified. */
    bvn: z.nullable(z.object({ last4: z.string(), verifiedAt: z.nullable(z.string()) })),
  }),
  phoneHistory: z.array(ZRecord),
  passkeys: z.array(ZRecord),
  accounts: z.array(ZRecord),
  consents: z.array(ZRecord),
  payments: z.array(ZRecord),
  refunds: z.array(ZRecord),
  // Absent from a copy prepared before they were gathered (its link lasts a week).
  /** Releases of what the payer's payment requests collected, to their accounts (masked). */
  payouts: z.optional(z.array(ZRecord)),
  receipts: z.array(ZRecord),
  /** Complaints the payer raised about their payments, with their words and states. */
  complaints: z.optional(z.array(ZRecord)),
  forms: z.array(ZRecord),
  sharedWithMerchants: z.array(ZRecord),
  /** Every lookup made with the payer's BVN or accounts, and each hand-over to a merchant. */
  bvnLookups: z.optional(z.array(ZRecord)),
  signIns: z.array(ZRecord),
  requests: z.array(ZPayerRightsRequest),
});
export type TPayerExport = z.infer<typeof ZPayerExport>;

export const ZPayerExportResponse = z.object({
  success: z.literal(true),
  expiresAt: z.string(),
  fileName: z.string(),
  data: ZPayerExport,
});
export type TPayerExportResponse = z.infer<typeof ZPayerExportResponse>;

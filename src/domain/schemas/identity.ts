import { z } from 'zod/mini';
import { ZAuthUser } from './auth';
import { ZPrintable } from './fields';

/*
 * The payer's BVN (docs/identity.md "The BVN"): verified once, by a code sent to the phone the
 * BVN is registered with, then the anchor of every account the payer links or pays from.
 */

/** POST /api/identity/bvn: the BVN as typed; the server sends a code to its registered phone. */
export const ZBvnCodeRequest = z.object({ bvn: ZPrintable(40) });
export type TBvnCodeRequest = z.infer<typeof ZBvnCodeRequest>;

/**
 * The same answer whatever the BVN (phone-code-texts.ts BVN_CODE_SENT_MESSAGE): it names no phone
 * and does not say whether the registry knows the BVN.
 */
export const ZBvnCodeResponse = z.object({
  success: z.literal(true),
  expiresAt: z.string(),
  message: z.string(),
});
export type TBvnCodeResponse = z.infer<typeof ZBvnCodeResponse>;

/** POST /api/identity/bvn/verify: the code the BVN's registered phone received. */
export const ZBvnVerifyRequest = z.object({ code: ZPrintable(20) });
export type TBvnVerifyRequest = z.infer<typeof ZBvnVerifyRequest>;

/** The payer's verified BVN as the page may show it: the last 4 digits, never the whole. */
export const ZVerifiedBvn = z.object({
  last4: z.string(),
  verifiedAt: z.string(),
});
export type TVerifiedBvn = z.infer<typeof ZVerifiedBvn>;

/** GET /api/identity/bvn, and the answer of a verification. */
export const ZBvnStatusResponse = z.object({
  success: z.literal(true),
  bvn: z.nullable(ZVerifiedBvn),
});
export type TBvnStatusResponse = z.infer<typeof ZBvnStatusResponse>;

/*
 * Changing the sign-in number (docs/identity.md "Changing the phone number"): a session a trusted
 * passkey proved asks, a code goes to the new number, and on the code the number changes.
 */

/** POST /api/identity/phone-number: the new number as typed; answered as ZPhoneCodeResponse. */
export const ZPhoneChangeRequest = z.object({ phone: ZPrintable(40) });
export type TPhoneChangeRequest = z.infer<typeof ZPhoneChangeRequest>;

/** POST /api/identity/phone-number/verify: the new number again, and the code it received. */
export const ZPhoneChangeVerifyRequest = z.object({ phone: ZPrintable(40), code: ZPrintable(20) });
export type TPhoneChangeVerifyRequest = z.infer<typeof ZPhoneChangeVerifyRequest>;

export const ZPhoneChangeResponse = z.object({
  success: z.literal(true),
  user: ZAuthUser,
  message: z.string(),
});
export type TPhoneChangeResponse = z.infer<typeof ZPhoneChangeResponse>;

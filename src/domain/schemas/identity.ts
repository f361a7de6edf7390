import { z } from 'zod/mini';
import { ZAuthUser } from './auth';
import { ZPrintable } from './fields';

/*
 * The payer's BVN (docs/identity.md "The BVN"): verified once, by a code the BVN registry sends to
 * a contact of the BVN's holder that the payer picks among its masked hints (NIBSS's iGree), then
 * the anchor of every account the payer links or pays from.
 */

/** POST /api/identity/bvn: the BVN as typed; the registry opens a verification of it. */
export const ZBvnCodeRequest = z.object({ bvn: ZPrintable(40) });
export type TBvnCodeRequest = z.infer<typeof ZBvnCodeRequest>;

/** A way the registry can send the code, as it hints at it ('SMS to 0803***4567'). */
export const ZBvnCodeMethod = z.object({ id: z.string(), hint: z.string() });
export type TBvnCodeMethod = z.infer<typeof ZBvnCodeMethod>;

/**
 * The verification opened: where the registry can send the code (its masked hints, nothing in
 * clear) and who sends it, NIBSS or the sandbox registry; until when it may be finished.
 */
export const ZBvnCodeResponse = z.object({
  success: z.literal(true),
  expiresAt: z.string(),
  codeSender: z.enum(['nibss', 'sandbox']),
  methods: z.array(ZBvnCodeMethod),
});
export type TBvnCodeResponse = z.infer<typeof ZBvnCodeResponse>;

/** POST /api/identity/bvn/code: the way the payer chose; asked again, the code is sent again. */
export const ZBvnSendCodeRequest = z.object({ method: ZPrintable(40) });
export type TBvnSendCodeRequest = z.infer<typeof ZBvnSendCodeRequest>;

/** The code went the way chosen: the words to show, naming its hint. */
export const ZBvnSendCodeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type TBvnSendCodeResponse = z.infer<typeof ZBvnSendCodeResponse>;

/** POST /api/identity/bvn/verify: the code the registry sent. */
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

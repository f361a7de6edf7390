import { z } from 'zod';

/** The signed-in payer as the page keeps it (spec §3 Browser storage paymonaUser). */
export const ZAuthUser = z.object({
  userId: z.string(),
  fullName: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
});
export type TAuthUser = z.infer<typeof ZAuthUser>;

/** GET /api/auth/login query (spec §7): attestation-signed; the discovery id is required (§5). */
export const ZLoginQuery = z.object({
  clientId: z.string().trim().min(1),
  discoveryId: z.string().trim().min(1, 'Discovery ID is required for authentication'),
  authAppId: z.string().trim().min(1).optional(),
});
export type TLoginQuery = z.infer<typeof ZLoginQuery>;

/** GET /api/auth/login answer (spec §7): token and user are stored by the page. */
export const ZLoginResponse = z.object({
  success: z.literal(true),
  token: z.string().min(1),
  user: ZAuthUser,
  message: z.string().optional(),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

/** GET /api/auth/me answer. The spec does not show it; this is ours. */
export const ZAuthMeResponse = z.object({ success: z.literal(true), user: ZAuthUser });
export type TAuthMeResponse = z.infer<typeof ZAuthMeResponse>;

/** POST /api/users/decline-invitation/{id} answer. The spec does not show it; this is ours. */
export const ZDeclineInvitationResponse = z.object({ success: z.literal(true) });
export type TDeclineInvitationResponse = z.infer<typeof ZDeclineInvitationResponse>;

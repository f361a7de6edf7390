import { z } from 'zod/mini';
import { ZAuthenticationResponse } from './auth';
import { ZGrantRequest } from './consent-api';
import { ZIdentifier } from './fields';

/**
 * POST /api/consent/{consentId}/grant body as the server takes it: the spec's grant data (§7)
 * and, from a signed-in payer, their passkey's signature over exactly that data (the signed-grant
 * primitive: a nonce from POST /api/auth/grant-challenges, the WebAuthn assertion of the canonical
 * grant message). The signed payload is the body without `signature`.
 */
export const ZGrantCall = z.extend(ZGrantRequest, {
  signature: z.optional(z.strictObject({ nonce: ZIdentifier, response: ZAuthenticationResponse })),
});
export type TGrantCall = z.infer<typeof ZGrantCall>;

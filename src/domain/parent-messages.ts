import { z } from 'zod/mini';

/** Messages the page accepts from its parent or from attestation frames (spec §7 Messages). */
export const ZMessageFromParent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('attest-height-update'), height: z.number().check(z.nonnegative()) }),
  z.object({ type: z.literal('USER_DISCOVERY_RESULT'), userData: z.unknown() }),
  z.object({ type: z.literal('authentication-updated') }),
]);
export type TMessageFromParent = z.infer<typeof ZMessageFromParent>;

/** The message the page sends to attestation frames to close them (spec §7 Messages). */
export const DISCOVERY_CLOSE_MESSAGE = { type: 'DISCOVERY_CLOSE' } as const;

/**
 * A message from the page's parent, or null for anything else (spec §7 Messages). The page
 * authenticates in place with passkeys, so it opens no attestation frames:
 * 'authentication-updated' (the payer signed in elsewhere; the stored session is read again) is
 * the one the page acts on.
 */
export function parseMessageFromParent(data: unknown): TMessageFromParent | null {
  const parsed = ZMessageFromParent.safeParse(data);
  return parsed.success ? parsed.data : null;
}

import { z } from 'zod/mini';

/**
 * GET /api/consent/{id}/embed-check?clientId=&origin= (docs/sdk.md): whether a merchant page of
 * `origin` may frame the consent page opened with `clientId`, as the page's frame-ancestors
 * would say. The embed script asks before it loads the page.
 */
export const ZEmbedCheckResponse = z.object({
  success: z.literal(true),
  allowed: z.boolean(),
});
export type TEmbedCheckResponse = z.infer<typeof ZEmbedCheckResponse>;

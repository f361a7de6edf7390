import { z } from 'zod/mini';

/** GET /api/signed-url?imageKey=logos/cardSchemes/{Scheme}.png query (spec §7) */
export const ZSignedUrlQuery = z.object({
  imageKey: z
    .string()
    .check(z.regex(/^logos\/cardSchemes\/[A-Za-z]+\.png$/, 'must be a card scheme logo')),
});
export type TSignedUrlQuery = z.infer<typeof ZSignedUrlQuery>;

/** GET /api/signed-url answer (spec §7); failures answer ZApiErrorBody. */
export const ZSignedUrlResponse = z.object({ success: z.literal(true), url: z.string() });
export type TSignedUrlResponse = z.infer<typeof ZSignedUrlResponse>;

/** GET /api/bank-logos/{institutionCode} path (spec §7); the answer is an image. */
export const ZBankLogoParams = z.object({
  institutionCode: z.string().check(z.regex(/^\w{3,10}$/)),
});
export type TBankLogoParams = z.infer<typeof ZBankLogoParams>;

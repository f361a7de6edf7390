import { z } from 'zod/mini';
import { ERROR_CODES, type TApiErrorBody } from '../errors';

/**
 * A failure as the server answers it and the page parses it. Apart from the catalogue
 * (errors.ts), which the page's screens read without loading zod.
 */
export const ZApiErrorBody = z.object({
  success: z.literal(false),
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }),
});

// The catalogue's type of a failure is this schema's.
type TSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const same: TSame<z.infer<typeof ZApiErrorBody>, TApiErrorBody> = true;
void same;

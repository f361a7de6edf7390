import { z } from 'zod/mini';

// Its own module: the page's calling code reads the stored payer with it at every start, and
// builds no other schema of auth.ts for that.

/** The signed-in payer as the page keeps it (spec §3 Browser storage paymonaUser). */
export const ZAuthUser = z.object({
  userId: z.string(),
  fullName: z.nullable(z.string()),
  email: z.nullable(z.string()),
  phoneNumber: z.nullable(z.string()),
});
export type TAuthUser = z.infer<typeof ZAuthUser>;

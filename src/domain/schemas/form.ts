import { z } from 'zod';

/** GET /api/form?formId={formId} query (spec §7) */
export const ZFormQuery = z.object({ formId: z.string().trim().min(1) });
export type TFormQuery = z.infer<typeof ZFormQuery>;

/** GET /api/form answer (spec §7): the page reads the title for the Form step. */
export const ZFormReadResponse = z.object({
  success: z.literal(true),
  data: z.object({ form: z.object({ title: z.string() }) }),
});
export type TFormReadResponse = z.infer<typeof ZFormReadResponse>;

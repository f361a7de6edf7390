import { z } from 'zod';
import { ZKobo } from './consent';

/** POST /api/card-terminal/raven/fetch-keys body (spec §7) */
export const ZTerminalFetchKeysRequest = z.object({ serial: z.string().trim().min(1) });
export type TTerminalFetchKeysRequest = z.infer<typeof ZTerminalFetchKeysRequest>;

/** POST /api/card-terminal/raven/fetch-keys answer (spec §7): the terminal and merchant ids. */
export const ZTerminalFetchKeysResponse = z.object({
  status: z.boolean(),
  data: z.object({
    status: z.boolean(),
    data: z.object({ tid: z.string(), mid: z.string(), serial: z.string() }),
  }),
  message: z.string(),
});
export type TTerminalFetchKeysResponse = z.infer<typeof ZTerminalFetchKeysResponse>;

/**
 * POST /api/card-terminal/raven/chip-purchase body (spec §7). Field names are the processor's.
 * `pan` and `track2` pass through to the processor and are never stored or logged.
 */
export const ZChipPurchaseRequest = z.object({
  track2: z.string().min(1),
  pin_block: z.string(),
  rrn: z.string().regex(/^\d{12}$/, 'must be 12 digits'),
  trans_datetime: z.string().min(1),
  tid: z.string().min(1),
  mid: z.string().min(1),
  icc_data: z.string().min(1),
  pan: z.string().regex(/^\d{12,19}$/),
  serial: z.string().min(1),
  expirydate: z.string().regex(/^\d{4}$/, 'must be YYMM'),
  amount: ZKobo.min(1),
});
export type TChipPurchaseRequest = z.infer<typeof ZChipPurchaseRequest>;

/** POST /api/card-terminal/raven/chip-purchase answer (spec §7); `data` is null when declined. */
export const ZChipPurchaseResponse = z.object({
  status: z.boolean(),
  data: z
    .object({
      responseCode: z.string(),
      approved: z.boolean(),
      rrn: z.string(),
      authCode: z.string().nullable(),
    })
    .nullable(),
  message: z.string(),
});
export type TChipPurchaseResponse = z.infer<typeof ZChipPurchaseResponse>;

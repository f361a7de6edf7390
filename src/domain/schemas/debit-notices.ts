import { z } from 'zod/mini';
import { DEBIT_NOTICE_STATES, SKIP_REASONS } from '../debit-notices';
import { ZKobo } from './consent';
import { ZPrintable } from './fields';

/*
 * The debit notice's link (docs/payer-consents.md "Told before every debit"): the page it opens
 * with no sign-in, for that one debit, and its skip. The server's routes and the page parse with
 * these.
 */

export const ZDebitNoticeParams = z.object({ token: ZPrintable(200) });

/** One debit as its notice's page shows it. */
export const ZDebitNotice = z.object({
  paymentId: z.string(),
  merchantName: z.string(),
  /** Kobo. */
  amount: ZKobo,
  narration: z.string(),
  /** When it will be (or would have been) debited: not before the notice's lead has passed. */
  collectAt: z.string(),
  /** The account it is debited from first: '****1234'. */
  account: z.nullable(z.object({ bankName: z.string(), accountNumber: z.string() })),
  state: z.enum(DEBIT_NOTICE_STATES),
  skipReason: z.nullable(z.enum(SKIP_REASONS)),
  /**
   * Where 'Stop all future payments' goes: the consent's receipt page, which revokes it with the
   * payer's passkey (/consents?receipt=…); null when the consent is no longer active.
   */
  stopUrl: z.nullable(z.string()),
});
export type TDebitNotice = z.infer<typeof ZDebitNotice>;

/** GET /api/debit-notices/{token} and POST …/skip answer. */
export const ZDebitNoticeResponse = z.object({
  success: z.literal(true),
  notice: ZDebitNotice,
});
export type TDebitNoticeResponse = z.infer<typeof ZDebitNoticeResponse>;

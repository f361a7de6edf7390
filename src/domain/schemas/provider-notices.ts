import { z } from 'zod/mini';

/*
 * POST /api/providers/{name}/notices (docs/payments.md "Provider notices"): a payment provider's
 * notice of what it did (a transfer arrived, a charge, a refund or a payout ended). The body is
 * the provider's own, read as raw bytes by its adapter, which verifies its signature over them:
 * no schema of ours describes it.
 */

/** The provider a notice comes from, as the path names it (the notices capability's `provider`). */
export const ZProviderNoticePath = z.strictObject({
  name: z.string().check(z.regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be a provider name')),
});

/** The answer to a notice the provider's adapter verified and we applied (or had applied). */
export const ZProviderNoticeAnswer = z.object({ success: z.literal(true) });
export type TProviderNoticeAnswer = z.infer<typeof ZProviderNoticeAnswer>;

/** The most a notice's body may weigh: providers send a few kilobytes. */
export const PROVIDER_NOTICE_MAX_BYTES = 64 * 1024;

// The words the consent page's messages carry, as the published package declares them: plain
// unions, so its types need neither zod nor the page's schemas. event-types.test.ts checks that
// they are the domain's (src/domain/consent-steps.ts, embed-messages.ts).

/** The steps of the consent flow (spec §2 Main consent flow). */
export type TConsentStep = 'data_sharing' | 'form' | 'future_payments' | 'immediate_payment';

/** How the immediate payment is being paid. */
export type TPaymentMethod = 'bank_transfer' | 'card' | 'account' | 'chip_card';

/** Where the immediate payment stands: an attempt started, the payment completed, or failed. */
export type TPaymentStatus = 'started' | 'completed' | 'failed';

/**
 * Why `failed` was reported:
 * - `ORIGIN_NOT_REGISTERED`: the merchant did not register the origin of the page that opened
 *   the embed, so the browser may not frame the consent page there;
 * - `FRAME_DID_NOT_LOAD`: the framed page never spoke (blocked by the browser, or broken);
 * - `CONSENT_FAILED`: the consent page reported a failure (consent not found, declined…).
 */
export type TFailureCode = 'ORIGIN_NOT_REGISTERED' | 'FRAME_DID_NOT_LOAD' | 'CONSENT_FAILED';

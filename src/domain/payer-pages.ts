/**
 * The signed-in payer's own page (docs/payer-consents.md): the consents they granted, each with
 * Revoke, and their devices. Consent Granted and the payer's signed-in page link to it, so that
 * withdrawing a consent is as easy to find as giving it.
 */
export const PAYER_CONSENTS_PATH = '/consents';

/** The link to it on a signed-in payer's consent: in the header, or atop the screen. */
export const PAYER_CONSENTS_LINK = 'Your consents';

/**
 * The signed-in payer's own page (docs/payer-consents.md): the consents they granted, each with
 * Revoke, and their devices. Consent Granted and the payer's signed-in page link to it, so that
 * withdrawing a consent is as easy to find as giving it.
 */
export const PAYER_CONSENTS_PATH = '/consents';

/** The link to it on a signed-in payer's consent: in the header, or atop the screen. */
export const PAYER_CONSENTS_LINK = 'Your consents';

/**
 * The page a debit's SMS notice opens, with no sign-in (docs/payer-consents.md "Told before every
 * debit"); its token is the rest of the path. Here, not in debit-notices.ts: the router names it,
 * and the consent page's first load carries nothing of the notice's rules.
 */
export const DEBIT_NOTICE_PATH = '/debits';

/**
 * The printable page of a copy of the payer's data (docs/payer-rights.md): /consents?my-data=
 * {token}, the SMS link's token. Here, not in payer-rights.ts: the page's first load carries
 * nothing of the rights' rules.
 */
export const EXPORT_PAGE_PARAM = 'my-data';

import { PAYER_CONSENTS_LINK, PAYER_CONSENTS_PATH } from './payer-pages';

/*
 * The line before 'Consent' or 'OneTap': the consent can be withdrawn at any time, and where. Apart
 * from the record (consent-record.ts) so that the consent page's first screen takes these words
 * alone.
 */
export const WITHDRAW_NOTE = {
  before: 'You can withdraw this consent at any time in ',
  link: PAYER_CONSENTS_LINK,
  href: PAYER_CONSENTS_PATH,
  after: ', or by the link in the SMS receipt we send you.',
} as const;

/** The withdraw line as one sentence (what the record's text ends with). */
export const WITHDRAW_LINE = `${WITHDRAW_NOTE.before}${WITHDRAW_NOTE.link}${WITHDRAW_NOTE.after}`;

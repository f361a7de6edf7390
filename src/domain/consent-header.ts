import { requestedDataCategories } from './data-sharing';
import type { TConsent } from './schemas/consent';

/** Whether the consent asks only for immediate payments and nothing else. */
function asksOnlyImmediatePayments(consent: TConsent): boolean {
  return (
    consent.payments.length > 0 &&
    consent.payments.every((p) => p.type === 'immediate') &&
    requestedDataCategories(consent.dataSharing).length === 0 &&
    consent.formId === null
  );
}

/**
 * Whether the consent header shows (spec §2): hidden in embed mode, where the merchant's page is
 * the header, and for a consent with only immediate payments, where the payment card says it all.
 */
export function isConsentHeaderVisible(consent: TConsent, options: { embed: boolean }): boolean {
  return !options.embed && !asksOnlyImmediatePayments(consent);
}

/**
 * Whether the merchant's one-line byline shows instead: embedded, the header is hidden (spec §2),
 * yet the page around the frame may not name the merchant, so the payer is always told who is
 * asking. A consent of immediate payments only has none, as standalone: its payment card says it
 * all.
 */
export function isMerchantBylineVisible(consent: TConsent, options: { embed: boolean }): boolean {
  return options.embed && !asksOnlyImmediatePayments(consent);
}

/** The consent header's title (spec §2): 'Link Account' while linking, else 'Consent Request'. */
export function consentHeaderTitle(linking: boolean): string {
  return linking ? 'Link Account' : 'Consent Request';
}

/** The standalone page's title (spec §2): '{merchant} - Consent Request'. */
export function standalonePageTitle(merchantName: string): string {
  return `${merchantName} - Consent Request`;
}

/** The Consent Granted message (spec §2), naming 'Merchant' when the counterparty has no name. */
export function grantedMessage(merchantName: string | null | undefined): string {
  const name = merchantName?.trim() || 'Merchant';
  return `You have successfully granted consent to ${name}`;
}

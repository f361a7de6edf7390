import { requestedDataCategories } from './data-sharing';
import type { TConsent } from './schemas/consent';

/**
 * Whether paying the consent's immediate payment is all the consent asks (issue 28 item 6): an
 * immediate payment and nothing else — no future payment, no data, no form — on a consent that
 * lets a payer pay without signing in (spec §6 requirements.requiresAuth false; a form needs
 * sign-in too, spec §6 auth prompt). Such a consent is granted by the server when its payment
 * executes, in the same transaction: a payer who closes the tab after paying leaves the merchant
 * a granted consent, and the page's own grant afterwards answers it granted.
 */
export function isGrantedByPayment(consent: TConsent): boolean {
  const immediate = consent.payments.filter((p) => p.type === 'immediate');
  return (
    !consent.requirements.requiresAuth &&
    consent.formId === null &&
    requestedDataCategories(consent.dataSharing).length === 0 &&
    immediate.length > 0 &&
    immediate.length === consent.payments.length &&
    immediate.every((p) => p.status === 'executed')
  );
}

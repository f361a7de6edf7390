import { requestedDataCategories } from './data-sharing';
import type { TConsent } from './schemas/consent';

/**
 * Whether paying the consent's immediate payment is all the consent asks: an immediate payment and
 * nothing else — no future payment, no data, no form — on a consent that lets a payer pay without
 * signing in (spec §6 requirements.requiresAuth false; a form needs sign-in too, spec §6 auth
 * prompt). Such a consent is granted by the server when its payment executes, in the same
 * transaction: a payer who closes the tab after paying leaves the merchant a granted consent, and
 * the page's own grant afterwards answers it granted.
 */
export function isGrantedByPayment(consent: TConsent): boolean {
  return (
    paymentGrantsConsent(consent) &&
    consent.payments.every((p) => p.type === 'immediate' && p.status === 'executed')
  );
}

/**
 * Whether paying the immediate payment is all the consent asks, so that its payment, once
 * executed, grants it (isGrantedByPayment): a signed-in payer's grant after it needs no
 * signature of theirs, and a passkey that cannot sign yet does not stand in the way of paying.
 */
export function paymentGrantsConsent(consent: TConsent): boolean {
  return (
    !consent.requirements.requiresAuth &&
    consent.formId === null &&
    requestedDataCategories(consent.dataSharing).length === 0 &&
    consent.payments.length > 0 &&
    consent.payments.every((p) => p.type === 'immediate')
  );
}

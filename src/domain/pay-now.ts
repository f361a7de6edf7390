import { consentSteps } from './consent-steps';
import type { TErrorCode } from './errors';
import type { TConsent, TPayment } from './schemas/consent';
import { CARD_BRAND_NAMES } from './card-brand';
import { maskCardForPayer } from './card-number';
import type { TPayerBank, TPayerCard } from './schemas/card';
import type { TGrantRequest } from './schemas/consent-api';

/**
 * The immediate payment the payer pays on the Immediate Payment screen (spec §2), when it is the
 * only thing the consent asks for and the consent is still pending: paid or not (a paid one is
 * granted from there). A consent that also asks for data, a form or future payments goes through
 * the steps of the consent flow, which pay the immediate payment last.
 */
export function payNowPayment(consent: TConsent): TPayment | null {
  if (consent.status === 'granted') return null;
  const steps = consentSteps(consent);
  if (steps.length !== 1 || steps[0] !== 'immediate_payment') return null;
  return consent.payments.find((p) => p.type === 'immediate') ?? null;
}

/**
 * The grant the Immediate Payment screen sends once its payment is paid (spec §7 grant data):
 * the immediate payment granted, paid by the method the payer used, nothing else asked.
 */
export function payNowGrantRequest(
  consent: TConsent,
  payment: TPayment,
  method: 'transfer' | 'card',
  signedIn: boolean,
): TGrantRequest {
  return {
    originalRequestId: null,
    consentData: { consentId: consent.consentId },
    userAuthenticated: signedIn,
    attestDiscoveryId: consent.attestDiscoveryId,
    immediatePayments: {
      granted: true,
      selectedAccounts: [],
      paymentMethods: [{ type: method, paymentId: payment.paymentId }],
    },
  };
}

/**
 * The processing view's Payment Source (spec §2): the card that paid, by its last 4 digits; or the sender's
 * bank, account name and the last 4 digits of their account once the bank has named them; until
 * then, how the payer is paying.
 */
export function paymentSourceText(source: {
  method: 'transfer' | 'card';
  payerBank?: TPayerBank | null | undefined;
  payerCard?: TPayerCard | null | undefined;
}): string {
  const { method, payerBank, payerCard } = source;
  if (payerCard) {
    const brand = payerCard.brand ? `${CARD_BRAND_NAMES[payerCard.brand]} ` : '';
    return `${brand}${maskCardForPayer(payerCard.obfuscatedCard)}`;
  }
  if (payerBank) {
    const last4 = payerBank.accountNumber ? `****${payerBank.accountNumber.slice(-4)}` : null;
    return [payerBank.bankName, payerBank.accountName, last4].filter(Boolean).join(' · ');
  }
  return method === 'card' ? 'Card' : 'Bank transfer';
}

/**
 * Whether a card call's error is the payment failing (the bank or network said no, or never
 * answered), shown as 'Payment Failed' with its retry; any other error is the form's to fix.
 */
export function isPaymentFailure(code: TErrorCode): boolean {
  return (
    code === 'CARD_PAYMENT_FAILED' ||
    code === 'CARD_PAYMENT_PROCESSING_FAILED' ||
    code === 'THREE_DS_FAILED' ||
    code === 'PAYMENT_FAILED'
  );
}

/**
 * Whether a card call's error says its envelopes can never go through: encrypted for a key the
 * server retired, or unreadable. The page holds only those envelopes (never the clear card), so
 * it cannot encrypt them again; the payer enters the card, which the form encrypts for the key
 * it fetches then.
 */
export function isUnusableCardEnvelope(code: TErrorCode): boolean {
  return code === 'ENCRYPTION_KEY_RETIRED' || code === 'CARD_DETAILS_UNREADABLE';
}

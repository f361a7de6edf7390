import { DATA_ACCESS_ITEMS } from './auth-prompt';
import { requestedDataCategories } from './data-sharing';
import { amountTypeLabel, frequencyLabel } from './frequency-label';
import { formatNaira } from './money';
import { dueDateLabel, formatLagosDateTime, formatPaymentDate } from './payment-date';
import { PAYER_CONSENTS_PATH } from './payer-pages';
import type { TConsent, TPayment } from './schemas/consent';
import { WITHDRAW_LINE } from './withdraw-note';

export { WITHDRAW_LINE, WITHDRAW_NOTE } from './withdraw-note';

/*
 * The record of a grant that proves itself (NDPA 2023 s.26 and s.35, docs/payer-consents.md "The
 * record"): the text the payer was shown, built here from the consent so that the page and the
 * server draw the same words, kept with its version and SHA-256 hash; the line that says where the
 * consent is withdrawn; the receipt sent by SMS; and the 12 months a data-sharing consent lasts
 * unless the payer confirms it again.
 */

/**
 * The version of the way consentRecordText writes a consent. Changing the words or their order
 * makes a new version: a record keeps the version it was written by, so its hash can be checked
 * against the same text later.
 */
export const CONSENT_TEXT_VERSION = 'consent-text/1';

/** How long data sharing lasts from its grant or its last confirmation (docs/payer-consents.md). */
export const DATA_SHARING_MAX_MONTHS = 12;

/** When data sharing granted or confirmed at `from` ends: the same day DATA_SHARING_MAX_MONTHS on. */
export function dataSharingExpiry(from: Date): Date {
  const end = new Date(from.getTime());
  end.setUTCMonth(end.getUTCMonth() + DATA_SHARING_MAX_MONTHS);
  return end;
}

/** The channel the consent page was shown in (the grant call's `channel`). */
export type { TGrantChannel } from './schemas/consent-api';

/**
 * How the payer proved the grant: 'passkey', a signature of the grant (a signed-in payer's page
 * grant); 'none', the payment itself (a consent granted by its payment, or an anonymous payer,
 * spec §6).
 */
export const GRANT_AUTHENTICATIONS = ['passkey', 'none'] as const;
export type TGrantAuthentication = (typeof GRANT_AUTHENTICATIONS)[number];

/** Each thing a consent asks for, in plain words (the auth prompt's list, spec §2, for all payments). */
export function consentScopes(consent: Pick<TConsent, 'payments' | 'dataSharing' | 'formId'>) {
  const scopes: string[] = [];
  const immediate = consent.payments.filter((p) => p.type === 'immediate');
  if (immediate.length > 0) {
    const total = immediate.reduce((sum, p) => sum + p.amount, 0);
    scopes.push(`Collect ${formatNaira(total)} immediately`);
  }
  const future = consent.payments.filter((p) => p.type === 'future');
  if (future.length > 0) {
    scopes.push(`Schedule ${future.length} future ${future.length === 1 ? 'payment' : 'payments'}`);
  }
  for (const category of requestedDataCategories(consent.dataSharing)) {
    scopes.push(DATA_ACCESS_ITEMS[category]);
  }
  if (consent.formId) scopes.push('Complete a form');
  return scopes;
}

/** One payment as the record words it: amount, kind, frequency, when. */
export function paymentTerms(payment: TPayment): string {
  const amount = formatNaira(payment.amount);
  if (payment.type === 'immediate') return `${amount} now: ${payment.narration}`;
  const from = formatPaymentDate(payment.startDate);
  const to = formatPaymentDate(payment.endDate);
  const span = from && to ? `, ${from} to ${to}` : from ? `, from ${from}` : '';
  return `${amount} ${amountTypeLabel(payment.amountType)}, ${frequencyLabel(payment.frequency, payment.interval)}, due ${dueDateLabel(payment.dueDate)}${span}: ${payment.narration}`;
}

/**
 * The consent's text as the page draws it, in one canonical form: the merchant, what it asks in
 * plain words, each payment's terms, and the withdraw line. Its SHA-256 is the record's hash.
 * Pure: the same consent gives the same text on the page and on the server.
 */
export function consentRecordText(
  consent: Pick<TConsent, 'consentId' | 'counterparty' | 'payments' | 'dataSharing' | 'formId'>,
): string {
  const lines = [
    `${consent.counterparty.name || 'Merchant'} - Consent Request`,
    `Consent ${consent.consentId}`,
    'They would like to:',
    ...consentScopes(consent).map((scope) => `- ${scope}`),
  ];
  if (consent.payments.length > 0) {
    lines.push('Payments:', ...consent.payments.map((p) => `- ${paymentTerms(p)}`));
  }
  lines.push(WITHDRAW_LINE);
  return lines.join('\n');
}

/** What each audit entry of a consent reads as on /consents and in the merchant API. */
const AUDIT_LABELS: Readonly<Record<string, string>> = {
  'consent.created': 'Requested by the merchant',
  'consent.granted': 'Granted',
  'consent.declined': 'Declined',
  'consent.failed': 'Expired before it was answered',
  'consent.revoked': 'Withdrawn',
  'consent.data_sharing_confirmed': 'Data sharing confirmed again',
  'consent.data_sharing_expired': 'Data sharing ended: not confirmed within 12 months',
  'consent.future_payments_cancelled': 'Future payments cancelled by the merchant',
  'payment.executed': 'Payment made',
  'future_payment.collected': 'Future payment collected',
  'future_payment.failed': 'Future payment failed',
  'future_payment.retry_scheduled': 'Future payment to be tried again',
  'future_payment.given_back': 'Debit made after cancelling given back',
  'future_payment.delayed': 'Future payment waits: the payer could not be told of it',
  'payment.skipped': 'Payment skipped',
  'consent.paused': 'Future payments paused',
  'consent.resumed': 'Future payments resumed',
  'payer.erasure_requested': 'The payer asked for their data to be erased',
};

/**
 * The audit entry's words; a kind without words of its own reads as its name made a sentence
 * ('consent.some_change' → 'Some change'), never as the code it is kept under.
 */
export function auditLabel(type: string): string {
  const named = AUDIT_LABELS[type];
  if (named) return named;
  const words = type.replace(/^consent\./, '').replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The SMS receipt's link: the payer's page, opened on this one consent by its token. */
export function consentReceiptUrl(publicUrl: string, token: string): string {
  const url = new URL(PAYER_CONSENTS_PATH, publicUrl);
  url.searchParams.set(RECEIPT_PARAM, token);
  return url.toString();
}

/** The query parameter of the receipt's link: /consents?receipt=<token>. */
export const RECEIPT_PARAM = 'receipt';

/** The SMS receipt a payer gets when they grant a consent (docs/payer-consents.md "The receipt"). */
export function consentReceiptMessage(input: {
  productName: string;
  merchantName: string;
  grantedAt: Date;
  receiptUrl: string;
}): string {
  return `You granted ${input.merchantName} a consent on your ${input.productName} account on ${formatLagosDateTime(input.grantedAt)}. See it, or withdraw it at any time: ${input.receiptUrl}`;
}

/** Data sharing's term as /consents says it: until when, or when it ended. */
export function dataSharingTermText(input: {
  expiresAt: string | null;
  endedAt: string | null;
}): string | null {
  if (input.endedAt) {
    return `Data sharing ended on ${formatPaymentDate(input.endedAt) ?? ''}: it was not confirmed within ${DATA_SHARING_MAX_MONTHS} months.`;
  }
  if (input.expiresAt) {
    return `Data sharing until ${formatPaymentDate(input.expiresAt) ?? ''}. Confirm it to keep sharing for ${DATA_SHARING_MAX_MONTHS} more months.`;
  }
  return null;
}

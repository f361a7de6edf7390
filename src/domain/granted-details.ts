import type { TPaymentOrigin } from './schemas/consent';

/**
 * How Consent Granted names the way its immediate payment was paid (spec §2 Details, Payment
 * Collected: 'payment method'). A debit of the payer's saved account (OneTap, spec §1 'saved bank
 * account') is recorded with the linked account it came from (the origin's bankId, null when
 * masked for a reader other than the payer); a transfer names the sender's account, no linked one.
 */
export function paymentMethodLabel(origin: TPaymentOrigin | null | undefined): string {
  if (!origin) return 'Bank account';
  if (origin.paymentMethod === 'card') return 'Card';
  // The linked account's id is there even masked ('bankId' null to readers other than the payer).
  return 'bankId' in origin ? 'Saved bank account' : 'Bank transfer';
}

/**
 * The footer's 'Confirmations sent to your registered contact.' (spec §2): only a signed-in payer
 * has a registered contact to send them to; a guest who paid without signing in has none.
 */
export function confirmationsNote(signedIn: boolean): string | null {
  return signedIn ? 'Confirmations sent to your registered contact.' : null;
}

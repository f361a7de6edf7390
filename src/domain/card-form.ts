import { validateCardNumber } from './card-number';
import { CARD_EXPIRY_INPUT_LENGTH, CVV_MAX_LENGTH } from './constants';

/** The CVV field as the payer types: digits only, at most 4 (spec §5). */
export function sanitizeCvvInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, CVV_MAX_LENGTH);
}

/**
 * Whether 'Continue to PIN' is enabled (spec §5 'Continue needs card number, expiry, CVV'): each
 * must be there and complete, so the payer is not sent to the PIN step with a card that the
 * encryption check will refuse a step later.
 */
export function canContinueCardForm(card: {
  cardNumber: string;
  expiryDate: string;
  cvv: string;
}): boolean {
  return (
    validateCardNumber(card.cardNumber) === null &&
    card.expiryDate.length === CARD_EXPIRY_INPUT_LENGTH &&
    /^\d{3,4}$/.test(card.cvv)
  );
}

/**
 * Whether 'Save this card for future payments' is forced on (spec §5): it is whenever the card
 * is not paying an immediate payment, i.e. for future payments and for linking (no payment).
 */
export function isSaveCardForced(paymentType: 'immediate' | 'future' | null): boolean {
  return paymentType !== 'immediate';
}

import type { TStoredCard } from '../../domain/pay-now-state';

/*
 * The card whose charge waits for its PIN, kept by this tab until the PIN is sent, so that a
 * reload at the PIN step asks for the PIN alone (docs/payments.md "The card's steps"): the PIN
 * goes beside the card's envelopes that went with the charge. Only the envelopes are kept, sealed
 * for the server's key as the form sent them, never a clear field; another tab holds none.
 */

/** The card's envelopes, each sealed for the server's key (the server opens and checks them). */
const ENVELOPES = ['encryptedCardNumber', 'encryptedExpiryDate', 'encryptedCvv'] as const;
const SEALED_PARTS = ['keyId', 'encryptedAesKey', 'iv', 'encryptedData', 'algorithm'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const isSealed = (value: unknown) =>
  isRecord(value) && SEALED_PARTS.every((part) => typeof value[part] === 'string');

/**
 * A kept card as this tab wrote it: checked by hand, not by the schema library, which the
 * payment's first screen does not load (its budget, scripts/check-page-budget.ts).
 */
function isPinCard(value: unknown): value is TStoredCard {
  if (!isRecord(value) || !isRecord(value.cardDetails)) return false;
  const { cardDetails } = value;
  return (
    typeof value.saveCard === 'boolean' &&
    typeof value.obfuscatedCard === 'string' &&
    ENVELOPES.every((field) => isSealed(cardDetails[field])) &&
    (cardDetails.encryptedPin === undefined || isSealed(cardDetails.encryptedPin))
  );
}

const pinCardKey = (paymentId: string) => `oya-money-pin-card:${paymentId}`;

/** Keeps the card a charge of the payment asked the PIN of. */
export function keepPinCard(paymentId: string, card: TStoredCard): void {
  try {
    window.sessionStorage.setItem(pinCardKey(paymentId), JSON.stringify(card));
  } catch {
    // No storage: a reload at the PIN step offers the card again, as before.
  }
}

/** The card whose charge waits for its PIN, kept by this tab; null for none. */
export function heldPinCard(paymentId: string): TStoredCard | null {
  try {
    const kept = window.sessionStorage.getItem(pinCardKey(paymentId));
    if (kept === null) return null;
    const parsed: unknown = JSON.parse(kept);
    return isPinCard(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Forgets the card once its PIN was sent, whatever the answer. */
export function forgetPinCard(paymentId: string): void {
  try {
    window.sessionStorage.removeItem(pinCardKey(paymentId));
  } catch {
    // Nothing kept.
  }
}

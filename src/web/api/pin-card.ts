import { z } from 'zod';
import { ZEncryptedCard } from '../../domain/schemas/card';
import type { TStoredCard } from '../../domain/pay-now-state';

/*
 * The card whose charge waits for its PIN, kept by this tab until the PIN is sent, so that a
 * reload at the PIN step asks for the PIN alone (docs/payments.md "The card's steps"): the PIN
 * goes beside the card's envelopes that went with the charge. Only the envelopes are kept, sealed
 * for the server's key as the form sent them, never a clear field; another tab holds none.
 */

const ZPinCard = z.object({
  cardDetails: ZEncryptedCard,
  saveCard: z.boolean(),
  obfuscatedCard: z.string(),
});

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
    const parsed = ZPinCard.safeParse(JSON.parse(kept));
    return parsed.success ? parsed.data : null;
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

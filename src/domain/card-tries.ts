/*
 * How often one card may be tried on one payment (docs/payments.md "Limits"). A card whose PIN or
 * details (CVV, expiry) were refused as wrong this many times is blocked for that payment: whoever
 * holds a card number cannot walk its PINs or CVVs through one consent link. The server keeps the
 * count per payment and per card (a keyed hash of its number, never the number).
 */
export const CARD_WRONG_TRIES_PER_PAYMENT = 3;

/** The card network's refusals that say the PIN or the card's details were wrong: they count. */
export const WRONG_CARD_DETAILS_REASONS = ['incorrect_pin', 'invalid_card'] as const;

/** Whether a refusal's reason is one of WRONG_CARD_DETAILS_REASONS. */
export const isWrongCardDetails = (reason: string): boolean =>
  (WRONG_CARD_DETAILS_REASONS as readonly string[]).includes(reason);

/** Why an issuer refused a card, as the payer reads it after the catalogue's words. */
export const CARD_REFUSAL_TEXT = {
  // The page returns to the first consent screen on these words (spec §4).
  insufficient_funds: 'Insufficient funds',
  incorrect_pin: 'Incorrect PIN',
  invalid_card: 'Check the card details',
  declined: 'Declined by your bank',
} as const;

export type TCardRefusal = keyof typeof CARD_REFUSAL_TEXT;

export const isCardRefusal = (reason: string | null): reason is TCardRefusal =>
  reason !== null && Object.hasOwn(CARD_REFUSAL_TEXT, reason);

/**
 * The issuer's reason a failure's words end on ('Card payment failed: Insufficient funds', or the
 * same with what was charged said after it), as the charge's answer and the attempt word it; null
 * for any other failure.
 */
export function cardRefusalIn(message: string | null | undefined): TCardRefusal | null {
  const words = message ?? '';
  const found = (Object.keys(CARD_REFUSAL_TEXT) as TCardRefusal[]).find((reason) => {
    const said = `: ${CARD_REFUSAL_TEXT[reason]}`;
    return words.endsWith(said) || words.includes(`${said}.`);
  });
  return found ?? null;
}

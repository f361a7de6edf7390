import { describe, expect, it } from 'vitest';
import { refusedCardMessage } from './card-refusal';
import { cardRefusalIn, isCardRefusal } from './card-refusal-text';

describe('isCardRefusal', () => {
  it('knows the refusals by name, and nothing else', () => {
    expect(isCardRefusal('incorrect_pin')).toBe(true);
    expect(isCardRefusal('timeout')).toBe(false);
    expect(isCardRefusal('toString')).toBe(false);
    expect(isCardRefusal(null)).toBe(false);
  });
});

describe('cardRefusalIn', () => {
  it("finds the issuer's reason in the words it was said in, for a payment or a link", () => {
    expect(cardRefusalIn(refusedCardMessage('CARD_PAYMENT_FAILED', 'declined'))).toBe('declined');
    expect(cardRefusalIn(refusedCardMessage('CARD_LINKING_FAILED', 'incorrect_pin'))).toBe(
      'incorrect_pin',
    );
    expect(
      cardRefusalIn('Card payment failed: Insufficient funds. Nothing was charged to your card.'),
    ).toBe('insufficient_funds');
  });

  it('names none for other failures, or words that only mention a reason', () => {
    expect(cardRefusalIn('Card payment failed')).toBeNull();
    expect(cardRefusalIn('Your bank did not answer. Nothing was charged.')).toBeNull();
    expect(cardRefusalIn('Card payment failed: Insufficient funds elsewhere')).toBeNull();
    expect(cardRefusalIn(null)).toBeNull();
  });
});

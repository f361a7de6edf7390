import { describe, expect, it } from 'vitest';
import { refusedCardMessage } from './card-refusal';

describe('refusedCardMessage', () => {
  it("puts the issuer's reason after the catalogue's words", () => {
    expect(refusedCardMessage('CARD_PAYMENT_FAILED', 'declined')).toBe(
      'Card payment failed: Declined by your bank',
    );
    expect(refusedCardMessage('CARD_LINKING_FAILED', 'insufficient_funds')).toBe(
      'Card linking failed: Insufficient funds',
    );
  });
});

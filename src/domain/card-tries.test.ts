import { describe, expect, it } from 'vitest';
import { isWrongCardDetails } from './card-tries';

describe('isWrongCardDetails', () => {
  it.each([
    ['incorrect_pin', true],
    ['invalid_card', true],
    ['declined', false],
    ['insufficient_funds', false],
    ['incorrect_otp', false],
    ['timeout', false],
  ])('%s counts as wrong card details: %s', (reason, counts) => {
    expect(isWrongCardDetails(reason)).toBe(counts);
  });
});

import { describe, expect, it } from 'vitest';
import { countNoun } from './plural';

describe('countNoun', () => {
  it.each([
    [0, '0 payments'],
    [1, '1 payment'],
    [2, '2 payments'],
  ])('reads %i as %j', (count, text) => {
    expect(countNoun(count, 'payment')).toBe(text);
  });

  it('takes an irregular plural', () => {
    expect(countNoun(2, 'more payment', 'more payments')).toBe('2 more payments');
  });
});

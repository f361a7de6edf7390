import { describe, expect, it } from 'vitest';
import { PAID_WITH_WORDS, paidWithWay } from './paid-with';

describe('paidWithWay', () => {
  it('calls a future payment collected on its mandate a collection', () => {
    expect(paidWithWay('future', null)).toBe('collection');
    expect(PAID_WITH_WORDS.collection).toBe('Collection');
  });

  it.each([
    ['account', 'Saved bank account'],
    ['bank_transfer', 'Transfer'],
    ['card', 'Card'],
    ['chip_card', 'Chip card'],
  ] as const)('names an immediate payment by its attempt: %s is %j', (method, words) => {
    const way = paidWithWay('immediate', method);
    expect(way && PAID_WITH_WORDS[way]).toBe(words);
  });

  it('names nothing for an immediate payment without a completed attempt', () => {
    expect(paidWithWay('immediate', null)).toBeNull();
  });
});

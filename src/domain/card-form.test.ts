import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canContinueCardForm, isSaveCardForced, sanitizeCvvInput } from './card-form';

describe('sanitizeCvvInput', () => {
  it.each([
    ['12a3', '123'],
    ['12345', '1234'],
    ['', ''],
  ])('keeps at most 4 digits: %j → %j', (raw, cvv) => {
    expect(sanitizeCvvInput(raw)).toBe(cvv);
  });

  it('is idempotent and never exceeds 4 characters', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const once = sanitizeCvvInput(raw);
        expect(sanitizeCvvInput(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(4);
      }),
    );
  });
});

describe('canContinueCardForm', () => {
  const card = { cardNumber: '4111 1111 1111 1111', expiryDate: '12/27', cvv: '123' };
  it.each([
    ['a complete card', card, true],
    ['no card number', { ...card, cardNumber: '' }, false],
    ['a Visa number of 15 digits', { ...card, cardNumber: '4111 1111 1111 111' }, false],
    ['no expiry', { ...card, expiryDate: '' }, false],
    ['a half-typed expiry', { ...card, expiryDate: '12/2' }, false],
    ['no CVV', { ...card, cvv: '' }, false],
    ['a 2-digit CVV', { ...card, cvv: '12' }, false],
    ['a 4-digit CVV', { ...card, cvv: '1234' }, true],
  ])('with %s → %s', (_, input, enabled) => {
    expect(canContinueCardForm(input)).toBe(enabled);
  });
});

describe('isSaveCardForced', () => {
  it.each([
    ['immediate', false],
    ['future', true],
    [null, true],
  ] as const)('for a %s payment → %s', (type, forced) => {
    expect(isSaveCardForced(type)).toBe(forced);
  });
});

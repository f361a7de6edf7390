import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cardNumberDigits,
  formatCardNumberInput,
  maskCardNumberInput,
  obfuscateCard,
  maskCardForPayer,
  validateCardNumber,
} from './card-number';

describe('formatCardNumberInput', () => {
  it.each([
    ['', ''],
    ['4111', '4111'],
    ['41111', '4111 1'],
    ['4111111111111111', '4111 1111 1111 1111'],
    ['4111 1111-1111a1111', '4111 1111 1111 1111'],
    ['1234567890123456789', '1234 5678 9012 3456 789'],
    ['12345678901234567890123', '1234 5678 9012 3456 789'],
  ])('keeps digits only, in groups of four, at most 23 characters: %j → %j', (raw, formatted) => {
    expect(formatCardNumberInput(raw)).toBe(formatted);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const once = formatCardNumberInput(raw);
        expect(formatCardNumberInput(once)).toBe(once);
      }),
    );
  });

  it('never exceeds 23 characters and holds only digits and single spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('1', '2', ' ', 'x', '-') }), (raw) => {
        const formatted = formatCardNumberInput(raw);
        expect(formatted.length).toBeLessThanOrEqual(23);
        expect(formatted).toMatch(/^(\d{4} )*\d{0,4}$/);
      }),
    );
  });
});

describe('maskCardNumberInput', () => {
  it.each([
    ['4111 11', '4111 11'],
    ['4111 111', '***1 111'],
    ['4111 1111 1111 1111', '**** **** **** 1111'],
    ['5061 0000 0000 0000 123', '**** **** **** ***0 123'],
  ])('masks all but the last 4 digits from 8 characters on: %j → %j', (value, masked) => {
    expect(maskCardNumberInput(value)).toBe(masked);
  });

  it('keeps the length and the last 4 digits of what it masks', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,19}$/), (digits) => {
        const formatted = formatCardNumberInput(digits);
        const masked = maskCardNumberInput(formatted);
        expect(masked.length).toBe(formatted.length);
        expect(masked.replace(/\s/g, '').endsWith(digits.slice(-4))).toBe(true);
      }),
    );
  });
});

describe('validateCardNumber', () => {
  it.each([
    ['4111 1111 1111 1111', null],
    ['4111 1111 1111 111', 'Visa cards should have 16 digits'],
    ['4111 1111 1111 1111 1', 'Visa cards should have 16 digits'],
    ['5100 0000 0000 0000', null],
    ['2221 0000 0000 000', 'Mastercard cards should have 16 digits'],
    ['5060 9900 0000 0000', null],
    ['5060 9900 0000 0000 000', 'Verve cards should have 16 digits'],
    ['9000 0000 0000 000', 'Card number must be between 16 and 19 digits'],
    ['9000 0000 0000 0000', null],
    ['9000 0000 0000 0000 000', null],
    ['9000 0000 0000 0000 0000', 'Card number must be between 16 and 19 digits'],
    ['', 'Card number must be between 16 and 19 digits'],
    ['4111 1111 1111 111x', 'Card number must contain only digits'],
  ])('%j → %j', (cardNumber, message) => {
    expect(validateCardNumber(cardNumber)).toBe(message);
  });
});

describe('cardNumberDigits', () => {
  it('strips spaces', () => {
    expect(cardNumberDigits(' 4111 1111 ')).toBe('41111111');
  });
});

describe('obfuscateCard', () => {
  it('shows the first 6 and last 4 digits with six stars between', () => {
    expect(obfuscateCard({ first6: '539983', last4: '8381' })).toBe('539983******8381');
  });
});

describe('maskCardForPayer', () => {
  it.each([
    ['an obfuscated card', '408408******0003', '**** **** **** 0003'],
    ['a card number as typed', '5399 8300 0000 8381', '**** **** **** 8381'],
    ['a 19-digit number', '5061460410120223210', '**** **** **** 3210'],
    ['a card already shown so', '**** **** **** 1234', '**** **** **** 1234'],
  ])('shows only the last 4 digits of %s: %j → %j', (_, card, shown) => {
    expect(maskCardForPayer(card)).toBe(shown);
  });

  it('never shows the first 6 digits', () => {
    expect(maskCardForPayer('539983******1006')).not.toContain('539983');
  });
});

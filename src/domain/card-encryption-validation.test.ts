import { describe, expect, it } from 'vitest';
import { findCardEncryptionError, validateCardForEncryption } from './card-encryption-validation';

const NOW = new Date('2025-06-15T12:00:00Z');
const card = { cardNumber: '4111 1111 1111 1111', expiryDate: '12/27', cvv: '123', pin: '1234' };

describe('validateCardForEncryption', () => {
  it.each([
    ['a valid card', card, null],
    ['a valid card without PIN', { ...card, pin: undefined }, null],
    ['15 digits', { ...card, cardNumber: '4111 1111 1111 111' }, 'Card number must be 16 digits'],
    [
      '19 digits',
      { ...card, cardNumber: '9111 1111 1111 1111 111' },
      'Card number must be 16 digits',
    ],
    [
      'a letter',
      { ...card, cardNumber: '4111 1111 1111 111a' },
      'Card number must contain only digits',
    ],
    ['month 00', { ...card, expiryDate: '00/27' }, 'Please select a valid month'],
    ['month 13', { ...card, expiryDate: '13/27' }, 'Please select a valid month'],
    ['no month', { ...card, expiryDate: '/27' }, 'Please select a valid month'],
    ['month 01', { ...card, expiryDate: '01/27' }, null],
    ['a past year', { ...card, expiryDate: '12/24' }, 'Please select a valid year'],
    ['no year', { ...card, expiryDate: '12/' }, 'Please select a valid year'],
    ['expiring this month', { ...card, expiryDate: '06/25' }, null],
    ['expired last month', { ...card, expiryDate: '05/25' }, 'Card has expired'],
    ['CVV of 2', { ...card, cvv: '12' }, 'CVV must be 3 or 4 digits'],
    ['CVV of 5', { ...card, cvv: '12345' }, 'CVV must be 3 or 4 digits'],
    ['CVV of 4', { ...card, cvv: '1234' }, null],
    ['CVV with a letter', { ...card, cvv: '12a' }, 'CVV must contain only digits'],
    ['PIN of 3', { ...card, pin: '123' }, 'PIN must be 4 digits'],
    ['PIN with a letter', { ...card, pin: '12a4' }, 'PIN must contain only digits'],
  ])('%s → %j', (_, input, message) => {
    expect(validateCardForEncryption(input, NOW)).toBe(message);
  });

  it('reports the first rule broken, in the spec order', () => {
    const bad = { cardNumber: '4111', expiryDate: '13/20', cvv: '1', pin: '1' };
    expect(validateCardForEncryption(bad, NOW)).toBe('Card number must be 16 digits');
    expect(validateCardForEncryption({ ...bad, cardNumber: card.cardNumber }, NOW)).toBe(
      'Please select a valid month',
    );
  });

  it('judges expiry on the Lagos calendar: 23:30 UTC on 30 June is already July', () => {
    const lateJune = new Date('2025-06-30T23:30:00Z');
    expect(validateCardForEncryption({ ...card, expiryDate: '06/25' }, lateJune)).toBe(
      'Card has expired',
    );
    expect(
      validateCardForEncryption({ ...card, expiryDate: '06/25' }, new Date('2025-06-30T22:30:00Z')),
    ).toBeNull();
  });

  it('names the catalogue code so the server can answer with it', () => {
    expect(findCardEncryptionError({ ...card, expiryDate: '05/25' }, NOW)).toBe('CARD_EXPIRED');
    expect(findCardEncryptionError(card, NOW)).toBeNull();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountNumberSubmitError,
  sanitizeAccountNumberInput,
  shouldSearchAccountNumber,
} from './account-number';

describe('sanitizeAccountNumberInput', () => {
  it.each([
    ['012345678', '012345678'],
    ['0123456789', '0123456789'],
    ['01234567891', '0123456789'],
    ['0123-456 789', '0123456789'],
  ])('keeps digits only, at most 10: %j → %j', (raw, value) => {
    expect(sanitizeAccountNumberInput(raw)).toBe(value);
  });

  it('is idempotent and never exceeds 10 characters', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const once = sanitizeAccountNumberInput(raw);
        expect(sanitizeAccountNumberInput(once)).toBe(once);
        expect(once).toMatch(/^\d{0,10}$/);
      }),
    );
  });
});

describe('shouldSearchAccountNumber and accountNumberSubmitError', () => {
  it.each([
    ['9 digits', '012345678', false, 'Please enter a valid account number (minimum 10 digits)'],
    ['10 digits', '0123456789', true, null],
    ['11 digits', '01234567891', false, 'Please enter a valid account number (minimum 10 digits)'],
    ['empty', '', false, 'Please enter a valid account number (minimum 10 digits)'],
  ])('%s: search %s, submit error %j', (_, value, search, error) => {
    expect(shouldSearchAccountNumber(value)).toBe(search);
    expect(accountNumberSubmitError(value)).toBe(error);
  });

  it('searches 11 typed digits once the input has trimmed them to 10', () => {
    expect(shouldSearchAccountNumber(sanitizeAccountNumberInput('01234567891'))).toBe(true);
  });
});

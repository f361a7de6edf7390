import { describe, expect, it } from 'vitest';
import {
  verificationFieldError,
  verificationMaxLength,
  verificationPlaceholder,
} from './verification-form';

describe('verification form', () => {
  it.each([
    ['CARD', 'Last 4 digits', 4],
    ['OTP', 'Enter OTP', 6],
    ['otp', 'Enter OTP', 6],
    ['DATE_OF_BIRTH', 'Enter DATE_OF_BIRTH', 50],
  ])('%s: placeholder %j, max length %i', (param, placeholder, max) => {
    expect(verificationPlaceholder(param)).toBe(placeholder);
    expect(verificationMaxLength(param)).toBe(max);
  });

  it.each([
    ['', 'Card last digits is required'],
    ['   ', 'Card last digits is required'],
    ['1234', null],
  ])('requires a non-blank value: %j → %j', (value, error) => {
    expect(verificationFieldError('Card last digits', value)).toBe(error);
  });
});

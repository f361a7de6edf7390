import { describe, expect, it } from 'vitest';
import { replacePhoneNumberPlaceholder } from './phone-number-placeholder';

describe('replacePhoneNumberPlaceholder', () => {
  it.each([
    ['Enter the OTP sent to [[PhoneNumber]]', 'Enter the OTP sent to your phone number'],
    ['[[PhoneNumber]] and [[PhoneNumber]]', 'your phone number and your phone number'],
    ['No placeholder', 'No placeholder'],
  ])('%j → %j', (message, text) => {
    expect(replacePhoneNumberPlaceholder(message)).toBe(text);
  });
});

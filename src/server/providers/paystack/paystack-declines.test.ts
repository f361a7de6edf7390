import { describe, expect, it } from 'vitest';
import {
  cardDeclineReason,
  debitDeclineReason,
  isDuplicateReference,
  isUnknownReference,
} from './paystack-declines';

describe('Paystack refusals in the port’s words', () => {
  it.each([
    ['Insufficient Funds', 'insufficient_funds'],
    ['Incorrect PIN', 'incorrect_pin'],
    ['Invalid PIN entered', 'incorrect_pin'],
    ['Invalid OTP', 'incorrect_otp'],
    ['Token Authentication Failed', 'incorrect_otp'],
    ['3DS Authentication Failed', 'three_ds_declined'],
    ['Timeout', 'timeout'],
    ['Issuer or switch inoperative', 'timeout'],
    ['Invalid card number', 'invalid_card'],
    ['Card has expired', 'invalid_card'],
    ['Invalid CVV', 'invalid_card'],
    ['Declined', 'declined'],
    ['Do Not Honor', 'declined'],
    ['Something Paystack has never said', 'declined'],
  ] as const)('reads a card charge refused with "%s" as %s', (words, reason) => {
    expect(cardDeclineReason(words)).toBe(reason);
  });

  it('reads a refusal without words as a decline, never as anything else', () => {
    expect(cardDeclineReason(null)).toBe('declined');
    expect(cardDeclineReason('')).toBe('declined');
  });

  it('reads a debit refused for money as insufficient funds, and every other as an account it cannot debit', () => {
    expect(debitDeclineReason('Insufficient Funds')).toBe('insufficient_funds');
    expect(debitDeclineReason('Invalid authorization code')).toBe('account_not_found');
    expect(debitDeclineReason(undefined)).toBe('account_not_found');
  });

  it('knows a duplicate reference and an unknown one', () => {
    expect(isDuplicateReference({ message: 'Duplicate Transaction Reference', code: null })).toBe(
      true,
    );
    expect(isDuplicateReference({ message: 'x', code: 'duplicate_reference' })).toBe(true);
    expect(isDuplicateReference({ message: 'Declined', code: null })).toBe(false);
    expect(
      isUnknownReference({ httpStatus: 400, message: 'Transaction reference not found' }),
    ).toBe(true);
    expect(isUnknownReference({ httpStatus: 404, message: '' })).toBe(true);
    expect(isUnknownReference({ httpStatus: 400, message: 'Declined' })).toBe(false);
  });
});

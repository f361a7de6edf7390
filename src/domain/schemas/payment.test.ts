import { describe, expect, it } from 'vitest';
import { ZImmediatePaymentRequest } from './payment';

const base = {
  type: 'immediate',
  amount: 250_000,
  sourceAccountId: 'acc_1',
  narration: 'First month',
  senderName: 'Ada Obi',
  location: null,
  originalRequestId: null,
};
const paypoint = { paypointId: 'pp_1' };
const user = { destinationAccountId: 'acc_2', destinationUserId: 'usr_2' };
const bank = {
  recipientAccountNumber: '0123456789',
  recipientBankCode: '000014',
  recipientBankName: 'Access Bank',
  recipientAccountName: 'FitLife Gym',
  nameEnquiryId: 'ne_1',
};

describe('ZImmediatePaymentRequest', () => {
  it.each([
    ['a paypoint', paypoint],
    ['a user account', user],
    ['a bank account found by name enquiry', bank],
  ])('accepts a destination of %s', (_, destination) => {
    expect(ZImmediatePaymentRequest.safeParse({ ...base, ...destination }).success).toBe(true);
  });

  it.each([
    ['no destination', {}],
    ['two destinations', { ...paypoint, ...user }],
    ['half a user destination', { destinationAccountId: 'acc_2' }],
  ])('refuses %s', (_, destination) => {
    expect(ZImmediatePaymentRequest.safeParse({ ...base, ...destination }).success).toBe(false);
  });

  it('refuses a fractional or zero amount: money is integer kobo', () => {
    expect(ZImmediatePaymentRequest.safeParse({ ...base, ...paypoint, amount: 10.5 }).success).toBe(
      false,
    );
    expect(ZImmediatePaymentRequest.safeParse({ ...base, ...paypoint, amount: 0 }).success).toBe(
      false,
    );
  });
});

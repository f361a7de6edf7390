import { describe, expect, it } from 'vitest';
import { confirmationsNote, paymentMethodLabel } from './granted-details';

describe('paymentMethodLabel (Consent Granted, Payment Collected)', () => {
  it('names a debit of the saved account as such, not a bank transfer', () => {
    expect(
      paymentMethodLabel({
        paymentMethod: 'bank_transfer',
        bankId: 'bnk_1',
        accountNumber: '0123456789',
        bankName: 'Access Bank',
      }),
    ).toBe('Saved bank account');
    // As a reader other than the payer sees it, masked.
    expect(
      paymentMethodLabel({
        paymentMethod: 'bank_transfer',
        bankId: null,
        accountNumber: '****6789',
      }),
    ).toBe('Saved bank account');
  });

  it('names a transfer from an account the payer has not linked a bank transfer', () => {
    expect(
      paymentMethodLabel({
        paymentMethod: 'bank_transfer',
        bankName: 'Access Bank',
        accountNumber: '0123456789',
      }),
    ).toBe('Bank transfer');
  });

  it('names a card a card, and an unknown origin a bank account', () => {
    expect(paymentMethodLabel({ paymentMethod: 'card' })).toBe('Card');
    expect(paymentMethodLabel(null)).toBe('Bank account');
  });
});

describe('confirmationsNote (Consent Granted footer)', () => {
  it('tells a signed-in payer their registered contact has the confirmations', () => {
    expect(confirmationsNote(true)).toBe('Confirmations sent to your registered contact.');
  });

  it('says nothing of a registered contact to a guest, who has none', () => {
    expect(confirmationsNote(false)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { consentButton, isConsentButtonDisabled } from './consent-button';
import type { TConsentStep } from './consent-steps';

describe('consentButton', () => {
  it.each([
    [false, '0123456789', { variant: 'onetap', label: 'OneTap', maskedAccount: '****6789' }],
    [false, null, { variant: 'consent', label: 'Consent' }],
    [true, '0123456789', null],
  ])('processing %s with account %j → %j', (processing, selectedAccountNumber, button) => {
    expect(consentButton({ processing, selectedAccountNumber })).toEqual(button);
  });
});

describe('isConsentButtonDisabled', () => {
  const base = {
    selectedFutureAccountCount: 0,
    immediatePaymentCompleted: false,
    immediateAccountSelected: false,
    transferMethodChosen: false,
  };
  it.each<[string, TConsentStep, Partial<typeof base>, boolean]>([
    ['future step, no account', 'future_payments', {}, true],
    ['future step, one account', 'future_payments', { selectedFutureAccountCount: 1 }, false],
    ['immediate step, nothing', 'immediate_payment', {}, true],
    [
      'immediate step, payment completed',
      'immediate_payment',
      { immediatePaymentCompleted: true },
      false,
    ],
    [
      'immediate step, account selected',
      'immediate_payment',
      { immediateAccountSelected: true },
      false,
    ],
    ['immediate step, transfer chosen', 'immediate_payment', { transferMethodChosen: true }, false],
    ['data sharing step', 'data_sharing', {}, false],
    ['form step', 'form', {}, false],
  ])('%s → disabled %s', (_, step, over, disabled) => {
    expect(isConsentButtonDisabled({ ...base, ...over, step })).toBe(disabled);
  });
});

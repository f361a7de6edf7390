import { maskAccountNumber } from './account-row';
import type { TConsentStep } from './consent-steps';

export type TConsentButton =
  | { variant: 'onetap'; label: 'OneTap'; maskedAccount: string }
  | { variant: 'consent'; label: 'Consent' };

/**
 * The consent button (spec §2 Consent button variants): 'OneTap' with the selected account's
 * last 4 digits (****1234) when an account with a number is selected, else 'Consent'; null while
 * processing, when it is hidden.
 */
export function consentButton(input: {
  processing: boolean;
  selectedAccountNumber: string | null;
}): TConsentButton | null {
  if (input.processing) return null;
  if (input.selectedAccountNumber) {
    return {
      variant: 'onetap',
      label: 'OneTap',
      maskedAccount: maskAccountNumber(input.selectedAccountNumber),
    };
  }
  return { variant: 'consent', label: 'Consent' };
}

/**
 * Whether the consent button is disabled (spec §4 Consent flow): on the future step while no
 * future account is selected; on the immediate step while the payment is not completed, no
 * immediate account is selected and no transfer method is chosen (any one of the three enables
 * it). Other steps have their own buttons and never disable this one.
 */
export function isConsentButtonDisabled(input: {
  step: TConsentStep;
  selectedFutureAccountCount: number;
  immediatePaymentCompleted: boolean;
  immediateAccountSelected: boolean;
  transferMethodChosen: boolean;
}): boolean {
  switch (input.step) {
    case 'future_payments':
      return input.selectedFutureAccountCount === 0;
    case 'immediate_payment':
      return (
        !input.immediatePaymentCompleted &&
        !input.immediateAccountSelected &&
        !input.transferMethodChosen
      );
    case 'data_sharing':
    case 'form':
      return false;
  }
}

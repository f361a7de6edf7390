import { ACCOUNT_NUMBER_LENGTH } from './constants';
import { ERROR_CATALOGUE } from './errors';

/** The manual account-number field as the payer types: digits only, at most 10 (spec §5). */
export function sanitizeAccountNumberInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, ACCOUNT_NUMBER_LENGTH);
}

/**
 * Whether the (debounced) search runs for this value (spec §5): only at exactly 10 digits.
 * Below 10 the page clears results and errors instead.
 */
export function shouldSearchAccountNumber(accountNumber: string): boolean {
  return new RegExp(`^\\d{${ACCOUNT_NUMBER_LENGTH}}$`).test(accountNumber);
}

/** The error for submitting the manual account number, or null (spec §5). */
export function accountNumberSubmitError(accountNumber: string): string | null {
  return shouldSearchAccountNumber(accountNumber)
    ? null
    : ERROR_CATALOGUE.INVALID_ACCOUNT_NUMBER.message;
}

import { ACCOUNT_NUMBER_LENGTH } from './constants';

/*
 * The CBN's NUBAN check digit: the tenth digit of a Nigerian account number is fixed by the
 * bank's institution code and the nine-digit serial before it. Name enquiry refuses a number
 * whose check digit is wrong, and the page can tell a mistyped number before asking.
 *
 * The revised standard weighs 15 digits, 3-7-3 repeating: the institution code made six digits
 * (a deposit-money bank's 3-digit code after '000', a microfinance bank's 5-digit code after
 * '9', a 6-digit code as it is), then the serial. The check digit is 10 minus the weighted sum
 * modulo 10, and 0 for 10.
 */

const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3] as const;

/** The institution code as the check weighs it, or null for a code of another length. */
function sixDigitCode(institutionCode: string): string | null {
  if (!/^\d+$/.test(institutionCode)) return null;
  if (institutionCode.length === 3) return `000${institutionCode}`;
  if (institutionCode.length === 5) return `9${institutionCode}`;
  return institutionCode.length === 6 ? institutionCode : null;
}

/** The check digit of a nine-digit serial at a bank, or null when either is malformed. */
export function nubanCheckDigit(institutionCode: string, serial: string): string | null {
  const code = sixDigitCode(institutionCode);
  if (code === null || !/^\d{9}$/.test(serial)) return null;
  const sum = [...(code + serial)].reduce(
    (total, digit, i) => total + Number(digit) * WEIGHTS[i]!,
    0,
  );
  return String((10 - (sum % 10)) % 10);
}

/** Whether a 10-digit account number is a valid NUBAN of the bank with this code. */
export function isValidNuban(institutionCode: string, accountNumber: string): boolean {
  if (accountNumber.length !== ACCOUNT_NUMBER_LENGTH) return false;
  const check = nubanCheckDigit(institutionCode, accountNumber.slice(0, 9));
  return check !== null && check === accountNumber.slice(9);
}

import { OTP_LENGTH } from './constants';

/** One OTP box or the whole OTP field: digits only, at most 6 (spec §5). */
export function sanitizeOtpInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

/**
 * Whether the bank's message asks for a bank token rather than an OTP (spec §5 'a bank whose
 * message mentions a bank token').
 */
export function isBankTokenRequest(displayMessage: string | null | undefined): boolean {
  return /\btoken\b/i.test(displayMessage ?? '');
}

/**
 * Whether 'Verify OTP' is enabled (spec §5): exactly 6 digits, or for a bank token any free text
 * of at least 1 non-blank character.
 */
export function canSubmitOtp(otp: string, options: { bankToken: boolean }): boolean {
  if (options.bankToken) return otp.trim().length >= 1;
  return new RegExp(`^\\d{${OTP_LENGTH}}$`).test(otp);
}

/**
 * What the page does after a failed OTP (spec §4): on 'Insufficient funds' another try cannot
 * succeed, so the payer goes back to the first consent screen; otherwise the retry option shows.
 */
export function otpFailureAction(message: string | null | undefined): 'restart' | 'retry' {
  return /insufficient funds/i.test(message ?? '') ? 'restart' : 'retry';
}

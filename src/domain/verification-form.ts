import {
  VERIFICATION_CARD_MAX_LENGTH,
  VERIFICATION_OTHER_MAX_LENGTH,
  VERIFICATION_OTP_MAX_LENGTH,
} from './constants';

/**
 * Placeholder of an alternate-service verification input (spec §2): 'Last 4 digits' for CARD,
 * 'Enter OTP' for OTP, otherwise 'Enter {param}'.
 */
export function verificationPlaceholder(param: string): string {
  switch (param.toUpperCase()) {
    case 'CARD':
      return 'Last 4 digits';
    case 'OTP':
      return 'Enter OTP';
    default:
      return `Enter ${param}`;
  }
}

/** Max length of a verification input (spec §2, §9): 4 for CARD, 6 for OTP, 50 otherwise. */
export function verificationMaxLength(param: string): number {
  switch (param.toUpperCase()) {
    case 'CARD':
      return VERIFICATION_CARD_MAX_LENGTH;
    case 'OTP':
      return VERIFICATION_OTP_MAX_LENGTH;
    default:
      return VERIFICATION_OTHER_MAX_LENGTH;
  }
}

/** A verification input's error (spec §2, §5): every input is required and non-blank. */
export function verificationFieldError(label: string, value: string): string | null {
  return value.trim() === '' ? `${label} is required` : null;
}

import { PIN_LENGTH } from './constants';

/** The PIN field as the payer types: digits only, at most 4 (spec §5). */
export function sanitizePinInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, PIN_LENGTH);
}

/** 'Complete Payment' needs exactly 4 digits (spec §5). */
export function canSubmitPin(pin: string): boolean {
  return new RegExp(`^\\d{${PIN_LENGTH}}$`).test(pin);
}

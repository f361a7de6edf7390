import { CARD_EXPIRY_INPUT_LENGTH } from './constants';

/**
 * The expiry field as the payer types (spec §5 'MM/YY, 5 chars'): digits only, '/' inserted
 * after the month once a year digit follows. No trailing '/' is added, so backspace works.
 */
export function formatExpiryInput(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, CARD_EXPIRY_INPUT_LENGTH - 1);
  const formatted = digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
  return formatted.slice(0, CARD_EXPIRY_INPUT_LENGTH);
}

export type TCardExpiry = { month: number | null; year: number | null };

/**
 * 'MM/YY' split at '/', the year prefixed by '20' (spec §5). Each part is null when it is not
 * digits (1–2 for the month, 2 for the year); range checks belong to validateCardForEncryption.
 */
export function parseExpiryDate(expiryDate: string): TCardExpiry {
  const [monthText = '', yearText = ''] = expiryDate.trim().split('/');
  return {
    month: /^\d{1,2}$/.test(monthText) ? Number(monthText) : null,
    year: /^\d{2}$/.test(yearText) ? Number(`20${yearText}`) : null,
  };
}
